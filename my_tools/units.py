"""Unit conversion for length, mass, temperature, volume, speed, area, time and data size.

Units are accepted by symbol (km, lb, °F), English name (mile, pound) or Chinese name (公里, 斤,
亩). Chinese market units follow the PRC definitions: 1 斤 = 500 g, 1 两 = 50 g, 1 市尺 = 1/3 m,
1 亩 = 2000/3 m², 1 里 = 500 m.
"""

import difflib

# category -> {canonical unit: (factor to the category's base unit, aliases)}
UNITS = {
    "length": {  # base: metre
        "m": (1, ["meter", "metre", "meters", "metres", "米"]),
        "km": (1000, ["kilometer", "kilometre", "kilometers", "kilometres", "千米", "公里"]),
        "cm": (0.01, ["centimeter", "centimetre", "厘米", "公分"]),
        "mm": (0.001, ["millimeter", "millimetre", "毫米"]),
        "um": (1e-6, ["μm", "micrometer", "micron", "微米"]),
        "nm": (1e-9, ["nanometer", "纳米"]),
        "mi": (1609.344, ["mile", "miles", "英里"]),
        "yd": (0.9144, ["yard", "yards", "码"]),
        "ft": (0.3048, ["foot", "feet", "英尺", "呎"]),
        "in": (0.0254, ["inch", "inches", "英寸", "吋"]),
        "nmi": (1852, ["nautical mile", "海里"]),
        "li": (500, ["里", "市里"]),
        "zhang": (10 / 3, ["丈"]),
        "chi": (1 / 3, ["尺", "市尺"]),
        "cun": (1 / 30, ["寸", "市寸"]),
    },
    "mass": {  # base: kilogram
        "kg": (1, ["kilogram", "kilograms", "千克", "公斤", "kilo"]),
        "g": (0.001, ["gram", "grams", "克"]),
        "mg": (1e-6, ["milligram", "毫克"]),
        "t": (1000, ["tonne", "metric ton", "吨", "公吨"]),
        "lb": (0.45359237, ["lbs", "pound", "pounds", "磅"]),
        "oz": (0.028349523125, ["ounce", "ounces", "盎司"]),
        "jin": (0.5, ["斤", "市斤"]),
        "liang": (0.05, ["两", "市两"]),
        "st": (6.35029318, ["stone", "英石"]),
        "ct": (0.0002, ["carat", "克拉"]),
    },
    "volume": {  # base: litre
        "l": (1, ["liter", "litre", "liters", "litres", "升", "公升"]),
        "ml": (0.001, ["milliliter", "millilitre", "毫升", "cc"]),
        "m3": (1000, ["m³", "cubic meter", "cubic metre", "立方米", "方"]),
        "cm3": (0.001, ["cm³", "cubic centimeter", "立方厘米"]),
        "gal": (3.785411784, ["gallon", "gallons", "us gallon", "加仑", "美制加仑"]),
        "imp_gal": (4.54609, ["imperial gallon", "英制加仑"]),
        "qt": (0.946352946, ["quart", "夸脱"]),
        "pt": (0.473176473, ["pint", "品脱"]),
        "cup": (0.2365882365, ["cups", "杯"]),
        "fl_oz": (0.0295735295625, ["fl oz", "fluid ounce", "液量盎司"]),
        "tbsp": (0.01478676478125, ["tablespoon", "汤匙"]),
        "tsp": (0.00492892159375, ["teaspoon", "茶匙"]),
    },
    "speed": {  # base: metre per second
        "m/s": (1, ["mps", "meters per second", "米每秒", "米/秒"]),
        "km/h": (1 / 3.6, ["kmh", "kph", "kilometers per hour", "公里每小时", "千米每小时", "公里/小时", "千米/时"]),
        "mph": (0.44704, ["miles per hour", "英里每小时"]),
        "kn": (1852 / 3600, ["knot", "knots", "kt", "节"]),
        "ft/s": (0.3048, ["fps", "feet per second", "英尺每秒"]),
        "mach": (340.3, ["马赫"]),
    },
    "area": {  # base: square metre
        "m2": (1, ["m²", "sqm", "square meter", "square metre", "平方米", "平米"]),
        "km2": (1e6, ["km²", "square kilometer", "square kilometre", "平方公里", "平方千米"]),
        "cm2": (1e-4, ["cm²", "square centimeter", "平方厘米"]),
        "ha": (1e4, ["hectare", "hectares", "公顷"]),
        "acre": (4046.8564224, ["acres", "英亩"]),
        "ft2": (0.09290304, ["ft²", "sqft", "square foot", "square feet", "平方英尺"]),
        "mi2": (2589988.110336, ["mi²", "square mile", "平方英里"]),
        "mu": (2000 / 3, ["亩", "市亩"]),
    },
    "time": {  # base: second
        "s": (1, ["sec", "second", "seconds", "秒"]),
        "ms": (0.001, ["millisecond", "milliseconds", "毫秒"]),
        "min": (60, ["minute", "minutes", "分钟", "分"]),
        "h": (3600, ["hr", "hour", "hours", "小时", "时"]),
        "d": (86400, ["day", "days", "天", "日"]),
        "wk": (604800, ["week", "weeks", "周", "星期"]),
        "yr": (31557600, ["year", "years", "年"]),  # Julian year, 365.25 days
    },
    "data": {  # base: byte
        "B": (1, ["byte", "bytes", "字节"]),
        "bit": (0.125, ["bits", "b", "比特", "位"]),
        "KB": (1e3, ["kilobyte", "kilobytes"]),
        "MB": (1e6, ["megabyte", "megabytes", "兆"]),
        "GB": (1e9, ["gigabyte", "gigabytes"]),
        "TB": (1e12, ["terabyte", "terabytes"]),
        "PB": (1e15, ["petabyte", "petabytes"]),
        "Kbit": (125, ["Kb", "kbit", "kilobit", "kilobits"]),
        "Mbit": (125e3, ["Mb", "mbit", "megabit", "megabits"]),
        "Gbit": (125e6, ["Gb", "gbit", "gigabit", "gigabits"]),
        "KiB": (2**10, ["kibibyte"]),
        "MiB": (2**20, ["mebibyte"]),
        "GiB": (2**30, ["gibibyte"]),
        "TiB": (2**40, ["tebibyte"]),
    },
}
TEMPERATURE = {
    "C": ["°c", "℃", "celsius", "摄氏度", "摄氏", "度"],
    "F": ["°f", "℉", "fahrenheit", "华氏度", "华氏"],
    "K": ["kelvin", "开尔文"],
}

# Data-size symbols are case-sensitive (b = bit, B = byte); everything else matches case-insensitively.
_INDEX = {}
for _category, _units in UNITS.items():
    for _unit, (_factor, _aliases) in _units.items():
        for _name in [_unit, *_aliases]:
            key = _name if _category == "data" and len(_name) <= 3 else _name.lower()
            _INDEX.setdefault(key, (_category, _unit))
for _unit, _aliases in TEMPERATURE.items():
    for _name in [_unit, *_aliases]:
        _INDEX.setdefault(_name if _name == "K" else _name.lower(), ("temperature", _unit))
# Lower-case byte symbols (mb, gb) are how people usually type bytes; exact case above wins (Mb = megabit).
for _unit in ("KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB"):
    _INDEX.setdefault(_unit.lower(), ("data", _unit))
_INDEX["c"] = ("temperature", "C")
_INDEX["f"] = ("temperature", "F")


def _lookup(unit):
    text = (unit or "").strip()
    for key in (text, text.lower(), text.lower().rstrip("s")):
        if key in _INDEX:
            return _INDEX[key]
    close = difflib.get_close_matches(text.lower(), list(_INDEX), n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise ValueError(f"unknown unit '{unit}'.{hint} Categories: length, mass, temperature, volume, speed, area, time, data size")


def _to_celsius(value, unit):
    return {"C": value, "F": (value - 32) * 5 / 9, "K": value - 273.15}[unit]


def _from_celsius(value, unit):
    return {"C": value, "F": value * 9 / 5 + 32, "K": value + 273.15}[unit]


def convert_units(value, from_unit, to_unit):
    """Convert `value` from one unit to another of the same kind (e.g. 5 公里 -> mi, 98.6 °F -> °C)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("value must be a number")
    source, target = _lookup(from_unit), _lookup(to_unit)
    if source[0] != target[0]:
        raise ValueError(f"cannot convert {source[0]} ({from_unit}) to {target[0]} ({to_unit}): pick two units of the same kind")
    category = source[0]
    if category == "temperature":
        result = _from_celsius(_to_celsius(value, source[1]), target[1])
        if _to_celsius(value, source[1]) < -273.15:
            raise ValueError("that temperature is below absolute zero (-273.15 °C)")
    else:
        units = UNITS[category]
        result = value * units[source[1]][0] / units[target[1]][0]
    result = float(f"{result:.12g}")
    if result.is_integer() and abs(result) < 2**53:
        result = int(result)
    return {
        "value": value, "from_unit": source[1], "to_unit": target[1], "category": category,
        "result": result, "text": f"{value:g} {from_unit} = {result:g} {to_unit}",
    }
