"""The CHECKPOINT regexes' leading lookaheads (a speed-up: protocol/checkpoint.py) change no match:
each pattern finds what it finds without its lookahead, on strings made of its own words, the
characters (?i) folds onto ASCII letters (İ ı ſ K) and their neighbours."""

from __future__ import annotations

import random
import re

from wukong_lint.protocol import checkpoint

_LOOKAHEAD = re.compile(r"^\(\?i\)\(\?=\[[^\]]*\]\)")

WORDS = [
    "no", "n", "false", "none", "yes", "y", "true", "否", "❌", "不需要", "无", "是", "✅",
    "需要", "有", "约", "~", "≈", "about", "approx.", "approx", "12", "3", "٣", "+", "行",
    "lines", "line", "LOC", "本体执行", "本体直接", "self", "myself", "main agent",
    "body executes", "do it directly", "directly", "自己执行", "直接执行", "眼", "eye",
    "explorer", "耳", "ear", "analyst", "鼻", "nose", "reviewer", "舌", "tongue", "tester",
    "身", "斗战胜佛", "body", "implementer", "impl", "意", "mind", "architect", "İ", "ı",
    "ſ", "K", "I", "S", "E", "x", "_", "-", " ", "@", ".", "\n", "Ｎ", "ｙ",
]  # fmt: skip


def _patterns() -> list[re.Pattern[str]]:
    found = [checkpoint._YES_NO, checkpoint._LINES, checkpoint._SELF]
    found += [pattern for _, pattern in checkpoint._AVATARS]
    return found


def test_each_pattern_has_its_lookahead() -> None:
    for pattern in _patterns():
        assert _LOOKAHEAD.match(pattern.pattern), pattern.pattern


def test_lookaheads_change_no_match() -> None:
    rng = random.Random(5)
    for pattern in _patterns():
        plain = re.compile(_LOOKAHEAD.sub("(?i)", pattern.pattern))
        for _ in range(4000):
            text = "".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6)))
            if rng.random() < 0.3:
                text = text.upper() if rng.random() < 0.5 else text.title()
            ours, theirs = pattern.search(text), plain.search(text)
            assert (ours and (ours.span(), ours.groups(), ours.lastgroup)) == (
                theirs and (theirs.span(), theirs.groups(), theirs.lastgroup)
            ), (pattern.pattern, text)
            assert pattern.subn(" ", text) == plain.subn(" ", text)


def test_lookahead_covers_every_case_form_of_a_first_letter() -> None:
    """Every character (?i) matches to a letter the alternatives start with passes the
    lookahead (the fold of i is İ ı, of s ſ, of k K: the sets name the lower-case letter)."""
    folds = {
        letter: [
            chr(c) for c in (0x130, 0x131, 0x17F, 0x212A) if re.fullmatch(f"(?i){letter}", chr(c))
        ]
        for letter in "abdefimnrsty"
    }
    for pattern in _patterns():
        head = _LOOKAHEAD.match(pattern.pattern)
        assert head is not None
        lookahead = re.compile(head.group(0))
        members = re.sub(r"\\.", "", head.group(0)[head.group(0).index("[") + 1 : -2])
        for letter in set(members) & set(folds):
            for char in [letter, letter.upper(), *folds[letter]]:
                assert lookahead.match(char), (pattern.pattern, char)
