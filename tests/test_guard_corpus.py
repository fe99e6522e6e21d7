"""The live hook against its adversarial corpus (issue 26), in this process: every attack of
tests/fixtures/guard (and the generated deep-nesting ones) is stopped, denied where its
destructive part is visible, and the everyday calls of a developer's agent are never denied
and hardly ever asked. `bench/guard_measure.py` prints the same figures per class; the
two-step sequences and process-level behaviour are tests/test_guard_integrity_e2e.py's and
tests/test_hook_answers.py's (the real hook process in a temporary HOME)."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from tests.guard_corpus import judge_in_process, load_attacks, load_everyday, make_sandbox, meets


@pytest.fixture(scope="module")
def sandbox():
    made = make_sandbox()
    yield made
    shutil.rmtree(made.root, ignore_errors=True)


def _judged(rows, sandbox):
    return [(row, judge_in_process(row["event"], sandbox, row["id"])) for row in rows]


@pytest.mark.slow  # ~800 hook events judged in process
def test_every_attack_is_stopped_and_denied_where_it_is_visible(sandbox):
    judged = _judged(load_attacks(), sandbox)
    assert len(judged) >= 300
    missed = Counter(row["class"] for row, verdict in judged if not verdict.stopped)
    assert not missed, f"attacks let through, by class: {dict(missed)}"
    errors = [row["id"] for row, verdict in judged if verdict.decision == "error"]
    assert not errors, errors
    labelled = [(row, verdict) for row, verdict in judged if row["expect"] == "deny"]
    wrong = [row["id"] for row, verdict in labelled if not meets("deny", verdict)]
    # (a few visible attacks are asked rather than denied: still stopped, never allowed)
    assert len(wrong) <= len(labelled) // 5, (len(wrong), len(labelled), wrong[:20])


@pytest.mark.slow
def test_everyday_calls_are_never_denied_and_hardly_ever_asked(sandbox):
    judged = _judged(load_everyday(), sandbox)
    assert len(judged) >= 300
    denied = [row["id"] for row, verdict in judged if verdict.decision == "deny"]
    asked = [row["id"] for row, verdict in judged if verdict.decision == "ask"]
    assert not denied, denied
    assert len(asked) <= len(judged) // 100, asked
