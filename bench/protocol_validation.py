"""Runs the independent 戒 protocol corpus (corpora/protocol/protocol_validation_corpus.py) through
`wukong-lint check --profile wukong` and prints recall on the planted violations and the false
alarms on compliant look-alikes (issue 16: ≥ 95 % found, no false alarm).

    python bench/protocol_validation.py [--show]   # --show: list every miss and false alarm
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpora.protocol.protocol_validation_corpus import (  # noqa: E402
    PROTOCOL_CATEGORIES,
    write_corpus,
)

OUT = HERE / "out" / "protocol-validation"


def run(folder: Path, files: list[Path]) -> dict[str, list[str]]:
    cmd = [
        sys.executable,
        "-m",
        "wukong_lint",
        "check",
        *(p.name for p in files),
        "--profile",
        "wukong",
        "--format",
        "json",
        "--exit-zero",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=folder, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"wukong-lint exited {proc.returncode}: {proc.stderr[-2000:]}")
    report = json.loads(proc.stdout)
    by_file: dict[str, list[str]] = defaultdict(list)
    for f in report["findings"]:
        if f["rule_id"].split(".")[0] in PROTOCOL_CATEGORIES:
            # a sub-agent's findings are on `<session>/subagents/agent-*.jsonl`: its session's
            by_file[Path(Path(f["path"]).parts[0]).stem].append(f["rule_id"])
    return by_file


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args(argv)
    shutil.rmtree(OUT, ignore_errors=True)
    written = write_corpus(OUT)
    found = run(OUT, [p for _, p in written])
    hits = misses = clean = alarms = 0
    lines = []
    for case, _path in written:
        rules = found.get(case.session.sid, [])
        if case.kind == "violation":
            if any(r in rules for r in case.expect):
                hits += 1
            else:
                misses += 1
                lines.append(
                    f"MISS  {case.name}: expected {'|'.join(case.expect)}, got {sorted(set(rules))}"
                )
        else:
            bad = [r for r in rules if not case.expect or r in case.expect]
            if bad:
                alarms += 1
                lines.append(f"ALARM {case.name}: {sorted(set(bad))}")
            else:
                clean += 1
    total_v, total_c = hits + misses, clean + alarms
    print(f"violations found: {hits}/{total_v} = {100 * hits / total_v:.1f} %")
    print(
        f"compliant sessions with a false alarm: {alarms}/{total_c}"
        f" = {100 * alarms / total_c:.1f} %"
    )
    if args.show:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
