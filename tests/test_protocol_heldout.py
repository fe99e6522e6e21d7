"""The second held-out 戒 protocol corpus (bench/protocol_heldout.py) through the real CLI:
every planted violation is found, no compliant look-alike gets any finding, and no case's
forbidden rule fires (issue 16: ≥ 95 % found, no false alarm). The corpus was written from the
seeds and the upstream templates before its first run, so a miss here is a gap, not a tuning."""

from __future__ import annotations

import importlib
import sys
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _runner():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH))  # the corpus modules import each other by name
    try:
        return importlib.import_module("protocol_heldout")
    finally:
        sys.path.remove(str(BENCH))


def test_corpus_is_labelled_spread_and_balanced() -> None:
    cases = _runner().cases()
    violations = [c for c in cases if c.violation]
    compliant = [c for c in cases if not c.violation]
    assert len(violations) >= 40 and len(compliant) >= len(violations)
    assert all(r.count(".") == 1 for c in cases for r in (*c.expect, *c.forbid))
    points = Counter(c.point for c in violations)
    every = ("L1 checkpoint", "L2 decision", "L3 behaviour", "contract", "Do/Don't",
             "background", "Max 1", "nested spawn", "context usage", "repeated calls",
             "ReAct A3", "error classes", "memory bank", ".claude/agents contract")  # fmt: skip
    assert [p for p in every if not points[p]] == []
    formats = Counter(c.fmt for c in cases)
    assert {"claude", "claude-inline", "codex", "openai", "react", "react-messages"} <= set(formats)


def test_every_violation_found_and_no_false_alarm(tmp_path: Path) -> None:
    runner = _runner()
    outcomes = runner.run(tmp_path)
    bad = [(o.case.name, o.case.expect, sorted(o.rules), o.error) for o in outcomes if not o.ok]
    assert bad == []
    summary = runner.summary(outcomes)
    assert summary["recall"] == 1.0 and summary["false_alarms"] == 0
