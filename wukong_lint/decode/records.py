"""The records of a derived text: its pieces and where each came from."""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple


class Piece(NamedTuple):
    """A stretch of a view's text and the span of the original text it stands for."""

    at: int  # where the piece starts in the view's text
    start: int  # the span of the original text it came from
    end: int
    # True: its characters map one to one (a joined literal, a line prefix); False: it is
    # one opaque span (an encoded value: any offset inside maps to the whole span)
    exact: bool


class View(NamedTuple):
    """A derived text: `text`, made of `pieces` (ascending `at`, the first at 0), by the
    steps named in `chain` (outermost first: ("base64", "json-escape"))."""

    text: str
    pieces: tuple[Piece, ...]
    chain: tuple[str, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that the view's `start:end` stands for: an offset
        inside an opaque piece stands for the whole piece."""
        ats = [p.at for p in self.pieces]
        first = self.pieces[max(0, bisect_right(ats, start) - 1)]
        last = self.pieces[max(0, bisect_right(ats, max(start, end - 1)) - 1)]
        s = (
            first.start + min(start - first.at, first.end - first.start)
            if first.exact
            else first.start
        )
        if last.exact:
            e = min(last.end, last.start + (max(start, end - 1) - last.at) + 1)
        else:
            e = last.end
        return s, max(e, s + 1)
