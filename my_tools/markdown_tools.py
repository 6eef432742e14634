"""Markdown documents: the heading outline (for a table of contents or a quick overview), or the
text with Markdown syntax removed (for counting, reading aloud or pasting into plain-text fields)."""

import re

MODES = ("outline", "plain_text")
ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
FENCE = re.compile(r"^ {0,3}(```|~~~)")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
INLINE = [
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),        # images -> alt text
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),          # links -> link text
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),         # reference links
    (re.compile(r"`([^`]+)`"), r"\1"),                      # inline code
    (re.compile(r"(\*\*|__)(.+?)\1"), r"\2"),               # bold
    (re.compile(r"(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])"), r"\2"),  # italics
    (re.compile(r"~~(.+?)~~"), r"\1"),                      # strikethrough
    (re.compile(r"<[^>\n]+>"), ""),                         # inline HTML tags
]
BLOCK_PREFIX = re.compile(r"^ {0,3}(>\s?)+|^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?")


def _slug(text, seen):
    base = re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-") or "section"
    slug, n = base, 1
    while slug in seen:
        slug, n = f"{base}-{n}", n + 1
    seen.add(slug)
    return slug


def _strip_inline(text):
    for pattern, repl in INLINE:
        text = pattern.sub(repl, text)
    return text


def _outline(lines):
    headings, seen, in_fence, previous = [], set(), False, ""
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            atx = ATX.match(line)
            setext = SETEXT.match(line) if previous.strip() and not ATX.match(previous) else None
            if atx:
                level, title = len(atx.group(1)), _strip_inline(atx.group(2))
                headings.append({"level": level, "title": title, "line": number, "anchor": _slug(title, seen)})
            elif setext and not BLOCK_PREFIX.match(previous):
                title = _strip_inline(previous.strip())
                level = 1 if setext.group(1).startswith("=") else 2
                headings.append({"level": level, "title": title, "line": number - 1, "anchor": _slug(title, seen)})
        previous = "" if in_fence else line
    toc = "\n".join("  " * (h["level"] - 1) + f"- {h['title']}" for h in headings)
    # What the model reads: the nested list with each heading's line and anchor, or a plain "none".
    listed = "\n".join("  " * (h["level"] - 1) + f"- {h['title']} (line {h['line']}, #{h['anchor']})" for h in headings)
    text = f"{len(headings)} heading(s):\n{listed}" if headings else "No headings found (no # lines or underlined titles)."
    return {"headings": headings, "count": len(headings), "toc": toc, "text": text}


def _plain_text(lines):
    out, in_fence = [], False
    for line in lines:
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            out.append(line)
            continue
        if SETEXT.match(line) and out and out[-1].strip():
            continue
        if re.match(r"^ {0,3}([-*_])([ \t]*\1){2,}[ \t]*$", line):  # thematic break
            continue
        if re.match(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$", line) and "-" in line and "|" in line:
            continue  # table separator row
        atx = ATX.match(line)
        text = atx.group(2) if atx else BLOCK_PREFIX.sub("", line)
        if "|" in text and text.strip().startswith("|"):
            text = "\t".join(cell.strip() for cell in text.strip().strip("|").split("|"))
        out.append(_strip_inline(text))
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
    return {"text": text, "characters": len(text)}


def markdown_tool(markdown, mode="outline"):
    """outline: the document's headings with levels, line numbers and anchors; plain_text: the text without Markdown."""
    if mode not in MODES:
        raise ValueError(f"unknown mode '{mode}'; use one of: {', '.join(MODES)}")
    if not isinstance(markdown, str) or not markdown.strip():
        raise ValueError("markdown is empty: pass the document's text")
    lines = markdown.replace("\r\n", "\n").split("\n")
    return _outline(lines) if mode == "outline" else _plain_text(lines)
