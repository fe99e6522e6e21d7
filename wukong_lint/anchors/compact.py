"""The compact form of anchors: one short line per anchor, its fields clipped, for the
context an agent is given (`anchors compact`)."""

from __future__ import annotations

import re

from wukong_lint.anchors.fmt import _content
from wukong_lint.anchors.parse import (
    BOLD_FIELD,
    FIELD_LABELS,
    MARKER,
    Anchor,
    Doc,
)

# ---------------------------------------------------------------- compact form


def _plain(text: str) -> str:
    text = re.sub(r"`{3,}.*?`{3,}", " ", text, flags=re.S)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"^\s*(?:[-*+]|\d+\.)\s+", "", text, flags=re.M)
    text = re.sub(r"^\s*\|?[-:| ]+\|?\s*$", "", text, flags=re.M)
    text = text.replace("**", "").replace("`", "").replace("|", " ")
    parts = [p.strip() for p in text.splitlines() if p.strip()]
    return "; ".join(parts)


def field_texts(doc: Doc, a: Anchor) -> dict[str, str]:
    """The plain text of each known field of an anchor (first occurrence)."""
    result: dict[str, str] = {}
    entries = a.fields
    for k, entry in enumerate(entries):
        if not entry.key or entry.key in result:
            continue
        stop = entries[k + 1].line if k + 1 < len(entries) else a.last
        if entry.style == "heading":
            body = "".join(doc.lines[entry.line + 1 : stop])
        else:
            raw = _content(doc.lines[entry.line])[0]
            head = entry.end - entry.start
            body = raw[head:] + "\n" + "".join(doc.lines[entry.line + 1 : stop])
            lines = body.split("\n")
            keep = [lines[0]]
            for line in lines[1:]:
                if line.strip() and (
                    line[:1] in " \t" or line.lstrip().startswith(("-", "*", "+", "|", "`"))
                ):
                    keep.append(line)
                elif line.strip() and BOLD_FIELD.match(line):
                    break
                elif not line.strip():
                    continue
                else:
                    keep.append(line)
            body = "\n".join(keep)
        body = MARKER.sub("", body)
        value = _plain(body)
        if value.strip().casefold() not in ("todo", "tbd", "待补充", "待定"):
            result[entry.key] = value
    return result


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(1, limit - 1)].rstrip() + "…"


def compact_anchor(doc: Doc, a: Anchor, value_chars: int = 60) -> str:
    fields = field_texts(doc, a)
    lines = [f"[{a.id}] {a.title}".rstrip()]
    for key in ("why", "impact", "rollback"):
        if fields.get(key):
            lines.append(f"- {FIELD_LABELS[key][0]}: {_clip(fields[key], value_chars)}")
    return "\n".join(lines)


def compact_anchors(doc: Doc, anchors: list[Anchor], max_chars: int) -> tuple[str, list[str]]:
    """Compact forms of the anchors within `max_chars` characters; the IDs left out."""
    parts: list[str] = []
    left_out: list[str] = []
    used = 0
    for a in sorted(anchors, key=Anchor.sort_key):
        # the fields stay (shortened), even in the compact form; an anchor that does not fit
        # is left out rather than stripped of its Why / Impact / Rollback
        for width in (60, 30, 16):
            text = compact_anchor(doc, a, width)
            cost = len(text) + (2 if parts else 0)
            if used + cost <= max_chars:
                parts.append(text)
                used += cost
                break
        else:
            left_out.append(a.id)
    return "\n\n".join(parts), left_out
