"""Convert a date and time between time zones with the IANA database (zoneinfo).

Zones are IANA names (Asia/Shanghai, America/New_York), UTC offsets (UTC+8, +05:30), or common
city names in English or Chinese (北京, 东京, New York) mapped to their IANA zone.
"""

import difflib
import re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

CITY_ZONES = {
    "北京": "Asia/Shanghai", "上海": "Asia/Shanghai", "广州": "Asia/Shanghai", "深圳": "Asia/Shanghai",
    "中国": "Asia/Shanghai", "beijing": "Asia/Shanghai", "shanghai": "Asia/Shanghai", "china": "Asia/Shanghai",
    "香港": "Asia/Hong_Kong", "hong kong": "Asia/Hong_Kong", "台北": "Asia/Taipei", "taipei": "Asia/Taipei",
    "东京": "Asia/Tokyo", "日本": "Asia/Tokyo", "tokyo": "Asia/Tokyo", "首尔": "Asia/Seoul", "seoul": "Asia/Seoul",
    "新加坡": "Asia/Singapore", "singapore": "Asia/Singapore", "曼谷": "Asia/Bangkok", "bangkok": "Asia/Bangkok",
    "迪拜": "Asia/Dubai", "dubai": "Asia/Dubai", "新德里": "Asia/Kolkata", "孟买": "Asia/Kolkata",
    "india": "Asia/Kolkata", "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata",
    "伦敦": "Europe/London", "london": "Europe/London", "巴黎": "Europe/Paris", "paris": "Europe/Paris",
    "柏林": "Europe/Berlin", "berlin": "Europe/Berlin", "莫斯科": "Europe/Moscow", "moscow": "Europe/Moscow",
    "纽约": "America/New_York", "new york": "America/New_York", "华盛顿": "America/New_York",
    "芝加哥": "America/Chicago", "chicago": "America/Chicago", "丹佛": "America/Denver", "denver": "America/Denver",
    "洛杉矶": "America/Los_Angeles", "旧金山": "America/Los_Angeles", "西雅图": "America/Los_Angeles",
    "los angeles": "America/Los_Angeles", "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles",
    "多伦多": "America/Toronto", "toronto": "America/Toronto", "温哥华": "America/Vancouver", "vancouver": "America/Vancouver",
    "圣保罗": "America/Sao_Paulo", "são paulo": "America/Sao_Paulo", "sao paulo": "America/Sao_Paulo",
    "悉尼": "Australia/Sydney", "sydney": "Australia/Sydney", "墨尔本": "Australia/Melbourne", "melbourne": "Australia/Melbourne",
    "奥克兰": "Pacific/Auckland", "auckland": "Pacific/Auckland",
    "utc": "UTC", "gmt": "UTC", "协调世界时": "UTC", "格林尼治": "UTC",
}
WEEKDAYS_ZH = ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"]
OFFSET = re.compile(r"^(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)


def _zone(name):
    text = (name or "").strip()
    key = text.lower()
    if key in CITY_ZONES:
        return ZoneInfo(CITY_ZONES[key]), CITY_ZONES[key]
    match = OFFSET.match(key)
    if match:
        sign = 1 if match.group(1) == "+" else -1
        delta = timedelta(hours=int(match.group(2)), minutes=int(match.group(3) or 0))
        if delta > timedelta(hours=14):
            raise ValueError(f"UTC offset '{name}' is out of range (-12:00 to +14:00)")
        return timezone(sign * delta), text.upper()
    try:
        return ZoneInfo(text), text
    except (ZoneInfoNotFoundError, ValueError):
        known = {z.lower(): z for z in available_timezones()}
        if key in known:  # asia/shanghai
            return ZoneInfo(known[key]), known[key]
        close = difflib.get_close_matches(key, list(known) + list(CITY_ZONES), n=3, cutoff=0.6)
        names = [known.get(c, c) for c in close]
        hint = f" Did you mean {', '.join(names)}?" if names else ""
        raise ValueError(f"unknown time zone '{name}'.{hint} Use an IANA name such as Asia/Shanghai, an offset such as UTC+8, or a major city") from None


def _parse_time(text, zone):
    value = (text or "").strip()
    if value.lower() in ("", "now", "现在"):
        return datetime.now(zone).replace(microsecond=0)
    cleaned = value.replace("T", " ").replace("/", "-")
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%H:%M:%S", "%H:%M"):
        try:
            parsed = datetime.strptime(cleaned, fmt)
        except ValueError:
            continue
        if fmt.startswith("%H"):  # a bare time means today in the source zone
            today = datetime.now(zone).date()
            parsed = parsed.replace(year=today.year, month=today.month, day=today.day)
        return parsed.replace(tzinfo=zone)
    try:
        parsed = datetime.fromisoformat(value)  # with an explicit offset: 2024-05-01T09:00+02:00
    except ValueError:
        raise ValueError(f"cannot read the time '{text}'; use 'YYYY-MM-DD HH:MM', 'HH:MM' or 'now'") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)


def _describe(moment, label):
    offset = moment.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return {
        "time": moment.strftime("%Y-%m-%d %H:%M:%S"),
        "time_zone": label,
        "utc_offset": f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}",
        "weekday": moment.strftime("%A"),
        "weekday_zh": WEEKDAYS_ZH[moment.weekday()],
        "dst": bool(moment.dst()) if moment.dst() is not None else False,
    }


def convert_timezone(time, from_zone, to_zone):
    """Show the wall-clock time in `to_zone` for a time given in `from_zone` (DST-aware)."""
    source_zone, source_label = _zone(from_zone)
    target_zone, target_label = _zone(to_zone)
    moment = _parse_time(time, source_zone)
    if moment.tzinfo is not source_zone:  # the time carried its own offset, which wins over from_zone
        source_label = _describe(moment, "")["utc_offset"]
    converted = moment.astimezone(target_zone)
    source, target = _describe(moment, source_label), _describe(converted, target_label)
    diff_hours = ((converted.utcoffset() or timedelta(0)) - (moment.utcoffset() or timedelta(0))).total_seconds() / 3600
    return {
        "from": source,
        "to": target,
        "difference_hours": int(diff_hours) if diff_hours.is_integer() else diff_hours,
        "text": f"{source['time']} {source_label} ({source['utc_offset']}) = {target['time']} {target_label} ({target['utc_offset']}, {target['weekday_zh']})",
    }
