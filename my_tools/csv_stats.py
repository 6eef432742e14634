"""Summary statistics of CSV data: per column its type, missing values, and either numeric
statistics (min, max, mean, median, standard deviation, sum) or the most frequent values."""

import csv
import io
import statistics
from collections import Counter

MAX_ROWS = 200_000
MISSING = {"", "na", "n/a", "null", "none", "nan", "-", "—"}


def _number(text):
    cleaned = text.strip().replace(",", "").replace("，", "")
    if cleaned.endswith("%"):
        cleaned = cleaned[:-1]
    for symbol in ("$", "¥", "￥", "€", "£"):
        cleaned = cleaned.removeprefix(symbol)
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


def _round(value):
    value = float(f"{value:.10g}")
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _column(name, values):
    present = [v for v in values if v.strip().lower() not in MISSING]
    numbers = [_number(v) for v in present]
    summary = {"name": name, "count": len(present), "missing": len(values) - len(present), "distinct": len(set(present))}
    if present and all(n is not None for n in numbers):
        summary.update({
            "type": "number",
            "min": _round(min(numbers)), "max": _round(max(numbers)),
            "mean": _round(statistics.fmean(numbers)), "median": _round(statistics.median(numbers)),
            "stdev": _round(statistics.stdev(numbers)) if len(numbers) > 1 else 0,
            "sum": _round(sum(numbers)),
        })
    else:
        summary["type"] = "text" if present else "empty"
        summary["top_values"] = [{"value": v, "count": c} for v, c in Counter(present).most_common(5)]
    return summary


def summarize_csv(csv_text, delimiter=None, has_header=True):
    """Parse CSV text and summarise each column; the delimiter is detected when not given."""
    if not isinstance(csv_text, str) or not csv_text.strip():
        raise ValueError("csv_text is empty: pass the CSV content itself, not a file name")
    text = csv_text.lstrip("\ufeff")
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:10_000], delimiters=",;\t|").delimiter
        except csv.Error:
            delimiter = ","
    elif delimiter in ("\\t", "tab", "TAB"):
        delimiter = "\t"
    if len(delimiter) != 1:
        raise ValueError("delimiter must be a single character such as , ; | or \\t")
    try:
        rows = [row for row in csv.reader(io.StringIO(text), delimiter=delimiter) if any(cell.strip() for cell in row)]
    except csv.Error as err:
        raise ValueError(f"cannot parse the CSV: {err}") from None
    if len(rows) > MAX_ROWS:
        raise ValueError(f"too many rows ({len(rows)}); the limit is {MAX_ROWS}")
    if not rows:
        raise ValueError("the CSV has no rows")
    width = max(len(row) for row in rows)
    if has_header:
        header, body = rows[0], rows[1:]
        header = [h.strip() or f"column_{i + 1}" for i, h in enumerate(header)] + [f"column_{i + 1}" for i in range(len(header), width)]
    else:
        header, body = [f"column_{i + 1}" for i in range(width)], rows
    ragged = sum(1 for row in body if len(row) != len(header))
    columns = [_column(name, [row[i] if i < len(row) else "" for row in body]) for i, name in enumerate(header)]
    result = {"rows": len(body), "columns": len(header), "delimiter": delimiter, "column_stats": columns}
    if ragged:
        result["warning"] = f"{ragged} row(s) have a different number of fields than the header"
    result["summary"] = _summary(result)
    return result


def _describe(col):
    head = f"- {col['name']} ({col['type']}): {col['count']} value(s), {col['missing']} missing, {col['distinct']} distinct"
    if col["type"] == "number":
        stats = ", ".join(f"{k} {col[k]:.6g}" for k in ("min", "max", "mean", "median", "stdev", "sum"))
        return f"{head}; {stats}"
    top = col.get("top_values")
    if top and top[0]["count"] == 1:
        return f"{head}; no value repeats, e.g. " + ", ".join(t["value"] for t in top[:3])
    if top:
        return f"{head}; most common: " + ", ".join(f"{t['value']} ({t['count']})" for t in top)
    return head


def _summary(result):
    """What the model reads: one line per column, not a 10-line block for each."""
    shown = "tab" if result["delimiter"] == "\t" else result["delimiter"]
    lines = [f"{result['rows']} row(s) × {result['columns']} column(s), delimiter {shown!r}"]
    lines += [_describe(col) for col in result["column_stats"]]
    if result.get("warning"):
        lines.append(f"warning: {result['warning']}")
    return "\n".join(lines)
