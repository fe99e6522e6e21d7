"""The index block refreshed in place, for `anchors new/add`: the file keeps every other line
as it is (no reflow of headings, placeholders, section rules or blank lines, which `anchors
fmt` would canonicalise); only the MACHINE_BLOCK index is rewritten, or inserted where fmt
puts it when the file has none."""

from __future__ import annotations

from wukong_lint.anchors.fmt import _index_target
from wukong_lint.anchors.parse import parse
from wukong_lint.anchors.render import index_block_lines, is_chinese, marker_problems


def refresh_index(text: str) -> tuple[str, str | None]:
    """(the text with its index block regenerated, why it was not: None when it was)."""
    doc = parse(text)
    problems = marker_problems(doc)
    if problems:
        line, _, message = problems[0]
        return text, f"line {line + 1}: {message}; fix the block markers first"
    target, refused = _index_target(doc, False)
    if refused:
        return text, refused
    nl = doc.newline
    block = index_block_lines(doc.anchors, is_chinese(doc), nl)
    lines = list(doc.lines)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += nl
    if target is not None:
        lines[target.first : target.last + 1] = block
        return "".join(lines), None
    at = 0
    for i, line in enumerate(lines):  # after the title, as fmt does
        if doc.role[i] == "text" and line.strip():
            at = i + 1 if line.startswith("# ") else i
            break
    for a in doc.anchors:  # never inside an anchor (an H1 may itself be one)
        if a.first < at < a.last:
            at = a.first
    before = [nl] if at > 0 and lines[at - 1].strip() else []
    after = [nl] if at < len(lines) and lines[at].strip() else []
    lines[at:at] = [*before, *block, *after]
    return "".join(lines), None
