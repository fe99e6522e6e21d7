"""Differential check for speed work on transcript scans: the JSON reports of two revisions
must be identical (every finding with its rule, path, line, column, fingerprint, snippet,
message and source; the errors; the stats but the seconds).

    python bench/diffcheck.py BASE [--session FILE ...] [--jobs 1 --jobs 2]

BASE is a git revision (its `wukong_lint/` and `rules/` are exported to bench/out/diffcheck-
COMMIT and run from there, beside this work tree's code) or a folder holding those two. Each
session (default: the transcript benchmark's 20 MB session, generated if missing) and each
fixture transcript (tests/fixtures/transcripts, tests/fixtures/protocol) is checked with the
default profile and with `--profile wukong`, at each `--jobs`. Exit 1 when any report differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def export(rev: str, out: str) -> str:
    """The revision's package and rules in a folder of their own (made once per commit)."""
    commit = subprocess.run(
        ["git", "-C", ROOT, "rev-parse", "--verify", f"{rev}^{{commit}}"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    folder = os.path.join(out, f"diffcheck-{commit[:12]}")
    if not os.path.isdir(folder):
        os.makedirs(folder + ".tmp", exist_ok=True)
        archive = subprocess.run(
            ["git", "-C", ROOT, "archive", commit, "wukong_lint", "rules"],
            capture_output=True, check=True,
        ).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", folder + ".tmp"], input=archive, check=True)
        os.replace(folder + ".tmp", folder)
    return folder


def report(code: str, path: str, profile: str | None, jobs: int, cache: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = code
    env["XDG_CACHE_HOME"] = cache  # a cache per revision: rule sets differ
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        out = handle.name
    try:
        cmd = [sys.executable, "-m", "wukong_lint", "check", "--format", "json",
               "--jobs", str(jobs), "-o", out, path]  # fmt: skip
        cmd += ["--profile", profile] if profile else []
        proc = subprocess.run(cmd, env=env, cwd=tempfile.gettempdir(), capture_output=True)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr.decode()}")
        with open(out, encoding="utf-8") as handle:
            data = json.load(handle)
    finally:
        os.unlink(out)
    data["stats"].pop("seconds", None)
    return data


def first_difference(a: dict, b: dict) -> str:
    for key in ("stats", "errors"):
        if a.get(key) != b.get(key):
            return f"{key}: {a.get(key)} != {b.get(key)}"
    fa, fb = a["findings"], b["findings"]
    if len(fa) != len(fb):
        return f"{len(fa)} findings != {len(fb)}"
    for x, y in zip(fa, fb, strict=True):
        if x != y:
            old, new = (json.dumps(f, ensure_ascii=False) for f in (x, y))
            return f"finding {old} != {new}"
    return "the reports differ outside findings, stats and errors"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("base", help="a git revision, or a folder holding wukong_lint/ and rules/")
    parser.add_argument("--session", action="append", default=[])
    parser.add_argument("--jobs", action="append", type=int, default=[])
    parser.add_argument("--out", default=os.path.join(HERE, "out"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # (a folder: a tree that is no commit, e.g. this branch with its speed commits reverted)
    base = args.base if os.path.isdir(args.base) else export(args.base, args.out)
    # (absolute: each check runs in a temporary folder, where a relative path names nothing)
    sessions = [os.path.abspath(s) for s in args.session]
    if not sessions:
        sessions = [os.path.join(args.out, "transcript-20mb.jsonl")]
        if not os.path.exists(sessions[0]):
            sys.path.insert(0, HERE)
            from corpora.transcripts.session import generate

            generate(sessions[0], 20)
    fixtures = []
    for folder in ("transcripts", "protocol"):
        where = os.path.join(ROOT, "tests", "fixtures", folder)
        fixtures += sorted(
            os.path.join(where, name)
            for name in os.listdir(where)
            if name.endswith((".jsonl", ".json", ".txt"))
        )
    failed = 0
    for path in sessions + fixtures:
        for profile in (None, "wukong"):
            for jobs in args.jobs or [1, 2]:
                if jobs > 1 and path in fixtures:
                    continue  # (too small to be read in parts)
                old = report(base, path, profile, jobs, os.path.join(args.out, "cache-base"))
                new = report(ROOT, path, profile, jobs, os.path.join(args.out, "cache-new"))
                name = os.path.relpath(path, ROOT)
                label = f"{name} profile={profile or 'default'} jobs={jobs}"
                if old == new:
                    print(f"same      {label}: {len(new['findings'])} findings")
                else:
                    failed += 1
                    print(f"DIFFERENT {label}: {first_difference(old, new)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
