"""Property test: every command on generated hostile repositories.

A seeded generator builds real repositories that combine the attacks of issue 15: a config,
attributes, hooks and GIT_* environment that set every program git could run to a marker
script; secrets in files, commit messages and ref names; odd file names; symlinks (files,
the anchors file, a tracked folder replaced by a link) leading to a folder outside; binary
files; attributes that hide diffs; an unborn HEAD; a staged secret. Every command that
reads a repository runs on each, and each run must: create no marker, change nothing
outside the repository, print no raw secret (stdout, stderr, written reports), exit 0, 1 or
2 with at most one line on stderr per error, and end (a guard stops a hang).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
from pathlib import Path

import pytest

from tests.hostile_repo import Traps, hostile_config
from wukong_lint.cli import main

SECRETS = (
    "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g",
    "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "AKIA" + "Z5BQRT3XWL7HNV2K",
    "xoxb-" + "2837465019283-5618273645172-Kq8Zr3Tn6Wv2Yx9Lb4Hd7Mf1",
)
NAMES = ("a b.py", "ünï cödé.env", "-dash.sh", "new\nline.txt", "deep/er/conf.yaml",
         ".hidden.json", "x\x1b[31m.md", "tab\tname.py", "memory-bank/MEMORY.md")  # fmt: skip
ANCHORS = "# Anchors\n\n## Decisions\n\n## [D001] Use git\n\n**Why**: it is there\n"
GUARD_SECONDS = 120  # a command that has not ended by then hangs


def _git(repo: Path, *args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                          check=check)  # fmt: skip
    return proc.stdout


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes | str]]:
    state: dict[str, tuple[int, bytes | str]] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            if os.path.islink(path):
                state[path] = (info.st_mode, os.readlink(path))
            elif os.path.isfile(path):
                with open(path, "rb") as handle:
                    state[path] = (info.st_mode, handle.read())
            else:
                state[path] = (info.st_mode, b"")
    return state


def generate(base: Path, seed: int, traps: Traps) -> tuple[Path, dict[str, object]]:
    """A hostile repository for `seed`, and what was planted in it."""
    rnd = random.Random(seed)
    outside = base / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "target.md").write_text(ANCHORS + f"leak {SECRETS[0]}\n")
    (outside / "dir" / "conf.yaml").write_text(f"password: {SECRETS[1]}\n")
    repo = base / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.email", "dev@example.com"), ("user.name", "Dev"),
                       ("commit.gpgsign", "false")):  # fmt: skip
        _git(repo, "config", key, value)
    planted: dict[str, object] = {"features": []}
    features: list[str] = planted["features"]  # type: ignore[assignment]
    if rnd.random() < 0.5:
        attrs = rnd.choice(["* -diff\n", "* diff=evil filter=evil merge=evil\n", "*.py binary\n"])
        (repo / ".gitattributes").write_text(attrs)
        features.append(f"attributes {attrs.strip()}")
    for n in range(rnd.randint(1, 4)):
        for name in rnd.sample(NAMES, rnd.randint(1, 3)):
            path = repo / name
            path.parent.mkdir(parents=True, exist_ok=True)
            secret = rnd.choice(SECRETS)
            body = rnd.choice([f"key = '{secret}'\n", "x = 1\n", ANCHORS, "\0\1binary\n"])
            path.write_text(body) if "\0" not in body else path.write_bytes(body.encode())
        message = f"change {n}"
        if rnd.random() < 0.4:
            message += f"\n\ntoken={rnd.choice(SECRETS)}"
            features.append("secret in a message")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-qm", message)
    if rnd.random() < 0.5:
        os.symlink(outside / "target.md", repo / "anchors.md")
        os.symlink(outside / "target.md", repo / "notes.md")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-qm", "links")
        features.append("symlinked files")
    if rnd.random() < 0.5 and (repo / "deep").is_dir():
        _git(repo, "rm", "-rq", "--cached", "deep", check=False)
        _git(repo, "add", "-A")
        subprocess.run(["rm", "-rf", str(repo / "deep")], check=True)
        (repo / "deep").mkdir()
        (repo / "deep" / "er").symlink_to(outside / "dir")  # git still lists deep/er/...
        features.append("tracked folder replaced by a link")
    if rnd.random() < 0.4:
        head = _git(repo, "rev-parse", "HEAD").strip()
        ref = repo / ".git" / "refs" / "heads" / rnd.choice(SECRETS[:2])
        ref.write_text((head if rnd.random() < 0.5 else "0" * 40) + "\n")
        features.append("ref named like a token")
    if rnd.random() < 0.5:
        (repo / "staged.py").write_text(f"KEY = '{rnd.choice(SECRETS)}'\n")
        _git(repo, "add", "staged.py")
        features.append("staged secret")
    if rnd.random() < 0.25:
        _git(repo, "checkout", "-q", "--orphan", "fresh")
        features.append("unborn HEAD")
    with open(repo / ".git" / "config", "a") as handle:
        handle.write(hostile_config(traps, repo / ".git"))
    return repo, planted


COMMANDS = (
    ["check", "."],
    ["check", "--format", "json", "."],
    ["check", "--format", "sarif", "-o", "report.sarif", "."],
    ["check", "--format", "github", "."],
    ["check", "--staged"],
    ["check", "--format", "json", "--staged"],
    ["check", "--diff", "HEAD~1..HEAD"],
    ["check", "--history"],
    ["check", "--format", "json", "--history"],
    ["check", "--history", "--since", "HEAD~1"],
    ["baseline", "create", "--force"],
    ["baseline", "update"],
    ["anchors", "fmt", "--check"],
    ["anchors", "fmt"],
    ["anchors", "fmt", "notes.md"],
    ["anchors", "hints", "--stage", "t1"],
)


def _guard(signum, frame):  # pragma: no cover - only when a command hangs
    raise TimeoutError(f"a command ran longer than {GUARD_SECONDS} s")


@pytest.mark.parametrize("seed", range(6))
def test_every_command_on_a_generated_hostile_repository(seed, tmp_path, monkeypatch, capsys):
    traps = Traps(tmp_path / "traps")
    repo, planted = generate(tmp_path, seed, traps)
    for name, value in traps.environment().items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(repo)
    outside_before = _snapshot(tmp_path / "outside")
    around_before = sorted(os.listdir(tmp_path))
    previous = signal.signal(signal.SIGALRM, _guard)
    try:
        for args in COMMANDS:
            signal.alarm(GUARD_SECONDS)
            try:
                code = main(list(args))
            finally:
                signal.alarm(0)
            out, err = capsys.readouterr()
            context = (seed, planted["features"], args, err)
            assert code in (0, 1, 2), context
            if code == 2:
                assert err.count("\n") == 1 and err.startswith("wukong-lint: error:"), context
            assert "Traceback" not in err and "internal error" not in err, context
            written = "".join(
                (repo / f).read_text("utf-8", "replace")
                for f in ("report.sarif", ".wukong-lint-baseline.json")
                if (repo / f).is_file() and not (repo / f).is_symlink()
            )
            for secret in SECRETS:
                assert secret not in out + err + written, context
            assert traps.fired() == [], context
            assert _snapshot(tmp_path / "outside") == outside_before, context
            assert sorted(os.listdir(tmp_path)) == around_before, context
    finally:
        signal.signal(signal.SIGALRM, previous)
