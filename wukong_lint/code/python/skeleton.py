"""The parts of a Python file worth parsing: module-level code plus the functions that hold a
trigger keyword, every other function blanked to its newlines.

`ast.parse` builds Python objects for every node and runs at a few MB/s: parsing whole library
modules because one method says `execute` was most of a folder scan's time. A skeleton keeps
every line number and column of the code it keeps, so the analysis of a skeleton reports the
same places as the analysis of the file.

Statement starts are found by indentation alone (no tokenizer), which a multi-line string or a
bracket continuation at the same indentation can fool: a piece with an odd number of triple
quotes is merged with the next one, and a skeleton that does not parse is no loss — the caller
parses the whole file instead. (A file whose only syntax errors sit in blanked functions, say
Python 2 `print` statements, is thus analysed on its syntax tree rather than by line rules.)
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import NamedTuple

# a line that starts a statement at column 0 (not blank, a comment or a closing bracket);
# searched from its newline, which the regex engine finds far faster than a `^` anchor
_TOP = re.compile(r"\n(?=[^\s#)\]}])")
_FIRST = re.compile(r"[^\s#)\]}]")
# the indentation of the first statement of a class body
_BODY = re.compile(r"^([ \t]+)(?=[^\s#])", re.M)
_DEF = ("def ", "async def ")
_QUOTES = re.compile("\"\"\"|'''")
_STRING_START = re.compile("[ \t]*[rRuUbB]?(\"\"\"|''')")


class Piece(NamedTuple):
    start: int  # offset in the text
    end: int
    function: bool  # a def (a whole class when none of its methods is kept): may be blanked


class Skeleton(NamedTuple):
    text: str  # same length in lines as the file, blanked functions reduced to newlines
    pieces: list[Piece]  # the kept pieces, in text order
    starts: list[int]  # their start offsets (for bisect)

    def piece_at(self, offset: int) -> Piece | None:
        index = bisect_right(self.starts, offset) - 1
        if index < 0:
            return None
        piece = self.pieces[index]
        return piece if offset < piece.end else None


class _Text(NamedTuple):
    text: str
    newlines: list[int]  # offsets just after each newline
    quotes: tuple[list[int], list[int]]  # offsets of the """ and of the ''' in the text

    def lines(self, start: int, end: int) -> str:
        """The newlines of text[start:end] (what a blanked piece becomes)."""
        count = bisect_right(self.newlines, end) - bisect_right(self.newlines, start)
        return "\n" * count

    def open_string(self, start: int, end: int) -> bool:
        """Whether text[start:end] leaves a triple-quoted string open."""
        double, single = self.quotes
        return bool(
            (bisect_left(double, end) - bisect_left(double, start)) % 2
            or (single and (bisect_left(single, end) - bisect_left(single, start)) % 2)
        )


def _statements(src: _Text, starts: list[int], end: int, indent: int) -> list[tuple[int, int, int]]:
    """(start, head, end) of each statement: decorators are grouped with what they decorate
    (head: the offset of its `def` / `class`), a piece that opens a triple-quoted string runs
    on to the piece that closes it."""
    text = src.text
    found: list[tuple[int, int, int]] = []
    count = len(starts)
    i = 0
    while i < count:
        j = i
        while j + 1 < count and text.startswith("@", starts[j] + indent):
            j += 1
        k = j + 1
        stop = starts[k] if k < count else end
        while k < count and src.open_string(starts[i], stop):
            k += 1
            stop = starts[k] if k < count else end
        found.append((starts[i], starts[j] + indent, stop))
        i = k
    return found


def _docstring(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a statement made of one triple-quoted string (a docstring:
    nothing to analyse, often long)."""
    match = _STRING_START.match(text, start, end)
    if match is None:
        return False
    quote = match.group(1)
    body = text[start:end].rstrip()
    return body.endswith(quote) and body.count(quote) == 2 and len(body) > match.end() - start


def has_keyword(offsets: list[int], start: int, end: int) -> bool:
    """Whether a keyword ends in [start, end) (`offsets`: ascending keyword end offsets)."""
    index = bisect_left(offsets, start)
    return index < len(offsets) and offsets[index] < end


def _class(
    src: _Text, start: int, end: int, keep: Callable[[int, int], bool]
) -> list[tuple[int, int, bool, bool]] | None:
    """(start, end, function, keep) of the header, class-level statements and methods of a
    class; None when no method is kept (the class is then one piece)."""
    text = src.text
    body = _BODY.search(text, start, end)
    if body is None:
        return None
    indent = body.group(1)
    pattern = re.compile("\n" + re.escape(indent) + r"(?=[^\s#)\]}])")
    starts = [m.start() + 1 for m in pattern.finditer(text, body.start() - 1, end)]
    parts: list[tuple[int, int, bool, bool]] = [(start, body.start(), False, True)]
    kept_method = False
    for s, head, e in _statements(src, starts, end, len(indent)):
        if text.startswith(_DEF, head):
            kept = keep(s, e)
            kept_method = kept_method or kept
            parts.append((s, e, True, kept))
        else:
            parts.append((s, e, False, not _docstring(text, s, e)))
    return parts if kept_method else None


def skeleton(
    text: str,
    offsets: list[int],
    newlines: list[int],
    keep: Callable[[int, int], bool] | None = None,
) -> Skeleton:
    """The skeleton of `text` keeping the functions (and methods) in which a keyword ends at
    one of `offsets` (ascending), or those `keep(start, end)` accepts when given, and all
    module- and class-level statements. `newlines`: the offsets just after each newline of
    the text."""
    if keep is None:

        def keep(start: int, end: int) -> bool:
            return has_keyword(offsets, start, end)

    quotes: tuple[list[int], list[int]] = ([], [])
    for match in _QUOTES.finditer(text):
        quotes[match.group() == "'''"].append(match.start())
    src = _Text(text, newlines, quotes)
    starts = [m.end() for m in _TOP.finditer(text)]
    if _FIRST.match(text):
        starts.insert(0, 0)
    out: list[str] = []
    pieces: list[Piece] = []
    # what comes before the first statement (comments, blank lines, or an indented fragment
    # that will not parse: the caller then falls back on line rules) is kept as it is
    first = starts[0] if starts else len(text)
    if first:
        out.append(text[:first])
        pieces.append(Piece(0, first, False))
    for start, head, end in _statements(src, starts, len(text), 0):
        if text.startswith(_DEF, head):
            parts = [(start, end, True, keep(start, end))]
        elif text.startswith("class ", head):
            inside = keep(start, end)
            parts = (inside and _class(src, start, end, keep)) or [(start, end, True, inside)]
        else:
            parts = [(start, end, False, not _docstring(text, start, end))]
        for s, e, function, kept in parts:
            if kept:
                out.append(text[s:e])
                pieces.append(Piece(s, e, function))
            else:
                out.append(src.lines(s, e))
    return Skeleton("".join(out), pieces, [p.start for p in pieces])
