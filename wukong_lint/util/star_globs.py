"""fnmatch globs made of literal text and `*` only, matched without regexes.

`fnmatch` turns every glob into a regex, and compiling those costs milliseconds in every run
(the path rules' 135 globs: ~2.7 ms of a ~45 ms hook event; the rules' `paths` another ~1 ms
of a staged check). Almost all globs rules use are literals, `prefix*`, `*suffix` or a few
`a*b`: those are answered by set look-ups, `str.startswith`/`endswith` with tuples, and
ordered `str.find`s, with fnmatchcase's exact semantics (`*` matches any characters, `/` and
newlines included; case-sensitive). A glob holding `?` or `[` still goes through fnmatch's
regex, compiled on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

SPECIAL = frozenset("?[")  # what only fnmatch's regex handles


def star_only(pattern: str) -> bool:
    """Whether `pattern` is literal text and `*` wildcards only."""
    return not any(c in SPECIAL for c in pattern)


def star_match(parts: tuple[str, ...], text: str) -> bool:
    """fnmatchcase(text, "*".join(parts)) for a glob of two or more parts."""
    first, last = parts[0], parts[-1]
    if len(text) < len(first) + len(last):
        return False
    if not (text.startswith(first) and text.endswith(last)):
        return False
    position, end = len(first), len(text) - len(last)
    for middle in parts[1:-1]:  # leftmost fits are enough: `*` takes whatever lies between
        found = text.find(middle, position, end)
        if found < 0:
            return False
        position = found + len(middle)
    return True


def any_glob(patterns: Iterable[str]) -> Callable[[str], bool]:
    """A test of whether a text matches any of `patterns` as a whole (fnmatchcase)."""
    literal: set[str] = set()
    prefixes: list[str] = []
    suffixes: list[str] = []
    general: list[tuple[str, ...]] = []
    other: list[str] = []
    for pattern in dict.fromkeys(patterns):
        if not star_only(pattern):
            other.append(pattern)
            continue
        parts = tuple(pattern.split("*"))
        if len(parts) == 1:
            literal.add(pattern)
        elif len(parts) == 2 and not parts[1]:
            prefixes.append(parts[0])
        elif len(parts) == 2 and not parts[0]:
            suffixes.append(parts[1])
        else:
            general.append(parts)
    literals = frozenset(literal)
    starts, ends, rest = tuple(prefixes), tuple(suffixes), tuple(general)
    compiled: list[Callable[[str], object]] = []

    def regex_match(text: str) -> bool:
        if not compiled:
            import fnmatch
            import re

            joined = "|".join(f"(?:{fnmatch.translate(p)})" for p in other)
            compiled.append(re.compile(joined).match)
        return compiled[0](text) is not None

    def test(text: str) -> bool:
        if text in literals:
            return True
        if starts and text.startswith(starts):
            return True
        if ends and text.endswith(ends):
            return True
        if any(star_match(parts, text) for parts in rest):
            return True
        return bool(other) and regex_match(text)

    return test


# --- whether two globs can match the same text ----------------------------------------------
#
# A tool call can name files by a glob (`cat ~/.ss*/id_*`, a Grep over `~` with `glob: id_*`):
# which of a rule's targets it reaches is whether the two globs have a text in common. Both
# are fnmatch globs (`*` any characters, `/` included; `?` one; `[...]` a class), that is
# regular languages; the product of their positions is searched for a way to both ends
# (at most (len(a) + 1) * (len(b) + 1) states: globs are short).

_STAR = ("*",)
_SEG = ("/*",)  # a star that stays within one name (a shell glob's `*`)
_SEG0 = ("/*0",)  # the same at the start of a name: it never matches a leading `.`
_ANY = ("?",)


def _class(pattern: str, at: int) -> tuple[tuple[str, bool, str], int] | None:
    """The class `[...]` starting at `at`: (("[", negated, members), index after it), or
    None when the `[` is literal (no closing bracket), as fnmatch reads it."""
    index = at + 1
    negated = index < len(pattern) and pattern[index] in "!^"
    if negated:
        index += 1
    if index < len(pattern) and pattern[index] == "]":
        index += 1  # a `]` first is a member
    close = pattern.find("]", index)
    if close < 0:
        return None
    body = pattern[at + 1 + negated : close]
    members = []
    position = 0
    while position < len(body):  # ranges `a-z` spelled out (bounded: a class is short)
        if position + 2 < len(body) and body[position + 1] == "-":
            low, high = ord(body[position]), ord(body[position + 2])
            members += [chr(c) for c in range(low, min(high, low + 256) + 1)]
            position += 3
        else:
            members.append(body[position])
            position += 1
    return ("[", negated, "".join(members)), close + 1


@lru_cache(maxsize=4096)  # (a script's accesses meet the same rule globs again and again)
def _tokens(pattern: str, segments: bool = False) -> tuple[tuple[Any, ...], ...]:
    tokens: list[tuple[Any, ...]] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "*":
            double = pattern.startswith("**", index)
            star = _STAR if double or not segments else _SEG
            if star is _SEG and (index == 0 or pattern[index - 1] == "/"):
                star = _SEG0  # (`~/*` does not name `~/.ssh`: bash leaves dot files out)
            if tokens and tokens[-1] in (_STAR, _SEG, _SEG0):
                tokens[-1] = _STAR if _STAR in (star, tokens[-1]) else tokens[-1]
            else:
                tokens.append(star)
            index += 2 if double else 1
        elif char == "?":
            tokens.append(_ANY)
            index += 1
        elif char == "[" and (found := _class(pattern, index)) is not None:
            tokens.append(found[0])
            index = found[1]
        else:
            tokens.append(("=", char))
            index += 1
    return tuple(tokens)


def _accepts(token: tuple[Any, ...], char: str) -> bool:
    if token[0] == "=":
        return bool(token[1] == char)
    if token[0] == "[":
        return (char in token[2]) != token[1]
    if token is _SEG:
        return char != "/"
    return True  # `*` or `?`


def _share(one: tuple[Any, ...], other: tuple[Any, ...]) -> bool:
    """Whether two one-character tokens accept a character in common."""
    if one[0] == "=":
        return _accepts(other, one[1])
    if other[0] == "=":
        return _accepts(one, other[1])
    if _SEG in (one, other):
        rest = other if one is _SEG else one
        return rest[0] != "[" or rest[1] or bool(set(rest[2]) - {"/"})
    if one[0] == "[" and other[0] == "[" and not one[1] and not other[1]:
        return bool(set(one[2]) & set(other[2]))
    return True  # `?`, a negated class: some character is left for both


# Remembered: the answer depends on the two globs only, and a run asks the same pairs again
# and again (a session's Greps and Globs of the project against every target of every path
# rule, ~35 globs a call; a 100 KB script's accesses some 40,000 times).
@lru_cache(maxsize=16384)
def globs_overlap(one: str, other: str, segments: bool = False) -> bool:
    """Whether some text matches both globs (fnmatchcase semantics; with `segments`, `one`
    is read as a shell reads a glob: a `*` stays within a name and does not start one with
    a `.`, and `**` reaches any depth)."""
    a, b = _tokens(one, segments), _tokens(other)
    # a state: a position in each glob, and whether the name-start star at `a`'s position
    # has read a character (from then on it is a plain name star)
    seen = {(0, 0, False)}
    todo = [(0, 0, False)]
    while todo:
        i, j, started = todo.pop()
        if i == len(a) and j == len(b):
            return True
        ta = a[i] if i < len(a) else None
        tb = b[j] if j < len(b) else None
        moves = []
        a_star, b_star = ta in (_STAR, _SEG, _SEG0), tb == _STAR
        if a_star:
            moves.append((i + 1, j, False))  # the star matches nothing more
        if b_star:
            moves.append((i, j + 1, started))
        # one character read by both (a star reads it and stays; a name's star never a `/`,
        # nor a `.` first)
        if ta is not None and tb is not None and not (ta == _STAR and b_star):
            first = ta is _SEG0 and not started
            reader = _SEG if ta is _SEG0 else ta
            if first:
                ok = _share(tb, ("[", True, "./"))
            else:
                ok = ta == _STAR or b_star or _share(reader, tb)
            if ok and (reader is not _SEG or tb != ("=", "/")):
                moves.append((i if a_star else i + 1, j if b_star else j + 1, ta is _SEG0))
        for state in moves:
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return False


def has_glob(text: str) -> bool:
    """Whether `text` holds a glob character (`*`, `?`, `[`)."""
    return "*" in text or "?" in text or "[" in text
