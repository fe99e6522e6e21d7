"""Structure-aware joins: one value written over several pieces, joined into one view.

- a notebook's (or any JSON file's) runs of lines that each hold one string, as a cell's
  `source` and an output's `text` are stored: the cell's text, a line of it per file line;
- lines continued by a backslash (shell, Dockerfile, Python, a YAML double-quoted scalar):
  the logical line, the backslash-newlines and the next lines' indentation dropped;
- string literals concatenated implicitly (Python `("ghp_abc" "def")`) or by `+` (JS,
  Python): the line's text before the first literal, then one literal of the contents;
- YAML block scalars (`key: |`, `key: >-`): `key: ` and the block's lines, joined by
  newlines (literal) or spaces (folded), or by nothing when every line is one word (a
  token wrapped to the width);
- a name and its value written as two fields (Kubernetes and compose env lists
  `- name: X` / `value: Y`, ECS and CloudFormation `{"name": "X", "value": "Y"}`, .NET
  `<add key="X" value="Y" />`): the name, then the value field from its separator on
  (`X: Y`, `X": "Y"`, `X="Y"`), so a rule that knows a provider by its variable's name reads
  the pair as the assignment it stands for.

A view's pieces map it back: every joined value is reported where its first piece is.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterator

from wukong_lint.decode.records import Piece, View

_JSON_LINE = re.compile(r'^[ \t]*"((?:[^"\\\n]|\\.)*)",?[ \t]*\r?$', re.M)
_CONTINUED = re.compile(r"\\\r?\n[ \t]*")
# token-like literals (no spaces: a secret has none, a message has many) next to each other
_LITERAL = r"""(?:"[\w\-+/=.:~]{2,}"|'[\w\-+/=.:~]{2,}')"""
_CONCAT = re.compile(rf"{_LITERAL}(?:(?:[ \t]*\+?[ \t]*(?:\\?\r?\n[ \t]*\+?[ \t]*)?){_LITERAL})+")
# the end of a keyword's literal, and another literal after it
_CLOSE = re.compile(r"[^\n\"']*+[\"']")
_NEXT = re.compile(r"[ \t]*\+?[ \t]*(?:\\?\r?\n[ \t]*\+?[ \t]*)?[\"'][\w\-+/=.:~]")
_ONE_LITERAL = re.compile(r"""["']([^"']*)["']""")
_BLOCK = re.compile(r"^([ \t]*)([^\s:#][^:#\n]{0,80}:)[ \t]*([|>])[-+0-9]*[ \t]*\r?$", re.M)
MAX_JOINED = 1 << 16  # characters of one joined value at most
# name, then (the same line or the next) the value field: the groups are the name and where
# the value's separator starts. One pattern a form, each starting with a literal (the regex
# engine skips to it), run only on a text holding that form's words.
_PAIR_YAML = re.compile(
    r"""name:[ \t]*["']?([\w.\-]{2,80})["']?[ \t]*\r?\n[ \t]*-?[ \t]*value(?=:)"""
)
_PAIR_JSON = re.compile(r'"[Nn]ame"[ \t]*:[ \t]*"([\w.\-]{2,80})"[ \t]*,[ \t]*"[Vv]alue(?=":)')
_PAIR_XML = re.compile(r'<add[ \t]+key="([\w.\-:]{2,80})"[ \t]+value(?==)')


def joined(text: str, path: str, near: list[int] | None) -> Iterator[View]:
    """The joined views of `text` (a file at `path`) that hold one of the offsets `near`
    (ascending; None: anywhere): where a keyword of a secret rule is. A split value keeps
    its keyword whole in one of its pieces (`"ghp_abc" "def"`, a key's BEGIN line), so the
    plain text's keyword hits say where a join can matter, and the rest is never joined."""
    if near is not None and not near:
        return
    name = path.rsplit("/", 1)[-1].lower()
    found: list[Iterator[View]] = []
    if name.endswith(".ipynb"):
        found.append(_string_lines(text))
    if "\\\n" in text or "\\\r\n" in text:
        found.append(_continued(text))
    if name.endswith((".yml", ".yaml")):
        found.append(_blocks(text))
    found.append(_pairs(text))
    for views in found:
        for view in views:
            if near is None or _holds(view, near):
                yield view
    if '"' in text or "'" in text:
        yield from _concatenated(text, near)


def _holds(view: View, near: list[int]) -> bool:
    start, end = view.pieces[0].start, view.pieces[-1].end
    at = bisect_left(near, start)
    return at < len(near) and near[at] <= end


def _string_lines(text: str) -> Iterator[View]:
    """Runs of two lines or more that each hold one JSON string: their strings joined."""
    run: list[tuple[str, int, int]] = []
    last_end = -2
    for match in _JSON_LINE.finditer(text):
        if match.start() != last_end + 1 and run:
            yield from _string_run(run)
            run = []
        try:
            value = json.loads(f'"{match.group(1)}"')
        except ValueError:
            value = match.group(1)
        run.append((value, match.start(1), match.end(1)))
        last_end = match.end()
    if run:
        yield from _string_run(run)


def _string_run(run: list[tuple[str, int, int]]) -> Iterator[View]:
    if len(run) < 2:
        return
    pieces, parts, at = [], [], 0
    for value, start, end in run:
        # a piece per line, opaque (its escapes make it no one-to-one copy): a secret is
        # reported on the line where it starts
        pieces.append(Piece(at, start, end, False))
        parts.append(value)
        at += len(value)
        if at > MAX_JOINED:
            break
    yield View("".join(parts), tuple(pieces), ("notebook lines",))


def _continued(text: str) -> Iterator[View]:
    """Each group of lines joined by backslash-newlines, as one logical line."""
    end = -1
    for match in _CONTINUED.finditer(text):
        if match.start() < end:
            continue
        start = text.rfind("\n", 0, match.start()) + 1
        pieces, parts, at, pos = [], [], 0, start
        for cut in _CONTINUED.finditer(text, match.start()):
            if cut.start() != pos and pos != start and "\n" in text[pos : cut.start()]:
                break  # the logical line ended before this continuation
            pieces.append(Piece(at, pos, cut.start(), True))
            parts.append(text[pos : cut.start()])
            at += cut.start() - pos
            pos = cut.end()
            if at > MAX_JOINED:
                break
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        pieces.append(Piece(at, pos, end, True))
        parts.append(text[pos:end])
        yield View("".join(parts), tuple(pieces), ("line continuation",))


def _concatenated(text: str, near: list[int] | None) -> Iterator[View]:
    """Concatenated literals where a keyword's literal is followed by another (the regex
    over a whole file of code would cost more than the rest of the stage): at each offset
    `near`, one match of `_NEXT` after the literal's closing quote, and only then the
    lines of the concatenation."""
    if near is None:
        yield from _concatenated_in(text, 0, len(text))
        return
    done = -1
    for offset in near:
        if offset < done:
            continue
        close = _CLOSE.match(text, offset)
        if close is None or not _NEXT.match(text, close.end()):
            continue
        start = text.rfind("\n", 0, offset) + 1
        done = close.end()
        for _ in range(4):
            done = text.find("\n", done + 1)
            if done < 0:
                done = len(text)
                break
        yield from _concatenated_in(text, start, done)


def _concatenated_in(text: str, window_start: int, window_end: int) -> Iterator[View]:
    for match in _CONCAT.finditer(text, window_start, window_end):
        line_start = max(text.rfind("\n", 0, match.start()) + 1, match.start() - 120)
        pieces = [Piece(0, line_start, match.start() + 1, True)]
        parts = [text[line_start : match.start() + 1]]
        at = len(parts[0])
        for literal in _ONE_LITERAL.finditer(text, match.start(), match.end()):
            pieces.append(Piece(at, literal.start(1), literal.end(1), True))
            parts.append(literal.group(1))
            at += len(literal.group(1))
        parts.append('"')
        yield View("".join(parts), tuple(pieces), ("string concatenation",))


def _blocks(text: str) -> Iterator[View]:
    for match in _BLOCK.finditer(text):
        indent = len(match.group(1))
        key_start = match.start(2)
        lines: list[tuple[int, int]] = []
        pos = match.end() + 1
        while pos < len(text):
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            line = text[pos:end]
            body = line.lstrip(" \t")
            if body.strip() and len(line) - len(body) <= indent:
                break  # the block ended
            if body.strip():
                lines.append((end - len(body), end - (1 if line.endswith("\r") else 0)))
            pos = end + 1
            if pos - match.end() > MAX_JOINED:
                break
        if not lines:
            continue
        words = [text[s:e].strip() for s, e in lines]
        if match.group(3) == "|":
            sep = "\n"
        else:
            sep = "" if all(" " not in w for w in words) and len(words) > 1 else " "
        key = text[key_start : match.start(3)]
        pieces, at = [Piece(0, key_start, match.start(3), True)], len(key)
        parts = [key]
        for (start, _end), word in zip(lines, words, strict=True):
            pieces.append(Piece(at, start, start + len(word), True))
            parts.append(word + sep)
            at += len(word) + len(sep)
        yield View("".join(parts), tuple(pieces), ("yaml block",))


def _pairs(text: str) -> Iterator[View]:
    """Each name and value written as two fields, as `NAME` + the value field from its
    separator to the end of its line."""
    forms = []
    if "value:" in text and "name:" in text:
        forms.append((_PAIR_YAML, 1))
    if ('"name"' in text or '"Name"' in text) and ('"value"' in text or '"Value"' in text):
        forms.append((_PAIR_JSON, 1))
    if "<add " in text:
        forms.append((_PAIR_XML, 1))
    for pattern, group in forms:
        for match in pattern.finditer(text):
            name_start, name_end = match.span(group)
            value_at = match.end()
            end = text.find("\n", value_at)
            end = len(text) if end < 0 else end
            if end - value_at > MAX_JOINED:
                continue
            name = text[name_start:name_end]
            pieces = (
                Piece(0, name_start, name_end, True),
                Piece(len(name), value_at, end, True),
            )
            yield View(name + text[value_at:end], pieces, ("name/value pair",))
