"""A generated git history for the history-scan benchmark (bench/history.py, bench/all.py).

`build_repo(path, commits)` writes the repository with `git fast-import` (seconds; a fixed
seed and fixed dates: the same commits every run) and returns how many GitHub tokens it
planted in it.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

WORDS = [
    "order",
    "invoice",
    "user",
    "account",
    "payment",
    "cart",
    "item",
    "price",
    "stock",
    "report",
    "audit",
    "event",
]


def _line(rng: random.Random) -> str:
    kind = rng.random()
    a, b = rng.choice(WORDS), rng.choice(WORDS)
    if kind < 0.3:
        return f"    {a}_{b} = compute_{a}({b}, retries={rng.randint(1, 9)})"
    if kind < 0.5:
        return f"def {a}_{b}_{rng.randint(0, 999)}(request, {b}_id: int) -> dict:"
    if kind < 0.7:
        return f'    logger.info("processing {a} %s for {b}", {b}_id)'
    if kind < 0.85:
        return f"    # {a.title()} {b}s are reconciled nightly; see docs/{a}.md"
    return f'    return {{"{a}": {a}_{b}, "status": "ok", "count": len({b}s)}}'


def _secret(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    token = "ghp_" + "".join(rng.choice(alphabet) for _ in range(36))
    return f'GITHUB_TOKEN = "{token}"'


def build_repo(path: Path, commits: int, seed: int = 7) -> int:
    """A repository of `commits` commits over ~200 files; returns the number of secrets."""
    rng = random.Random(seed)
    if path.exists():
        shutil.rmtree(path)
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    files: dict[str, list[str]] = {}
    planted = 0
    stream: list[bytes] = []
    for n in range(commits):
        changed = {}
        for _ in range(rng.randint(1, 4)):
            name = f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}_{rng.randint(0, 49)}.py"
            lines = files.setdefault(name, [])
            at = rng.randint(0, len(lines))
            new = [_line(rng) for _ in range(rng.randint(3, 40))]
            if rng.random() < 0.02:
                new.insert(rng.randint(0, len(new)), _secret(rng))
                planted += 1
            lines[at:at] = new
            if len(lines) > 400:
                del lines[: rng.randint(50, 150)]
            changed[name] = "\n".join(lines) + "\n"
        stamp = 1_700_000_000 + n * 600
        message = f"change {n}\n".encode()
        stream.append(b"commit refs/heads/main\n")
        stream.append(f"committer Bench <bench@localhost> {stamp} +0000\n".encode())
        stream.append(b"data %d\n%s" % (len(message), message))
        for name, text in changed.items():
            data = text.encode()
            stream.append(f"M 100644 inline {name}\ndata {len(data)}\n".encode() + data + b"\n")
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=b"".join(stream), check=True)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=path, check=True)
    return planted
