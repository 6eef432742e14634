"""Current weather and a short forecast from Open-Meteo (https://open-meteo.com, no API key).

The base URLs can be overridden with OPEN_METEO_GEOCODING_URL and OPEN_METEO_FORECAST_URL
(tests point them at a local server that answers like the real API). No data is ever made up:
when the service cannot be reached, the call fails and says so.
"""

import json
import os
import urllib.error
import urllib.parse
import urllib.request

GEOCODING_URL = "https://geocoding-api.open-meteo.com/v1/search"
FORECAST_URL = "https://api.open-meteo.com/v1/forecast"
TIMEOUT_SECONDS = 10

# WMO weather interpretation codes, as documented by Open-Meteo.
WMO_CODES = {
    0: "晴", 1: "大部晴朗", 2: "多云", 3: "阴",
    45: "雾", 48: "雾凇",
    51: "小毛毛雨", 53: "毛毛雨", 55: "大毛毛雨", 56: "冻毛毛雨", 57: "强冻毛毛雨",
    61: "小雨", 63: "中雨", 65: "大雨", 66: "冻雨", 67: "强冻雨",
    71: "小雪", 73: "中雪", 75: "大雪", 77: "米雪",
    80: "小阵雨", 81: "阵雨", 82: "强阵雨", 85: "小阵雪", 86: "强阵雪",
    95: "雷阵雨", 96: "雷阵雨伴小冰雹", 99: "雷阵雨伴大冰雹",
}
RAIN_CODES = {51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 80, 81, 82, 95, 96, 99}
COMPASS = ["北", "东北", "东", "东南", "南", "西南", "西", "西北"]


def _fetch_json(base_url, params):
    url = base_url + "?" + urllib.parse.urlencode(params)
    host = urllib.parse.urlsplit(base_url).netloc or base_url
    request = urllib.request.Request(url, headers={"Accept": "application/json", "User-Agent": "toolbox-weather/1.0"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as err:
        if err.code in (502, 504) and err.headers.get("X-Toolbox-Proxy"):
            # toolbox's egress proxy could not resolve or reach the host: offline, not the service's answer.
            raise RuntimeError(
                f"cannot reach the weather service at {host}: {err.reason}; this tool needs internet access"
            ) from None
        reason = err.reason
        try:
            reason = json.loads(err.read().decode("utf-8")).get("reason", reason)
        except (ValueError, AttributeError):
            pass
        raise RuntimeError(f"the weather service at {host} answered HTTP {err.code}: {reason}") from None
    except (urllib.error.URLError, OSError) as err:
        reason = getattr(err, "reason", err)
        raise RuntimeError(
            f"cannot reach the weather service at {host}: {reason}; this tool needs internet access"
        ) from None
    except ValueError:
        raise RuntimeError(f"the weather service at {host} returned a response that is not JSON") from None


def _describe(code):
    return WMO_CODES.get(code, f"天气代码 {code}")


def _compass(degrees):
    if degrees is None:
        return None
    return COMPASS[int((degrees % 360 + 22.5) // 45) % 8] + "风"


def _locate(city):
    data = _fetch_json(
        os.environ.get("OPEN_METEO_GEOCODING_URL", GEOCODING_URL),
        {"name": city, "count": 1, "language": "zh", "format": "json"},
    )
    results = data.get("results") or []
    if not results:
        raise ValueError(f"no place named '{city}' was found; check the spelling or try a nearby larger city")
    return results[0]


def get_weather_by_city(city):
    """Current conditions and a 3-day forecast for `city` (any language, e.g. 北京, Paris)."""
    city = (city or "").strip()
    if not city:
        raise ValueError("city must not be empty, e.g. 北京 or London")
    place = _locate(city)
    forecast = _fetch_json(
        os.environ.get("OPEN_METEO_FORECAST_URL", FORECAST_URL),
        {
            "latitude": place["latitude"],
            "longitude": place["longitude"],
            "current": "temperature_2m,relative_humidity_2m,apparent_temperature,precipitation,weather_code,wind_speed_10m,wind_direction_10m",
            "daily": "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max,precipitation_sum",
            "timezone": "auto",
            "forecast_days": 3,
        },
    )
    now = forecast.get("current") or {}
    daily = forecast.get("daily") or {}
    days = []
    for i, date in enumerate(daily.get("time") or []):
        def pick(key):
            values = daily.get(key) or []
            return values[i] if i < len(values) else None
        code = pick("weather_code")
        days.append({
            "date": date,
            "weather": _describe(code),
            "temp_max_c": pick("temperature_2m_max"),
            "temp_min_c": pick("temperature_2m_min"),
            "precipitation_probability_percent": pick("precipitation_probability_max"),
            "precipitation_mm": pick("precipitation_sum"),
            "rain_expected": code in RAIN_CODES or (pick("precipitation_probability_max") or 0) >= 50,
        })
    parts = []
    for part in (place.get("name"), place.get("admin1"), place.get("country")):
        if part and part not in parts:  # 北京市 is both the name and admin1
            parts.append(part)
    location = ", ".join(parts)
    current = {
        "time": now.get("time"),
        "weather": _describe(now.get("weather_code")),
        "temperature_c": now.get("temperature_2m"),
        "feels_like_c": now.get("apparent_temperature"),
        "humidity_percent": now.get("relative_humidity_2m"),
        "precipitation_mm": now.get("precipitation"),
        "wind_speed_kmh": now.get("wind_speed_10m"),
        "wind_direction": _compass(now.get("wind_direction_10m")),
    }
    return {
        "location": location,
        "latitude": place.get("latitude"),
        "longitude": place.get("longitude"),
        "timezone": forecast.get("timezone") or place.get("timezone"),
        "current": current,
        "forecast": days,
        "summary": _summary(location, current, days),
        "source": "Open-Meteo (open-meteo.com)",
    }


def _summary(location, current, days):
    parts = [f"{location} 现在{current['weather']}，{current['temperature_c']}°C（体感 {current['feels_like_c']}°C），湿度 {current['humidity_percent']}%"]
    for label, day in zip(("今天", "明天", "后天"), days):
        rain = day["precipitation_probability_percent"]
        rain_text = f"，降水概率 {rain}%" if rain is not None else ""
        parts.append(f"{label}（{day['date']}）{day['weather']}，{day['temp_min_c']}~{day['temp_max_c']}°C{rain_text}")
    return "；".join(parts) + "。"
