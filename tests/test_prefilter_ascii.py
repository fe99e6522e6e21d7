"""The keyword prefilter searches an ASCII text as bytes (engine/rules.py `Prefilter.hits`):
it must find exactly the keyword hits that lower-casing the text as a str finds, at the same
character offsets, before and after the switch to its DFA, in slices or whole."""

from __future__ import annotations

import random

import pytest

from wukong_lint.engine import rules as rules_module
from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.rules import Prefilter

RULES = load_rules().rules


def _reference(prefilter: Prefilter, text: str) -> dict[int, list[int]]:
    """Rule index -> every end offset (of the last character) of its keywords in
    `text.lower()`, found with str.find (a text shorter than a slice keeps every hit)."""
    lowered = text.lower()
    assert len(lowered) == len(text)
    found: dict[int, list[int]] = {}
    for number, keyword in enumerate(prefilter.keywords):
        ends = []
        at = lowered.find(keyword)
        while at >= 0:
            ends.append(at + len(keyword) - 1)
            at = lowered.find(keyword, at + 1)
        for index in prefilter.keyword_rules[number] if ends else ():
            found[index] = sorted(found.get(index, []) + ends)
    return found


def _texts() -> list[str]:
    rng = random.Random(7)
    words = ["password", "TOKEN", "Ghp_", "AKIA", "xoxb-", "mongodb://", "sk-", "|", "Secret",
             "api_key", "BEGIN", "eyJ", "plain", "words", " ", "\n", "=", '"']  # fmt: skip
    texts = ["".join(rng.choice(words) for _ in range(rng.randrange(1, 60))) for _ in range(200)]
    texts += ["", "no keyword here", "PASSWORD=Hunter2 TOKEN=x ghp_" + "A" * 36]
    return texts


def test_ascii_texts_find_what_lowering_the_str_finds() -> None:
    prefilter = Prefilter(RULES, range(len(RULES)))
    for text in _texts():
        assert text.isascii()
        assert prefilter.hits(text) == _reference(prefilter, text), text


def test_non_ascii_texts_keep_the_str_search() -> None:
    """U+212A KELVIN SIGN lowers to an ASCII `k`: a text holding it is not ASCII, so it is
    lowered as a str and its `sk` / `akia` keywords are still found (a bytes lowering
    would miss them)."""
    prefilter = Prefilter(RULES, range(len(RULES)))
    text = "S\u212a-live_abc and A\u212aIA and 日本 password"
    assert "akia" in text.lower() and "akia" not in text.encode().lower().decode()
    hits = prefilter.hits(text)
    assert hits == _reference(prefilter, text)
    assert any("akia" in RULES[i].keywords for i in hits)
    assert any("sk" in RULES[i].keywords for i in hits)


@pytest.mark.parametrize("slice_size", [7, 64, 1 << 16])
def test_slices_and_the_dfa_switch_find_the_same(monkeypatch, slice_size: int) -> None:
    monkeypatch.setattr(rules_module, "SLICE", slice_size)
    monkeypatch.setattr(rules_module, "DFA_AFTER", 2000)  # (the switch within this test)
    texts = _texts()
    before = Prefilter(RULES, range(len(RULES)))
    expected = [before.hits(t + "é") for t in texts]  # the str search of the same text
    prefilter = Prefilter(RULES, range(len(RULES)))
    got = [prefilter.hits(t) for t in texts]
    assert prefilter.dfa  # the texts crossed the threshold
    assert got == expected
