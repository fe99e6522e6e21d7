"""The 戒 protocol checks on sessions at scale: MB/s with `--profile wukong` and protocol
findings per 100 tool calls, on the transcript benchmark's session (bench/transcripts.py: no
CHECKPOINT, no avatars: every task turn skips its CHECKPOINT) and on a generated compliant
wukong session (corpora/protocol/compliant_session.py: CHECKPOINTs in both wordings, small
edits by the body, exploration by 眼 in the background, implementation by 身 with its
contract and tests, parallel 身 in worktrees, conversation turns, context usage that grows
and is compacted).

    python bench/protocol.py [--mb 50] [--out bench/out] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

PROTOCOL = ("body-boundary", "avatar-boundary", "context")


def measure(path: str, out_dir: str, jobs: int | None) -> dict:
    report = os.path.join(out_dir, "protocol-report.json")
    argv = [
        sys.executable,
        "-m",
        "wukong_lint",
        "check",
        "--profile",
        "wukong",
        "--format",
        "json",
        "-o",
        report,
        path,
    ]
    if jobs:
        argv[4:4] = ["--jobs", str(jobs)]
    start = time.perf_counter()
    subprocess.run(argv, check=False)
    seconds = time.perf_counter() - start
    with open(report, encoding="utf-8") as handle:
        findings = json.load(handle)["findings"]
    calls = 0
    with open(path, "rb") as handle:
        for raw in handle:
            calls += raw.count(b'"type":"tool_use"')
    counts: dict[str, int] = {}
    for finding in findings:
        if finding["category"] in PROTOCOL:
            counts[finding["rule_id"]] = counts.get(finding["rule_id"], 0) + 1
    total = sum(counts.values())
    return {"mb_s": round(os.path.getsize(path) / 1e6 / seconds, 1), "tool_calls": calls,
            "protocol_findings": total, "per_100_calls": round(100 * total / max(calls, 1), 2),
            "by_rule": dict(sorted(counts.items(), key=lambda kv: -kv[1])[:8])}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "out"))
    parser.add_argument("--jobs", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the bench folder: corpora
    from corpora.protocol.compliant_session import generate_compliant
    from corpora.transcripts.session import generate

    plain = os.path.join(args.out, f"bench-session-{args.mb}mb.jsonl")
    compliant = os.path.join(args.out, f"wukong-session-{args.mb}mb.jsonl")
    if not os.path.exists(plain):
        generate(plain, args.mb)
    if not os.path.exists(compliant):
        generate_compliant(compliant, args.mb)
    for name, path in (
        ("bench session (no CHECKPOINT)", plain),
        ("compliant wukong session", compliant),
    ):
        print(name, json.dumps(measure(path, args.out, args.jobs or None), ensure_ascii=False))


if __name__ == "__main__":
    main()
