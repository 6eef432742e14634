"""Compare two versions of a text line by line (difflib) and report what changed."""

import difflib

MAX_CHARS = 2_000_000


def diff_texts(old_text, new_text, context_lines=3, old_label="old", new_label="new"):
    """A unified diff of old_text -> new_text, with counts of added/removed lines and a similarity ratio."""
    if not isinstance(context_lines, int) or isinstance(context_lines, bool) or not 0 <= context_lines <= 50:
        raise ValueError("context_lines must be a whole number from 0 to 50")
    if len(old_text) + len(new_text) > MAX_CHARS:
        raise ValueError(f"the texts are too long to compare here (over {MAX_CHARS} characters together)")
    old_lines = old_text.splitlines(keepends=True)
    new_lines = new_text.splitlines(keepends=True)
    # A last line without a newline would glue onto the next diff line: end every line.
    old_lines = [line if line.endswith("\n") else line + "\n" for line in old_lines]
    new_lines = [line if line.endswith("\n") else line + "\n" for line in new_lines]
    diff = list(difflib.unified_diff(old_lines, new_lines, old_label, new_label, n=context_lines))
    added = sum(1 for line in diff if line.startswith("+") and not line.startswith("+++"))
    removed = sum(1 for line in diff if line.startswith("-") and not line.startswith("---"))
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    similarity = round(matcher.ratio(), 4) if old_lines or new_lines else 1.0
    identical = old_text == new_text
    if identical:
        summary = "the two texts are identical"
    elif not diff:
        summary = "the texts differ only in line endings or a final newline"
    else:
        summary = f"{added} line(s) added, {removed} line(s) removed; similarity {similarity:.0%}"
    return {
        "identical": identical,
        "added_lines": added,
        "removed_lines": removed,
        "similarity": similarity,
        "summary": summary,
        "diff": "".join(diff),
    }
