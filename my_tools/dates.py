"""Calendar arithmetic: days between two dates, a date plus or minus N days, and what weekday a
date falls on. Dates are ISO (2024-05-01), 2024/5/1, 2024年5月1日, or today / 今天."""

import re
from datetime import date as Date, timedelta

WEEKDAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WEEKDAYS_ZH = ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"]
OPERATIONS = ("between", "add", "info")
DATE = re.compile(r"^\s*(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s*$")


def _parse(text, field):
    value = (text or "").strip()
    if value.lower() in ("today", "今天", "今日"):
        return Date.today()
    if value.lower() in ("tomorrow", "明天"):
        return Date.today() + timedelta(days=1)
    if value.lower() in ("yesterday", "昨天"):
        return Date.today() - timedelta(days=1)
    match = DATE.match(value)
    if not match:
        raise ValueError(f"'{field}' is not a date: {text!r}; use YYYY-MM-DD (e.g. 2024-05-01) or 'today'")
    try:
        return Date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError as err:
        raise ValueError(f"'{field}' is not a valid date: {text!r} ({err})") from None


def _info(day):
    iso = day.isocalendar()
    leap = day.year % 4 == 0 and (day.year % 100 != 0 or day.year % 400 == 0)
    return {
        "date": day.isoformat(),
        "weekday": WEEKDAYS_EN[day.weekday()],
        "weekday_zh": WEEKDAYS_ZH[day.weekday()],
        "day_of_year": day.timetuple().tm_yday,
        "iso_week": iso[1],
        "quarter": (day.month - 1) // 3 + 1,
        "is_weekend": day.weekday() >= 5,
        "is_leap_year": leap,
        "days_from_today": (day - Date.today()).days,
    }


def _workdays(start, end):
    """Monday–Friday days in [start, end) — public holidays are not known here."""
    if end < start:
        return -_workdays(end, start)
    total = (end - start).days
    weeks, rest = divmod(total, 7)
    count = weeks * 5
    for i in range(rest):
        if (start + timedelta(days=weeks * 7 + i)).weekday() < 5:
            count += 1
    return count


def date_calculate(operation, date, end_date=None, days=None):
    """between: days from `date` to `end_date`; add: `date` + `days`; info: weekday and calendar facts."""
    if operation not in OPERATIONS:
        raise ValueError(f"unknown operation '{operation}'; use one of: {', '.join(OPERATIONS)}")
    start = _parse(date, "date")
    if operation == "info":
        info = _info(start)
        info["text"] = f"{info['date']} 是{info['weekday_zh']}（{info['weekday']}），第 {info['iso_week']} 周，当年第 {info['day_of_year']} 天"
        return info
    if operation == "between":
        if end_date is None:
            raise ValueError("operation 'between' needs end_date")
        end = _parse(end_date, "end_date")
        delta = (end - start).days
        workdays = _workdays(start, end)
        return {
            "start": _info(start), "end": _info(end), "days": delta,
            "weeks": round(delta / 7, 2), "workdays": workdays,
            "text": (
                f"从 {start.isoformat()} 到 {end.isoformat()} 相差 {delta} 天（{WEEKDAYS_ZH[start.weekday()]} → "
                f"{WEEKDAYS_ZH[end.weekday()]}），其中工作日（周一至周五，不计节假日）{workdays} 天"
            ),
        }
    if days is None or isinstance(days, bool) or not isinstance(days, int):
        raise ValueError("operation 'add' needs days, a whole number (negative to go back)")
    try:
        result = start + timedelta(days=days)
    except OverflowError:
        raise ValueError(f"{start.isoformat()} + {days} days is outside the calendar (years 1–9999)") from None
    info = _info(result)
    info["text"] = f"{start.isoformat()} {'加' if days >= 0 else '减'} {abs(days)} 天是 {result.isoformat()}，{info['weekday_zh']}"
    return {"start": start.isoformat(), "days": days, **info}
