"""The size of an edit (body-boundary's changed-line counts): max(lines added, lines removed)
in a line diff, as difflib's SequenceMatcher counts them."""

from __future__ import annotations

import difflib
import itertools

import pytest

from wukong_lint.protocol.agents import changed_lines


def _difflib_count(old: str, new: str) -> int:
    """The count from SequenceMatcher on what is left once the common first and last lines
    are set aside (as changed_lines does), with no shortcut for one-line sides."""
    a, b = old.splitlines(), new.splitlines()
    while a and b and a[0] == b[0]:
        a, b = a[1:], b[1:]
    while a and b and a[-1] == b[-1]:
        a, b = a[:-1], b[:-1]
    added = removed = 0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += i2 - i1
            added += j2 - j1
    return max(added, removed)


@pytest.mark.parametrize(
    ("old", "new", "size"),
    [
        ("return x * 1", "return x * 2", 1),  # one line changed
        ("a", "b\na\nc", 2),  # the old line kept inside two new ones
        ("a", "b\nc", 2),  # replaced by two
        ("x\na\nb\ny", "x\nc\ny", 2),  # one side one line after the common ends
        ("a\nb\nc", "b", 2),
        ("", "a\nb", 2),
    ],
)
def test_changed_lines(old: str, new: str, size: int) -> None:
    assert changed_lines(old, new) == size


def test_one_line_sides_count_as_difflib_does() -> None:
    """Every pair of small texts over three distinct lines, one side or both of one line after
    the common first and last lines: the shortcut gives SequenceMatcher's count."""
    texts = ["\n".join(lines) for n in range(5) for lines in itertools.product("abc", repeat=n)]
    for old in texts:
        for new in texts:
            assert changed_lines(old, new) == _difflib_count(old, new), (old, new)
