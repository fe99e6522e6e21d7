"""The labelled dangerous-command corpus (issue 12): the verdict targets, per tier, judged as
the live hook judges a Bash call (tests/command_corpus.py; per-class rates and every miss:
`python bench/commands_corpus.py --misses`)."""

from __future__ import annotations

import pytest

from tests.command_corpus import load, rates, verdicts


@pytest.fixture(scope="module")
def found():
    return verdicts(load())


def test_the_corpus_is_big_enough_and_balanced():
    cases = load()
    tiers = [case.tier for case in cases]
    assert len(cases) >= 600
    destructive = tiers.count("deny") + tiers.count("ask")
    assert tiers.count("allow") >= 300
    assert destructive >= 300
    assert len({case.command for case in cases}) == len(cases), "a command is listed twice"


def test_verdict_targets(found):
    result = rates(found)
    misses = sorted(
        f"{case.tier}/{case.cls} -> {verdict}: {case.command!r}"
        for case, (verdict, _) in found.items()
        if verdict != case.tier and not (case.tier == "ask" and verdict == "deny")
    )
    assert result.denied >= 0.95, misses
    assert result.stopped >= 0.90, misses
    assert result.allow_denied <= 0.01, misses
    assert result.allow_asked <= 0.03, misses


def test_every_class_is_mostly_right(found):
    """No class hides behind the others' numbers: each gets at least 90 % right."""
    right = {"deny": ("deny",), "ask": ("ask", "deny"), "allow": ("allow",)}
    for (tier, cls), counts in rates(found).per_class.items():
        share = sum(counts[v] for v in right[tier]) / sum(counts.values())
        assert share >= 0.9, (tier, cls, dict(counts))


def test_the_wukong_profile_denies_any_recursive_delete_and_asks_any_delete():
    cases = [c for c in load() if c.cls == "safe-deletes" and c.command.startswith("rm ")]
    found = verdicts(cases, "wukong")
    for case, (verdict, rules) in found.items():
        recursive = any(f in case.command.split() for f in ("-rf", "-r", "-fr", "-Rf", "-R"))
        assert verdict == ("deny" if recursive else "ask"), (case.command, rules)
