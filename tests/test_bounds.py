"""Bounded memory and time on adversarial inputs (issue 15): what one input can cost is
measured in a fresh process (`ru_maxrss`), with generous bounds; no timing asserts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).parent.parent

MB = 1 << 20


def run_python(code: str, *args: str, cwd: Path | None = None) -> dict:
    """Run `code` in a fresh interpreter; it prints one JSON object as its last line."""
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd or PROJECT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


PREFILTER_PEAK = """
import json, resource, sys
from wukong_lint.engine.loader import load_rules
rules = load_rules()
prefilter = rules.prefilter()
kind = sys.argv[1]
size = int(sys.argv[2])
unit = {"a": "A", "bracket": "[", "pass": "pass", "mixed": "pAsS[aA"}[kind]
text = unit * (size // len(unit))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
hits = prefilter.hits(text)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
stored = sum(len(v) for v in hits.values() if v)
print(json.dumps({"growth_kb": after - before, "stored": stored, "rules": len(hits)}))
"""


def test_prefilter_keeps_a_window_per_run_of_one_keyword():
    """A run of one character (base64 zeros) or of one keyword (`passpass…`) hits a keyword
    at every position: the hits of one run collapse to its first and last, so the prefilter's
    memory stays a small multiple of the text (one hit per character cost 2 GB for 10 MB)."""
    size = 3 * MB
    for kind in ("a", "bracket", "pass", "mixed"):
        found = run_python(PREFILTER_PEAK, kind, str(size))
        # the lower-cased copy of the text is 1x; one 64K slice's raw hits ~25 MB at most
        assert found["growth_kb"] * 1024 < 2 * size + 40 * MB, (kind, found)
        assert found["stored"] < 1000, (kind, found)  # a few per 64K slice, or none: "search all"
    found = run_python(PREFILTER_PEAK, "a", str(size))
    assert found["rules"] >= 1  # the keyword of `a`s still reaches its rule
