"""The driver: a text's views (joined values, decoded spans, and their own decoded spans to
MAX_DEPTH), each mapped back to the text it came from."""

from __future__ import annotations

from wukong_lint.decode.codecs import decoded_spans
from wukong_lint.decode.gate import EncodedKeywords
from wukong_lint.decode.joins import joined
from wukong_lint.decode.records import Piece, View

MAX_DEPTH = 2  # a value decoded from a decoded value (a `.dockerconfigjson` in a Secret)
MAX_VIEWS = 256  # views of one text at most: a file of ten thousand blobs is not decoded all
PREFIX = 80  # characters of a decoded span's line kept before it (the key it is the value of)

__all__ = ["MAX_DEPTH", "EncodedKeywords", "Piece", "View", "views"]


def _decoded(text: str, start: int, end: int, value: str, name: str) -> View:
    line_start = max(text.rfind("\n", 0, start) + 1, start - PREFIX)
    prefix = text[line_start:start]
    if prefix:
        pieces = (Piece(0, line_start, start, True), Piece(len(prefix), start, end, False))
    else:
        pieces = (Piece(0, start, end, False),)
    return View(prefix + value, pieces, (name,))


def _within(outer: View, inner: View) -> View:
    """`inner` (a view of `outer`'s text) as a view of the text `outer` came from."""
    pieces = []
    for piece in inner.pieces:
        start, end = outer.span(piece.start, piece.end)
        exact = piece.exact and end - start == piece.end - piece.start
        pieces.append(Piece(piece.at, start, end, exact))
    return View(inner.text, tuple(pieces), outer.chain + inner.chain)


def views(
    text: str, path: str, gate: EncodedKeywords, near: list[int] | None, depth: int = MAX_DEPTH
) -> list[View]:
    """The views of `text` (a file at `path`): joins around the keyword offsets `near`
    (None: anywhere) first, then decoded spans (base64 and hex where `gate` finds an encoded
    keyword), then, to `depth`, the decoded spans of those views."""
    found: list[View] = []
    for view in joined(text, path, near):
        found.append(view)
        if len(found) >= MAX_VIEWS:
            return found
    for start, end, value, name in decoded_spans(text, gate):
        found.append(_decoded(text, start, end, value, name))
        if len(found) >= MAX_VIEWS:
            return found
    level = found
    for _ in range(depth - 1):
        deeper = []
        for outer in level:
            for start, end, value, name in decoded_spans(outer.text, gate):
                deeper.append(_within(outer, _decoded(outer.text, start, end, value, name)))
        if not deeper:
            break
        found += deeper[: MAX_VIEWS - len(found)]
        level = deeper
    return found
