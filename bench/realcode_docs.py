"""Secret findings per MB on real third-party packages that carry API documentation (issue 13).

    python bench/realcode_docs.py                 # install (once), build the tree, scan, report
    python bench/realcode_docs.py --wk /path/to/other/checkout/.venv/bin/wukong-lint   # compare

The packages are pinned and installed with `pip install --target` into bench/out/realcode-docs
(network to PyPI, once): the AWS CLI with botocore (its `examples/*.rst` and the services'
`examples-1.json` are full of sample credentials), OAuth and JOSE libraries (oauthlib, authlib,
requests-oauthlib, python-jose, PyJWT, google-auth, msal: RFC sample tokens in docstrings and
tests), Twisted, Django, SQLAlchemy, the Kubernetes client, Stripe, OpenAI and paramiko. Their
text files are copied into one tree (binaries and bytecode left out) and scanned like a user
would: `wukong-lint check . --format json`. These libraries hold no live credential, so every
secret finding is noise; private keys are counted apart (test keys in test folders are
reported on purpose, at medium).

Target: at most 0.05 non-private-key secret findings per MB on >= 150 MB.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out" / "realcode-docs"
sys.path.insert(0, str(BENCH))

# two installs: the AWS CLI with its own pinned dependencies (botocore, s3transfer, docutils,
# rsa, PyYAML...), the rest without dependencies (their pins conflict with the CLI's)
WITH_DEPS = ["awscli==1.46.2"]
NO_DEPS = [
    "oauthlib==4.0.1",
    "authlib==1.9.6",
    "twisted==26.10.0",
    "requests-oauthlib==2.0.0",
    "django==5.2.19",
    "sqlalchemy==2.1.9",
    "google-auth==2.62.2",
    "kubernetes==37.0.2",
    "msal==1.39.0",
    "stripe==16.1.0",
    "pyjwt==2.15.1",
    "python-jose==3.5.0",
    "paramiko==5.1.0",
    "openai==3.51.0",
]
SKIP_SUFFIXES = {".pyc", ".so", ".pyd", ".dll", ".a", ".o", ".gz", ".png", ".jpg", ".ico"}


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def install() -> list[Path]:
    sites = []
    for name, packages, extra in (("site-1", WITH_DEPS, []), ("site-2", NO_DEPS, ["--no-deps"])):
        site = OUT / name
        stamp = OUT / f"{name}.stamp"
        if not (stamp.exists() and json.loads(stamp.read_text()) == packages):
            log(f"[realcode-docs] pip install --target {site} {' '.join(packages)}")
            shutil.rmtree(site, ignore_errors=True)
            cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-compile"]
            subprocess.run([*cmd, *extra, "--target", str(site), *packages], check=True)
            stamp.write_text(json.dumps(packages))
        sites.append(site)
    return sites


def build_tree(sites: list[Path]) -> Path:
    tree = OUT / "tree"
    stamp = OUT / "tree.stamp"
    key = json.dumps([WITH_DEPS, NO_DEPS])
    if tree.exists() and stamp.exists() and stamp.read_text() == key:
        return tree
    shutil.rmtree(tree, ignore_errors=True)
    for site in sites:
        for root, dirs, files in os.walk(site):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "bin")]
            for name in files:
                src = Path(root) / name
                if src.is_symlink() or src.suffix in SKIP_SUFFIXES:
                    continue
                with open(src, "rb") as handle:
                    if b"\0" in handle.read(8192):
                        continue
                dest = tree / site.name / src.relative_to(site)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest)
    stamp.write_text(key)
    return tree


def scan(wk: str, tree: Path, report: Path) -> tuple[float, dict]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # the tree lives in the git-ignored bench/out: scan it as a plain folder
    env["GIT_CEILING_DIRECTORIES"] = str(OUT)
    t0 = time.perf_counter()
    proc = subprocess.run(
        [wk, "check", ".", "--format", "json", "-o", str(report)],
        cwd=tree,
        env=env,
        capture_output=True,
    )
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"wukong-lint exited {proc.returncode}: {proc.stderr.decode()[-2000:]}")
    return seconds, json.loads(report.read_text())


def main(argv: list[str] | None = None) -> int:
    from run import line_of, redact, tree_bytes

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wk", default=str(ROOT / ".venv" / "bin" / "wukong-lint"))
    ap.add_argument("--runs", type=int, default=1, help="timed scans (median MB/s)")
    ap.add_argument("--show", type=int, default=40, help="findings to list (redacted)")
    args = ap.parse_args(argv)
    tree = build_tree(install())
    nfiles, size = tree_bytes(tree)
    mb = size / 1e6
    log(f"[realcode-docs] scanning {nfiles} files, {mb:.1f} MB")
    times = []
    for _ in range(args.runs):
        seconds, rep = scan(args.wk, tree, OUT / "report.json")
        times.append(seconds)
    secrets = [f for f in rep["findings"] if f["category"] == "secret"]
    keys = [f for f in secrets if f["rule_id"] == "secret.private-key"]
    others = [f for f in secrets if f["rule_id"] != "secret.private-key"]
    result = {
        "files": nfiles,
        "mb": round(mb, 1),
        "secret_findings": len(secrets),
        "private_keys": len(keys),
        "other_secret_findings": len(others),
        "other_secret_findings_per_mb": round(len(others) / mb, 4),
        "by_rule": dict(collections.Counter(f["rule_id"] for f in others).most_common()),
        "by_severity": dict(collections.Counter(f["severity"] for f in others).most_common()),
        "seconds": [round(t, 2) for t in times],
        "mb_s": round(mb / sorted(times)[len(times) // 2], 1),
    }
    print(json.dumps(result, indent=1))
    for f in others[: args.show]:
        text = redact(line_of(tree, f["path"], f["line"]), 90)
        print(f"  {f['severity']:<8} {f['rule_id']:<34} {f['path']}:{f['line']}: {text}")
    ok = mb >= 150 and len(others) / mb <= 0.05
    print(f"target (>= 150 MB, <= 0.05 / MB): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
