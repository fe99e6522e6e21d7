"""Every benchmark in one command: folder scan and staged latency (bench/run.py), history scan
(bench/history.py), transcripts (bench/transcripts.py) and anchors fmt (timed as
bench/anchors.py times it), each on its corpus from bench/corpora/. Prints one table and writes
bench/out/all-results.json. Never part of the test suite.

    python bench/all.py --quick    # small corpora (a few minutes)
    python bench/all.py            # the sizes of the issue's targets (500 MB transcript: long)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import history as history_bench  # noqa: E402
import transcripts as transcripts_bench  # noqa: E402
from corpora.anchors.anchors_file import generate as generate_anchors  # noqa: E402
from corpora.history.repo import build_repo  # noqa: E402
from corpora.transcripts.session import generate, generate_reads  # noqa: E402

# figure -> (direction, target): issue 7, and issues 12 and 16 for the transcript throughput
# (the bench session, default `--jobs`, with the default profile and with `--profile wukong`)
TARGETS = {
    "folder_mb_s": (">=", 25.0),
    "staged_10_ms": ("<=", 80.0),
    "history_mb_s": (">=", 10.0),
    "transcript_mb_s": (">=", 80.0),
    "transcript_wukong_mb_s": (">=", 80.0),
    "transcript_rss_mb": ("<=", 150.0),
    "anchors_fmt_s": ("<=", 1.0),
}


def folder_and_staged(quick: bool) -> dict:
    """bench/run.py as it is (its own table goes to bench/out/run.log), then its JSON."""
    cmd = [sys.executable, str(HERE / "run.py"), *(["--quick"] if quick else [])]
    with open(OUT / "run.log", "w") as log:
        proc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"bench/run.py failed (exit {proc.returncode}): see {OUT / 'run.log'}")
    res = json.loads((OUT / "results.json").read_text())
    real = res["real_code"]
    folder = min(res["throughput"]["wukong_mb_s"], real["wukong"]["mb_s"])
    wk = real["wukong"]
    ds = real.get("detect_secrets") or {}
    staged = res["staged"]["sizes"]
    return {
        "folder_mb_s": folder,
        "folder_detect_secrets_mb_s": ds.get("mb_s"),
        # real code: the bytes the scan read (archive members included), per wall second and
        # per CPU-second (the workers' CPU included)
        "folder_scanned_mb": wk.get("scanned_mb"),
        "folder_scanned_mb_s": wk.get("scanned_mb_s"),
        "folder_scanned_mb_per_cpu_s": wk.get("scanned_mb_per_cpu_s"),
        "staged_ms": {n: s["wukong_ms"] for n, s in staged.items()},
        "staged_detect_secrets_ms": {n: s.get("detect_secrets_hook_ms") for n, s in staged.items()},
        "staged_git_diff_ms": {n: s["git_diff_cached_ms"] for n, s in staged.items()},
        "run_py": str(OUT / "results.json"),
    }


def history(quick: bool) -> dict:
    commits, runs = (500, 1) if quick else (3000, 3)
    repo = OUT / ("history-repo-quick" if quick else "history-repo")
    planted = build_repo(repo, commits)
    floor, log = history_bench.timed(
        ["git", "log", "-p", "-U0", "--no-color", "--no-renames", "--all"], repo, runs
    )
    mb = len(log.stdout) / 1e6
    seconds, proc = history_bench.timed(
        [str(history_bench.WK), "check", "--history", "--format", "json", "--select",
         "secret.github-pat"], repo, runs,
    )  # fmt: skip
    found = len(json.loads(proc.stdout)["findings"])
    return {"commits": commits, "patch_mb": round(mb, 2), "history_mb_s": round(mb / seconds, 1),
            "git_log_mb_s": round(mb / floor, 1), "planted": planted, "found": found}  # fmt: skip


def _fastest(path: str, jobs: int | None = None, profile: str | None = None, runs: int = 3
             ) -> float:  # fmt: skip
    """The wall seconds of the fastest of `runs` scans (the usual way to take a throughput on
    a machine where other work comes and goes: noise only ever adds time), their memory not
    polled (the polling takes CPU from the scan)."""
    return min(
        transcripts_bench.timed_check_cpu(path, jobs, profile, watch=False)[0] for _ in range(runs)
    )


def transcripts(quick: bool) -> dict:
    speed_mb, rss_mb = (20, 100) if quick else (100, 500)
    out: dict = {}
    for label, size in (("speed", speed_mb), ("rss", rss_mb)):
        path = OUT / f"transcript-{size}mb.jsonl"
        if not path.exists():
            generate(str(path), size)
        mb = path.stat().st_size / 1e6
        # the default (one process per core: what a user runs), and one process
        seconds, rss, _, peak = transcripts_bench.timed_check_cpu(str(path))
        if label == "speed":
            seconds = min(seconds, _fastest(str(path), runs=2))
        one_seconds, one_rss, _, _ = transcripts_bench.timed_check_cpu(str(path), 1)
        one = {"seconds": round(one_seconds, 2), "mb_s": round(mb / one_seconds, 1),
               "peak_rss_mb": one_rss}  # fmt: skip
        out[label] = {"mb": round(mb, 1), "seconds": round(seconds, 2),
                      "mb_s": round(mb / seconds, 1), "peak_rss_mb": rss, **peak,
                      "jobs_1": one}  # fmt: skip
    # the 戒 protocol's profile on the same session (it writes no CHECKPOINT: one
    # checkpoint-missing finding per task turn)
    path = OUT / f"transcript-{speed_mb}mb.jsonl"
    mb = path.stat().st_size / 1e6
    seconds = _fastest(str(path), None, "wukong")
    one_seconds = _fastest(str(path), 1, "wukong", runs=1)
    out["wukong"] = {"mb": round(mb, 1), "mb_s": round(mb / seconds, 1),
                     "jobs_1_mb_s": round(mb / one_seconds, 1)}  # fmt: skip
    tree = OUT / "realcode-tree"
    if tree.is_dir():  # a Read-heavy session of real code: large records
        path = OUT / f"transcript-reads-{speed_mb}mb.jsonl"
        if not path.exists():
            generate_reads(str(path), speed_mb, str(tree))
        mb = path.stat().st_size / 1e6
        seconds, _, _, _ = transcripts_bench.timed_check_cpu(str(path))
        one_seconds, _, _, _ = transcripts_bench.timed_check_cpu(str(path), 1)
        out["reads"] = {"mb": round(mb, 1), "mb_s": round(mb / seconds, 1),
                        "jobs_1_mb_s": round(mb / one_seconds, 1)}  # fmt: skip
    floor = time.perf_counter()
    subprocess.run(["cat", str(OUT / f"transcript-{speed_mb}mb.jsonl")],
                   stdout=subprocess.DEVNULL, check=True)  # fmt: skip
    out["cat_mb_s"] = round(out["speed"]["mb"] / (time.perf_counter() - floor), 1)
    out["transcript_mb_s"] = out["speed"]["mb_s"]
    out["transcript_wukong_mb_s"] = out["wukong"]["mb_s"]
    # the memory the scan holds: every process's pages, shared ones counted once (PSS)
    out["transcript_rss_mb"] = max(out["rss"]["peak_rss_mb"], out["rss"]["sum_pss_mb"])
    return out


def anchors(quick: bool) -> dict:
    from wukong_lint.anchors.ops import fmt_file_text

    mb, runs = (1.0, 2) if quick else (5.0, 5)
    text = generate_anchors(int(mb * 1024 * 1024))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = fmt_file_text("anchors.md", text, False)
        times.append(time.perf_counter() - start)
    return {"mb": round(len(text.encode()) / 1e6, 2), "anchors_fmt_s": round(min(times), 3),
            "median_s": round(statistics.median(times), 3), "ok": bool(result.ok)}  # fmt: skip


def verdict(key: str, value) -> str:
    if value is None or key not in TARGETS:
        return ""
    op, target = TARGETS[key]
    good = value >= target if op == ">=" else value <= target
    return f"{op} {target:g}  {'ok' if good else 'MISSED'}"


def table_rows(res: dict) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str]] = []
    f, h, t, a = (res.get(k) for k in ("folder", "history", "transcripts", "anchors"))
    if f:
        mb_s, ds = f["folder_mb_s"], f["folder_detect_secrets_mb_s"]
        other = f"detect-secrets {ds:.2f} ({mb_s / ds:.0f}x)" if ds else "-"
        rows.append(("folder scan MB/s", f"{mb_s:.1f}", other, verdict("folder_mb_s", mb_s)))
        if f.get("folder_scanned_mb"):
            rows.append((
                "real code: MB scanned (archive members in), MB/s wall / MB per CPU-s",
                f"{f['folder_scanned_mb']:.1f}",
                f"{f['folder_scanned_mb_s']:.1f} / {f['folder_scanned_mb_per_cpu_s']:.1f}",
                "",
            ))  # fmt: skip
        for n, ms in f["staged_ms"].items():
            ds_ms = f["staged_detect_secrets_ms"].get(n)
            other = (f"detect-secrets {ds_ms:.0f}, " if ds_ms else "") + (
                f"git diff {f['staged_git_diff_ms'][n]:.0f}"
            )
            target = verdict("staged_10_ms", ms) if n == "10" else ""
            rows.append((f"check --staged, {n} files (ms)", f"{ms:.0f}", other, target))
    if h:
        mb_s, floor = h["history_mb_s"], h["git_log_mb_s"]
        rows.append((
            f"history scan MB/s ({h['commits']} commits)", f"{mb_s:.1f}",
            f"git log -p {floor:.1f} ({floor / mb_s:.1f}x)", verdict("history_mb_s", mb_s),
        ))  # fmt: skip
    if t:
        mb_s, rss = t["transcript_mb_s"], t["transcript_rss_mb"]
        rows.append((
            f"transcript MB/s ({t['speed']['mb']:.0f} MB)", f"{mb_s:.1f}",
            f"--jobs 1 {t['speed']['jobs_1']['mb_s']:.1f}, cat {t['cat_mb_s']:.0f}",
            verdict("transcript_mb_s", mb_s),
        ))  # fmt: skip
        wukong = t["wukong"]
        rows.append((
            f"transcript MB/s, --profile wukong ({wukong['mb']:.0f} MB)", f"{wukong['mb_s']:.1f}",
            f"--jobs 1 {wukong['jobs_1_mb_s']:.1f}", verdict("transcript_wukong_mb_s",
                                                               wukong["mb_s"]),
        ))  # fmt: skip
        if "reads" in t:
            reads = t["reads"]
            rows.append((
                f"transcript MB/s, Read-heavy real code ({reads['mb']:.0f} MB)",
                f"{reads['mb_s']:.1f}", f"--jobs 1 {reads['jobs_1_mb_s']:.1f}", "",
            ))  # fmt: skip
        rows.append((
            f"transcript peak RSS MB ({t['rss']['mb']:.0f} MB)", f"{rss}",
            f"all processes: RSS {t['rss']['sum_rss_mb']}, PSS {t['rss']['sum_pss_mb']}",
            verdict("transcript_rss_mb", rss),
        ))  # fmt: skip
    if a:
        seconds = a["anchors_fmt_s"]
        rows.append((
            f"anchors fmt s ({a['mb']} MB)", f"{seconds:.3f}", "-",
            verdict("anchors_fmt_s", seconds),
        ))  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small corpora, fewer runs")
    ap.add_argument("--skip", action="append", default=[],
                    choices=["folder", "history", "transcripts", "anchors"])  # fmt: skip
    args = ap.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    res: dict = {"when": time.strftime("%Y-%m-%d %H:%M"), "mode": "quick" if args.quick else "full",
                 "cpus": os.cpu_count(), "build": _build()}  # fmt: skip
    steps = {"folder": folder_and_staged, "history": history, "transcripts": transcripts,
             "anchors": anchors}  # fmt: skip
    for name, step in steps.items():
        if name in args.skip:
            continue
        start = time.time()
        print(f"... {name}", file=sys.stderr, flush=True)
        res[name] = step(args.quick)
        res[name]["elapsed_s"] = round(time.time() - start, 1)
    (OUT / "all-results.json").write_text(json.dumps(res, indent=1, default=str) + "\n")

    rows = table_rows(res)
    header = ("figure", "wukong", "compared with", "target")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    print(f"modules: {res['build']}")
    print(f"results: {OUT / 'all-results.json'}")
    return 0


def _build() -> str:
    """What `wukong-lint --version` says of the modules the figures are for: compiled or
    pure Python (README, "The compiled build"), as the measured commands run them."""
    proc = subprocess.run([sys.executable, "-m", "wukong_lint", "--version"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    return proc.stdout.strip() or proc.stderr.strip()[-200:]


if __name__ == "__main__":
    sys.exit(main())
