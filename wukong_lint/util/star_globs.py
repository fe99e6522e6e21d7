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
