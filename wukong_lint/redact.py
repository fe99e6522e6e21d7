"""Masking secrets in the text that reports show."""

from __future__ import annotations

MASK = "****"
SNIPPET_WIDTH = 160


def public_prefix(secret: str, keywords: tuple[str, ...]) -> int:
    """Length of the provider prefix a secret starts with (`ghp_`, `xoxb-`): public, useful to
    recognise the token, and never more than a third of the secret."""
    lowered = secret.lower()
    best = max((len(k) for k in keywords if lowered.startswith(k)), default=0)
    return best if best <= len(secret) // 3 else 0


def mask_spans(line: str, spans: list[tuple[int, int, int]]) -> str:
    """Replace each (start, end, keep) span of `line` by its first `keep` characters and a
    mask. Spans may overlap and may reach outside the line (multi-line secrets)."""
    if not spans:
        return line
    merged: list[list[int]] = []
    # at one start, the span showing a provider prefix wins (a generic rule's span of the
    # same secret keeps nothing)
    for start, end, keep in sorted(spans, key=lambda s: (s[0], -s[2], s[1])):
        keep = max(0, keep - max(0, -start))  # the prefix may lie on an earlier line
        start, end = max(0, start), min(len(line), end)
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, keep])
    out, pos = [], 0
    for start, end, keep in merged:
        out.append(line[pos:start])
        out.append(line[start : start + min(keep, end - start)] + MASK)
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
