"""Masking secrets in the text that reports show."""

from __future__ import annotations

MASK = "****"
SNIPPET_WIDTH = 160


def mask_value(value: str) -> str:
    """Keep a short recognisable prefix of long secrets (`ghp_****`), nothing of short ones."""
    keep = 4 if len(value) >= 16 else 0
    return value[:keep] + MASK


def mask_spans(line: str, spans: list[tuple[int, int]]) -> str:
    """Replace each (start, end) span of `line` with its mask; spans may overlap."""
    if not spans:
        return line
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        start, end = max(0, start), min(len(line), end)
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, pos = [], 0
    for start, end in merged:
        out.append(line[pos:start])
        out.append(mask_value(line[start:end]))
        pos = end
    out.append(line[pos:])
    return "".join(out)


def clip(line: str, column: int, width: int = SNIPPET_WIDTH) -> str:
    """At most `width` characters of `line` around the 0-based `column`, trimmed."""
    if len(line) <= width:
        return line.strip()
    start = max(0, min(column - width // 4, len(line) - width))
    text = line[start : start + width].strip()
    return ("…" if start > 0 else "") + text + ("…" if start + width < len(line) else "")
