#!/usr/bin/env python3
# ruff: noqa: E501  (report strings read better unwrapped)
"""wukong-lint benchmark: quality, noise on real code, throughput, `check --staged` latency.

    python bench/run.py [--quick] [--fresh-detect-secrets]

Prints a results table and writes bench/out/results.json. Never part of the test suite.
See bench/README.md for what each figure means. Standard library only; it runs the installed
console script .venv/bin/wukong-lint and, for comparison, detect-secrets from a separate venv
under bench/out/ (created here, never added to the project's dependencies).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
WK = ROOT / ".venv" / "bin" / "wukong-lint"
PROJECT_PY = ROOT / ".venv" / "bin" / "python"
REAL_VENV = OUT / "realcode-venv"
REAL_TREE = OUT / "realcode-tree"
WK_CACHE = OUT / "wk-cache"
DS_VERSION = "1.5.0"

sys.path.insert(0, str(BENCH))
from corpora.secrets import corpus  # noqa: E402

# Popular, mostly pure-Python libraries; pinned so that the real-code tree is the same every run.
REAL_PACKAGES = [
    "django==5.2.19",
    "requests==2.34.2",
    "boto3==1.44.5",
    "botocore==1.44.5",
    "sqlalchemy==2.1.9",
    "numpy==2.4.6",
    "flask==3.1.3",
    "pytest==9.2.0",
    "matplotlib==3.11.2",
    "pygments==2.21.0",
    "docutils==0.22.4",
]
# Top-level import folders of those distributions (and of their dependencies) copied into the tree.
REAL_TOPLEVEL = [
    "django",
    "requests",
    "boto3",
    "botocore",
    "s3transfer",
    "sqlalchemy",
    "numpy",
    "flask",
    "werkzeug",
    "jinja2",
    "click",
    "markupsafe",
    "itsdangerous",
    "blinker",
    "_pytest",
    "pytest",
    "pluggy",
    "iniconfig",
    "matplotlib",
    "mpl_toolkits",
    "pygments",
    "docutils",
    "urllib3",
    "idna",
    "certifi",
    "charset_normalizer",
    "dateutil",
    "jmespath",
    "asgiref",
    "sqlparse",
    "packaging",
]
QUICK_TOPLEVEL = [
    "django",
    "requests",
    "flask",
    "werkzeug",
    "jinja2",
    "click",
    "urllib3",
    "pygments",
]

TARGETS = {
    "recall": (">=", 0.98),
    "precision": (">=", 0.98),
    "real_code_findings_per_mb": ("<=", 0.2),
    "folder_scan_mb_s": (">=", 25.0),
    "staged_10_ms": ("<=", 80.0),
}


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def bench_env() -> dict[str, str]:
    """Environment for every timed subprocess: real users have .pyc files, so bytecode writing
    is re-enabled; a private rule cache; trees under bench/out are not seen as part of the
    project's git work tree (which ignores bench/out/ and would hide every file)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["WUKONG_LINT_CACHE_DIR"] = str(WK_CACHE)
    env["GIT_CEILING_DIRECTORIES"] = str(OUT)
    env["NO_COLOR"] = "1"
    return env


def run(
    cmd: list[str], cwd: Path | None = None, *, capture: bool = True, check: bool = False
) -> tuple[float, subprocess.CompletedProcess]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(
        cmd,
        cwd=cwd,
        env=bench_env(),
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU of the process and of the workers it waited for (user + system): the machine is
    # shared, so wall time alone says little about the work done
    proc.cpu_seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if check and proc.returncode not in (0, 1):
        raise RuntimeError(
            f"{' '.join(map(str, cmd))} exited {proc.returncode}: {proc.stderr.decode()[-2000:]}"
        )
    return dt, proc


def tree_bytes(tree: Path) -> tuple[int, int]:
    n = size = 0
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if d != ".git"]
        for f in files:
            p = os.path.join(root, f)
            if not os.path.islink(p):
                n += 1
                size += os.path.getsize(p)
    return n, size


_CHUNK = re.compile(r"[^\s\"'`,;(){}\[\]<>]+")
# A part of a token that reads as a name, not a generated value: lower-case word, short upper-case
# word, camelCase/PascalCase word, or a short alphanumeric like "s3".
_WORDPART = re.compile(
    r"^(?:[a-z]{1,16}|[A-Z]{1,12}|[a-z]*(?:[A-Z][a-z]{2,})+|[a-z]{1,3}\d{1,2}|\d{1,5}|-+|)$"
)


def _plain(tok: str) -> bool:
    return len(tok) < 3 or all(_WORDPART.match(p) for p in re.split(r"[._/\-]", tok))


def redact(line: str, width: int = 100) -> str:
    """A line safe to print: in each run of non-space characters, the first piece (between `=`,
    `:` and `@`) that could be a credential (not a plain identifier, word or short number) is cut to its first
    6 characters + '…' and the rest of the run is dropped; then the line is truncated."""

    def cut(m: re.Match) -> str:
        pieces = re.split(r"([=:@]+)", m.group(0))
        out = []
        for k, piece in enumerate(pieces):
            if k % 2 == 0 and not _plain(piece):
                out.append(piece[:6] + "…")
                break
            out.append(piece)
        return "".join(out)

    out = _CHUNK.sub(cut, line.strip())
    return out if len(out) <= width else out[: width - 1] + "…"


def line_of(tree: Path, path: str, line: int) -> str:
    try:
        with open(tree / path, encoding="utf-8", errors="replace") as fh:
            for i, text in enumerate(fh, 1):
                if i == line:
                    return text.rstrip("\n")
    except OSError:
        pass
    return ""


def wk_scan(tree: Path, report: Path) -> tuple[float, dict]:
    dt, proc = run([str(WK), "check", ".", "--format", "json", "-o", str(report)], cwd=tree)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"wukong-lint exited {proc.returncode}: {proc.stderr.decode()[-2000:]}")
    with open(report, encoding="utf-8") as fh:
        rep = json.load(fh)
    rep["cpu_seconds"] = proc.cpu_seconds
    return dt, rep


# --------------------------------------------------------------------------------------------
# 1. Quality on labelled corpora
# --------------------------------------------------------------------------------------------


def quality(name: str, seed: int, files: int, mb: float) -> dict:
    out = OUT / f"corpus-{name}"
    log(f"[quality] generating {name} corpus (seed {seed}, {files} files, ~{mb} MB)")
    meta = corpus.generate(str(out), seed, files, mb)
    tree = out / "tree"
    dt, rep = wk_scan(tree, OUT / f"wukong-{name}.json")
    labels = {(s["path"], s["line"]): s["provider"] for s in meta["secrets"]}
    negs = {(n["path"], n["line"]): n["kind"] for n in meta["negatives"]}
    found: dict[tuple[str, int], list[dict]] = collections.defaultdict(list)
    for f in rep["findings"]:
        if f["category"] == "secret":
            found[(f["path"], f["line"])].append(f)
    spans: dict[str, list[tuple[int, int]]] = collections.defaultdict(list)
    for f in rep["findings"]:
        if f["category"] == "secret":
            spans[f["path"]].append((f["line"], f.get("end_line") or f["line"]))
    tp = [k for k in found if k in labels]
    fp = [k for k in found if k not in labels]
    fn = [k for k in labels if k not in found]
    # Detected, but reported at another line of a multi-line match (a location error, not a miss).
    fn_in_span = [k for k in fn if any(a <= k[1] <= b for a, b in spans.get(k[0], []))]
    precision = len(tp) / (len(tp) + len(fp)) if tp or fp else 0.0
    recall = len(tp) / len(labels) if labels else 0.0

    by_file: dict[str, list[int]] = collections.defaultdict(list)
    for p, ln in labels:
        by_file[p].append(ln)

    def near_label(p: str, ln: int, f: dict) -> int | None:
        for lab in by_file.get(p, []):
            if lab in range(f["line"], (f.get("end_line") or f["line"]) + 1) or abs(lab - ln) <= 3:
                return lab
        return None

    fp_rows = []
    for k in sorted(fp):
        f = found[k][0]
        near = near_label(k[0], k[1], f)
        fp_rows.append(
            {
                "path": k[0],
                "line": k[1],
                "rule_id": ",".join(sorted({x["rule_id"] for x in found[k]})),
                "negative_kind": negs.get(k, "unlabelled code"),
                "near_label_line": near,
                "text": redact(line_of(tree, *k)),
            }
        )
    fn_rows = [
        {"path": k[0], "line": k[1], "provider": labels[k], "text": redact(line_of(tree, *k))}
        for k in sorted(fn)
    ]
    per_provider: dict[str, list[int]] = {}
    for k, prov in labels.items():
        per_provider.setdefault(prov, [0, 0])
        per_provider[prov][1] += 1
        if k in found:
            per_provider[prov][0] += 1
    fp_by_rule = collections.Counter(r["rule_id"] for r in fp_rows)
    fp_by_kind = collections.Counter(r["negative_kind"] for r in fp_rows)
    return {
        "corpus": name,
        "seed": seed,
        "files": meta["files"],
        "mb": round(meta["bytes"] / 1e6, 2),
        "secrets": len(labels),
        "hard_negatives": len(negs),
        "tp": len(tp),
        "fp": len(fp),
        "fn": len(fn),
        "fn_inside_a_finding_span": len(fn_in_span),
        "recall_if_line_tolerant": round((len(tp) + len(fn_in_span)) / len(labels), 4)
        if labels
        else 0.0,
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "scan_seconds": round(dt, 3),
        "per_provider": {
            p: {"found": v[0], "total": v[1]} for p, v in sorted(per_provider.items())
        },
        "fp_by_rule": dict(fp_by_rule.most_common()),
        "fp_by_negative_kind": dict(fp_by_kind.most_common()),
        "false_positives": fp_rows,
        "false_negatives": fn_rows,
        "rules_seen": sorted({f["rule_id"] for f in rep["findings"]}),
        "errors": rep.get("errors", [])[:20],
    }


# --------------------------------------------------------------------------------------------
# 2. Real third-party code
# --------------------------------------------------------------------------------------------


def ensure_real_venv() -> Path:
    py = REAL_VENV / "bin" / "python"
    stamp = REAL_VENV / "bench-stamp.json"
    want = sorted([*REAL_PACKAGES, f"detect-secrets=={DS_VERSION}"])
    if py.exists() and stamp.exists() and json.loads(stamp.read_text()) == want:
        return py
    if not py.exists():
        log(f"[real-code] creating {REAL_VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(REAL_VENV)], check=True)
    log("[real-code] pip install " + " ".join(want) + " (one-off, a few minutes)")
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", *want], check=True)
    stamp.write_text(json.dumps(want))
    return py


def build_real_tree(quick: bool) -> tuple[Path, int, int]:
    py = ensure_real_venv()
    site = Path(
        subprocess.run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    tops = QUICK_TOPLEVEL if quick else REAL_TOPLEVEL
    tree = REAL_TREE.with_name(REAL_TREE.name + ("-quick" if quick else ""))
    stamp = tree.parent / (tree.name + ".stamp")
    key = json.dumps([str(site), tops])
    if tree.exists() and stamp.exists() and stamp.read_text() == key:
        n, size = tree_bytes(tree)
        return tree, n, size
    log(f"[real-code] copying text files of {len(tops)} packages into {tree}")
    if tree.exists():
        shutil.rmtree(tree)
    for top in tops:
        src = site / top
        if not src.is_dir():
            log(f"[real-code] warning: {top} not installed, skipped")
            continue
        for root, dirs, files in os.walk(src):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for f in files:
                p = Path(root) / f
                if p.is_symlink() or p.suffix in (
                    ".pyc",
                    ".so",
                    ".pyd",
                    ".dll",
                    ".a",
                    ".o",
                    ".gz",
                    ".png",
                    ".ttf",
                    ".afm",
                    ".npz",
                    ".npy",
                ):
                    continue
                with open(p, "rb") as fh:
                    if b"\0" in fh.read(8192):
                        continue  # binary
                dest = tree / p.relative_to(site)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(p, dest)
    stamp.write_text(key)
    n, size = tree_bytes(tree)
    return tree, n, size


def ds_scan(tree: Path, cache_name: str, fresh: bool, size: int, nfiles: int) -> dict:
    """detect-secrets over a tree; its (slow, deterministic) result is cached per tree."""
    cache = OUT / f"detect-secrets-{cache_name}.json"
    fp = hashlib.sha256(f"{DS_VERSION}:{nfiles}:{size}".encode()).hexdigest()[:16]
    if cache.exists() and not fresh:
        data = json.loads(cache.read_text())
        if data.get("fingerprint") == fp:
            data["cached"] = True
            return data
    # The real-code venv holds detect-secrets; on a fresh checkout the corpus figures come first.
    ds = ensure_real_venv().parent / "detect-secrets"
    log(
        f"[detect-secrets] scanning {tree.name} ({size / 1e6:.1f} MB); detect-secrets is slow, minutes"
    )
    # -n: no network verification of candidates (this machine has no network; it would also
    # send candidates to providers' APIs).
    dt, proc = run([str(ds), "scan", "-n", "--all-files", "."], cwd=tree)
    if proc.returncode != 0:
        raise RuntimeError(
            f"detect-secrets exited {proc.returncode}: {proc.stderr.decode()[-2000:]}"
        )
    results = json.loads(proc.stdout)["results"]
    types = collections.Counter(r["type"] for rs in results.values() for r in rs)
    lines = {(p, r["line_number"]) for p, rs in results.items() for r in rs}
    data = {
        "fingerprint": fp,
        "seconds": round(dt, 2),
        "findings": sum(types.values()),
        "finding_lines": len(lines),
        "by_type": dict(types.most_common()),
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "cached": False,
    }
    cache.write_text(json.dumps(data, indent=1))
    return data


def real_code(quick: bool, fresh_ds: bool, runs: int) -> dict:
    tree, nfiles, size = build_real_tree(quick)
    mb = size / 1e6
    log(f"[real-code] wukong-lint over {tree.name}: {nfiles} files, {mb:.1f} MB")
    times, cpus, rep = [], [], None
    for _ in range(runs):
        dt, rep = wk_scan(tree, OUT / f"wukong-{tree.name}.json")
        times.append(dt)
        cpus.append(rep["cpu_seconds"])
    assert rep is not None
    # the bytes the scan read (archive members included: the report's stats), not the tree's
    scanned = (rep.get("stats") or {}).get("bytes", 0) / 1e6
    secret = [f for f in rep["findings"] if f["category"] == "secret"]
    top = collections.Counter(f["rule_id"] for f in rep["findings"]).most_common(10)
    examples = collections.defaultdict(list)
    for f in rep["findings"]:
        if len(examples[f["rule_id"]]) < 3:
            examples[f["rule_id"]].append(
                f"{f['path']}:{f['line']}: {redact(line_of(tree, f['path'], f['line']), 80)}"
            )
    skip_ds = quick and not (OUT / f"detect-secrets-{tree.name}.json").exists()
    ds = None if skip_ds else ds_scan(tree, tree.name, fresh_ds, size, nfiles)
    return {
        "tree": str(tree.relative_to(ROOT)),
        "files": nfiles,
        "mb": round(mb, 2),
        "wukong": {
            "findings": len(rep["findings"]),
            "secret_findings": len(secret),
            "findings_per_mb": round(len(rep["findings"]) / mb, 4),
            "secret_findings_per_mb": round(len(secret) / mb, 4),
            "top_rules": top,
            "examples": dict(examples),
            "seconds": [round(t, 3) for t in times],
            "mb_s": round(mb / statistics.median(times), 2),
            "cpu_seconds": [round(c, 3) for c in cpus],
            "scanned_mb": round(scanned, 2),
            "scanned_mb_s": round(scanned / statistics.median(times), 2),
            "scanned_mb_per_cpu_s": round(scanned / max(statistics.median(cpus), 1e-9), 2),
            "errors": rep.get("errors", [])[:20],
            "stats": rep.get("stats"),
        },
        "detect_secrets": None
        if ds is None
        else {
            **ds,
            "findings_per_mb": round(ds["findings"] / mb, 4),
            "mb_s": round(mb / ds["seconds"], 3),
        },
    }


# --------------------------------------------------------------------------------------------
# 3. Folder-scan throughput on the generated corpus
# --------------------------------------------------------------------------------------------


def corpus_throughput(runs: int, fresh_ds: bool, with_ds: bool) -> dict:
    tree = OUT / "corpus-dev" / "tree"
    nfiles, size = tree_bytes(tree)
    times = [wk_scan(tree, OUT / "wukong-throughput.json")[0] for _ in range(runs)]
    res = {
        "tree": str(tree.relative_to(ROOT)),
        "files": nfiles,
        "mb": round(size / 1e6, 2),
        "wukong_seconds": [round(t, 3) for t in times],
        "wukong_mb_s": round(size / 1e6 / statistics.median(times), 2),
    }
    if with_ds:
        ds = ds_scan(tree, "corpus-dev", fresh_ds, size, nfiles)
        res["detect_secrets_seconds"] = ds["seconds"]
        res["detect_secrets_mb_s"] = round(size / 1e6 / ds["seconds"], 3)
        res["detect_secrets_cached"] = ds["cached"]
    return res


# --------------------------------------------------------------------------------------------
# 4. `check --staged` latency
# --------------------------------------------------------------------------------------------


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, env=bench_env(), check=True, capture_output=True)


def median_ms(cmd: list[str], cwd: Path, runs: int) -> tuple[float, list[float]]:
    run(cmd, cwd, capture=False)  # warm-up (page cache, .pyc, rule cache)
    times = [run(cmd, cwd, capture=False)[0] * 1000 for _ in range(runs)]
    return round(statistics.median(times), 1), [round(t, 1) for t in times]


def staged_latency(runs: int) -> dict:
    src = OUT / "staged-src"
    corpus.generate(str(src), seed=777, files=260, mb=0.6)
    pool = sorted(
        {str(p.relative_to(src / "tree")) for p in (src / "tree").rglob("*") if p.is_file()}
    )
    repo = OUT / "staged-repo"
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "bench@localhost")
    git(repo, "config", "user.name", "bench")
    git(repo, "config", "commit.gpgsign", "false")
    history, fresh = pool[:120], pool[120:]
    for i in range(0, len(history), 30):  # some history: 4 commits of 30 files
        for rel in history[i : i + 30]:
            dest = repo / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / "tree" / rel, dest)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"history {i // 30}")
    ds_hook = REAL_VENV / "bin" / "detect-secrets-hook"
    out: dict = {"runs": runs, "pythondontwritebytecode": "unset for timed runs", "sizes": {}}
    for n in (1, 10, 100):
        chosen = fresh[:n]
        staged = []
        for rel in chosen:
            dest = repo / "new" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / "tree" / rel, dest)
            staged.append(str(Path("new") / rel))
        git(repo, "add", "-A")
        nbytes = sum((repo / p).stat().st_size for p in staged)
        row = {"files": n, "bytes": nbytes}
        row["git_diff_cached_ms"], _ = median_ms(["git", "diff", "--cached"], repo, runs)
        row["python_startup_ms"], _ = median_ms([str(PROJECT_PY), "-c", "pass"], repo, runs)
        row["wukong_ms"], row["wukong_all_ms"] = median_ms(
            [str(WK), "check", "--staged"], repo, runs
        )
        _, probe = run([str(WK), "check", "--staged", "--format", "json"], repo)
        try:
            row["wukong_findings"] = len(json.loads(probe.stdout)["findings"])
        except (ValueError, KeyError):
            row["wukong_findings"] = None
            row["wukong_error"] = probe.stderr.decode()[-500:]
        if ds_hook.exists():
            row["detect_secrets_hook_ms"], row["detect_secrets_hook_all_ms"] = median_ms(
                [str(ds_hook), "-n", *staged], repo, runs
            )
        out["sizes"][str(n)] = row
        log(
            f"[staged] {n:>3} files: wukong {row['wukong_ms']} ms, detect-secrets-hook "
            f"{row.get('detect_secrets_hook_ms')} ms, git diff --cached {row['git_diff_cached_ms']} ms"
        )
        git(repo, "reset", "-q")
        shutil.rmtree(repo / "new")
    return out


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


def verdict(key: str, value: float | None) -> str:
    if value is None:
        return "n/a"
    op, target = TARGETS[key]
    ok = value >= target if op == ">=" else value <= target
    return "PASS" if ok else "FAIL"


def print_report(res: dict) -> None:
    q = res["quality"]
    rc = res["real_code"]
    tp = res["throughput"]
    st = res["staged"]["sizes"]
    w = print
    w("")
    w("=" * 100)
    w(
        f"wukong-lint benchmark  {res['when']}  ({res['mode']})  wukong-lint {res['wukong_version']}  "
        f"python {res['python']}  {res['cpus']} CPUs"
    )
    w(
        "Timed subprocesses run with PYTHONDONTWRITEBYTECODE unset (real users have .pyc files), one warm-up"
    )
    w(
        "first, wall clock including interpreter start-up; rule cache in bench/out/wk-cache (cleared at start)."
    )
    w("=" * 100)
    w("")
    w(f"{'metric':<44}{'value':>14}   {'target':<12}{'verdict':<8}")
    w("-" * 80)

    def row(label: str, value, key: str | None, fmt: str = "{}") -> None:
        shown = "n/a" if value is None else fmt.format(value)
        tgt = f"{TARGETS[key][0]} {TARGETS[key][1]}" if key else ""
        w(f"{label:<44}{shown:>14}   {tgt:<12}{verdict(key, value) if key else '':<8}")

    for c in q:
        row(
            f"recall, {c['corpus']} corpus ({c['tp']}/{c['secrets']})",
            c["recall"],
            "recall",
            "{:.4f}",
        )
        row(
            f"precision, {c['corpus']} corpus ({c['fp']} FP)", c["precision"], "precision", "{:.4f}"
        )
    row(
        f"real code: secret findings / MB ({rc['mb']} MB)",
        rc["wukong"]["secret_findings_per_mb"],
        "real_code_findings_per_mb",
        "{:.3f}",
    )
    row("real code: all findings / MB", rc["wukong"]["findings_per_mb"], None, "{:.3f}")
    headline = min(rc["wukong"]["mb_s"], tp["wukong_mb_s"])
    row("folder scan MB/s (min of real code, corpus)", headline, "folder_scan_mb_s", "{:.1f}")
    row("check --staged, 10 files (ms, median)", st["10"]["wukong_ms"], "staged_10_ms", "{:.1f}")
    w("")
    w("Comparison with detect-secrets " + DS_VERSION)
    w(f"{'':<44}{'wukong-lint':>14}{'detect-secrets':>16}{'ratio':>10}")
    w("-" * 84)
    ds = rc["detect_secrets"]

    def cmp(label: str, a, b, fmt: str, ratio: str = "a/b") -> None:
        r = ""
        if a is not None and b:
            r = f"{(a / b if ratio == 'a/b' else b / a):.1f}x"
        w(
            f"{label:<44}{fmt.format(a) if a is not None else 'n/a':>14}{fmt.format(b) if b is not None else 'n/a':>16}{r:>10}"
        )

    cmp(
        f"real code findings/MB ({rc['mb']} MB)",
        rc["wukong"]["findings_per_mb"],
        ds and ds["findings_per_mb"],
        "{:.3f}",
    )
    cmp("folder scan MB/s, real code", rc["wukong"]["mb_s"], ds and ds["mb_s"], "{:.2f}")
    cmp(
        f"folder scan MB/s, corpus ({tp['mb']} MB)",
        tp["wukong_mb_s"],
        tp.get("detect_secrets_mb_s"),
        "{:.2f}",
    )
    for n in ("1", "10", "100"):
        s = st[n]
        cmp(
            f"pre-commit latency, {n} staged files (ms)",
            s["wukong_ms"],
            s.get("detect_secrets_hook_ms"),
            "{:.1f}",
            "b/a",
        )
    w(
        f"   floors: git diff --cached {st['1']['git_diff_cached_ms']}/{st['10']['git_diff_cached_ms']}/"
        f"{st['100']['git_diff_cached_ms']} ms, python -c pass {st['1']['python_startup_ms']} ms (1/10/100 files)"
    )
    if ds and ds.get("cached"):
        w(
            f"   detect-secrets real-code figures cached from {ds['when']} (same tree; --fresh-detect-secrets to redo)"
        )
    if tp.get("detect_secrets_cached"):
        w("   detect-secrets corpus figures cached (same corpus bytes)")
    w("")
    w(f"Real code: top wukong-lint rules: {rc['wukong']['top_rules'] or 'none'}")
    if ds:
        w(f"Real code: detect-secrets by type: {ds['by_type']}")
    for rule, ex in list(rc["wukong"]["examples"].items())[:6]:
        for e in ex[:2]:
            w(f"   {rule}: {e}")
    for c in q:
        w("")
        w(
            f"--- {c['corpus']} corpus (seed {c['seed']}, {c['files']} files, {c['mb']} MB, {c['secrets']} secrets, "
            f"{c['hard_negatives']} hard negatives): TP {c['tp']} FP {c['fp']} FN {c['fn']}"
        )
        if c["fn_inside_a_finding_span"]:
            w(
                f"{c['fn_inside_a_finding_span']} FN lie inside a multi-line finding reported at another line "
                f"(wrong line number); recall if that counted: {c['recall_if_line_tolerant']:.4f}"
            )
        missed = [
            f"{p} {v['found']}/{v['total']}"
            for p, v in c["per_provider"].items()
            if v["found"] < v["total"]
        ]
        w(
            f"providers below 100% recall ({len(missed)}/{len(c['per_provider'])}): "
            + (", ".join(missed) or "none")
        )
        if c["fp_by_rule"]:
            w(f"FP by rule: {c['fp_by_rule']}")
            w(f"FP by planted kind: {c['fp_by_negative_kind']}")
        w(f"False positives (first 15 of {c['fp']}):")
        for r in c["false_positives"][:15]:
            near = (
                f" [label at line {r['near_label_line']}: wrong line?]"
                if r["near_label_line"]
                else ""
            )
            w(
                f"  FP {r['rule_id']:<30} {r['path']}:{r['line']} ({r['negative_kind']}){near}  {r['text']}"
            )
        w(f"False negatives (first 15 of {c['fn']}):")
        for r in c["false_negatives"][:15]:
            w(f"  FN {r['provider']:<30} {r['path']}:{r['line']}  {r['text']}")
        if c["errors"]:
            w(f"scanner errors: {c['errors'][:5]}")
    w("")
    w(f"results: {OUT / 'results.json'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="wukong-lint benchmark")
    ap.add_argument(
        "--quick", action="store_true", help="small corpora, small real-code tree, fewer runs"
    )
    ap.add_argument(
        "--fresh-detect-secrets",
        action="store_true",
        help="rescan with detect-secrets instead of using its cached result",
    )
    ap.add_argument(
        "--staged-only",
        action="store_true",
        help="only the `check --staged` latency (1, 10, 100 files), printed as JSON; "
        "results.json is left as it is",
    )
    args = ap.parse_args(argv)
    if not WK.exists():
        log(f"{WK} not found: install the project first (pip install -e '.[dev]')")
        return 2
    if args.staged_only:
        OUT.mkdir(exist_ok=True)
        print(json.dumps(staged_latency(7 if args.quick else 15), indent=1))
        return 0
    OUT.mkdir(exist_ok=True)
    if WK_CACHE.exists():
        shutil.rmtree(WK_CACHE)
    t0 = time.time()
    files, mb = (400, 4.0) if args.quick else (2000, 20.0)
    version = subprocess.run([str(WK), "--version"], capture_output=True, text=True).stdout.strip()
    res: dict = {
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "mode": "quick" if args.quick else "full",
        "wukong_version": version,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "git_head": subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip(),
        "targets": TARGETS,
    }
    res["quality"] = [quality("dev", 1, files, mb), quality("validation", 2, files, mb)]
    res["throughput"] = corpus_throughput(
        1 if args.quick else 3, args.fresh_detect_secrets, with_ds=not args.quick
    )
    res["real_code"] = real_code(args.quick, args.fresh_detect_secrets, 1 if args.quick else 3)
    res["staged"] = staged_latency(7 if args.quick else 15)
    res["elapsed_seconds"] = round(time.time() - t0, 1)
    (OUT / "results.json").write_text(json.dumps(res, indent=1, default=str) + "\n")
    print_report(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
