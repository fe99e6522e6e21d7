"""The real `pre-commit` tool runs `check --pre-commit` as a `repo: local` hook (the README's
copy-paste example): `run --all-files` / `--files` scan the files whole, a commit scans only
the staged added lines, `--from-ref/--to-ref` the commits of the range."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import git

PROJECT = Path(__file__).resolve().parent.parent
TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"

needs_pre_commit = pytest.mark.skipif(
    shutil.which("pre-commit") is None, reason="pre-commit missing"
)


@pytest.fixture
def hooked(repo: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository with the README's `repo: local` hook (entry: this checkout's module)."""
    readme = (PROJECT / "README.md").read_text()
    example = readme[readme.index("### pre-commit") :]
    example = example[example.index("```yaml\n") + 8 :]
    example = example[: example.index("```")]
    assert "repo: local" in example and "entry: wukong-lint check --pre-commit" in example
    # the README's example as written, with this checkout's module for `wukong-lint`
    entry = f"{shlex.quote(sys.executable)} -m wukong_lint check --pre-commit"
    example = example.replace("wukong-lint check --pre-commit", entry)
    (repo / ".pre-commit-config.yaml").write_text(example)
    (repo / "a.py").write_text("x = 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PYTHONPATH": str(PROJECT),
        "NO_COLOR": "1",
    }
    env.pop("GIT_INDEX_FILE", None)
    env.pop("PRE_COMMIT_FROM_REF", None)
    env.pop("PRE_COMMIT_TO_REF", None)
    return repo, env


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@needs_pre_commit
def test_all_files_finds_a_secret_committed_with_no_verify(hooked):
    repo, env = hooked
    (repo / "s.py").write_text(f"T = '{TOKEN}'\n")
    git(repo, "add", "s.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "leak")  # the index is clean again
    proc = run(["pre-commit", "run", "--all-files"], repo, env)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "secret.github-pat" in output and "s.py" in output and TOKEN not in output
    proc = run(["pre-commit", "run", "--files", "s.py"], repo, env)
    assert proc.returncode == 1 and "secret.github-pat" in proc.stdout
    proc = run(["pre-commit", "run", "--files", "a.py"], repo, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout


@needs_pre_commit
def test_commit_sees_only_staged_added_lines(hooked):
    repo, env = hooked
    (repo / "s.py").write_text(f"T = '{TOKEN}'\n")
    git(repo, "add", "s.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "old leak")
    assert run(["pre-commit", "install"], repo, env).returncode == 0
    # a commit that touches the file, not the secret: passes (the old secret is not its lines)
    (repo / "s.py").write_text(f"T = '{TOKEN}'\nU = 2\n")
    git(repo, "add", "s.py")
    proc = run(["git", "commit", "-m", "edit"], repo, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "wukong-lint" in proc.stdout + proc.stderr  # the hook did run
    # a commit adding a secret is refused, with the line of the new file
    (repo / "s.py").write_text(f"T = '{TOKEN}'\nU = 2\nK = '{STRIPE}'\n")
    git(repo, "add", "s.py")
    proc = run(["git", "commit", "-m", "new leak"], repo, env)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert "secret.stripe-secret-key" in output and "3:" in output
    assert "secret.github-pat" not in output and STRIPE not in output
    # `git commit -a` (a temporary index) still sees the staged lines
    (repo / "s.py").write_text(f"T = '{TOKEN}'\nU = 3\n")
    proc = run(["git", "commit", "-a", "-m", "drop it"], repo, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@needs_pre_commit
def test_from_ref_to_ref_scans_the_commits_of_the_range(hooked):
    repo, env = hooked
    base = git(repo, "rev-parse", "HEAD").strip()
    (repo / "s.py").write_text(f"T = '{TOKEN}'\n")
    git(repo, "add", "s.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "leak")
    leak = git(repo, "rev-parse", "HEAD").strip()
    (repo / "s.py").write_text("T = None\n")
    git(repo, "commit", "-q", "--no-verify", "-am", "hide it")
    proc = run(["pre-commit", "run", "--from-ref", base, "--to-ref", "HEAD"], repo, env)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "secret.github-pat" in output and f"commit {leak[:12]}" in output


def test_split_file_lists_report_the_change_once(tmp_path: Path, monkeypatch):
    """pre-commit splits long file lists over several runs: the change as a whole goes with
    the run that holds the first staged file that still exists."""
    from wukong_lint.model import Source, Unit
    from wukong_lint.sources.precommit import only_files

    monkeypatch.chdir(tmp_path)
    names = [f"{'d' * 60}/{i:04d}.py" for i in range(120)]
    for name in [*names, "zz.py"]:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("x\n")
    change = Unit(".", "\n".join(["a-deleted.py", *names, "zz.py"]) + "\n", Source(kind="change"))
    units = [Unit(n, "x\n", Source(kind="diff")) for n in [*names, "zz.py"]]

    def kinds(files: list[str]) -> list[str]:
        return [u.source.kind for u in only_files([*units, change], files)]

    first, second = names[:60], [*names[60:], "zz.py"]
    assert kinds(first) == ["diff"] * 60 + ["change"]
    assert kinds(second) == ["diff"] * 61  # a file before its first one exists: not this run
    assert kinds(["zz.py"]) == ["diff", "change"]  # a short list is never split
    assert kinds([]) == ["diff"] * 121 + ["change"]  # no list: everything staged


def test_hook_words_skip_argparse_with_the_same_namespace(monkeypatch):
    """`check --pre-commit FILE...` is parsed without argparse, as argparse would parse it;
    options (`args:` in a hook config) go through argparse."""
    from wukong_lint import cli

    words = ["check", "--pre-commit", "a.py", "dir/b.py"]
    parsed = vars(cli._build_parser("check").parse_args(words))
    seen: dict = {}
    monkeypatch.setattr(cli, "_cmd_check", lambda args: seen.update(vars(args)) or 0)
    assert cli.main(words) == 0
    seen.pop("handler")
    parsed.pop("handler")
    assert seen == parsed and seen["paths"] == ["a.py", "dir/b.py"] and seen["pre_commit"]
    seen.clear()
    assert cli.main(["check", "--pre-commit", "--select", "secret", "a.py"]) == 0
    assert seen["select"] == ["secret"] and seen["paths"] == ["a.py"]


@needs_pre_commit
def test_pre_push_scans_every_pushed_commit(hooked, tmp_path):
    repo, env = hooked
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "origin", "main")
    assert run(["pre-commit", "install", "-t", "pre-push"], repo, env).returncode == 0
    (repo / "s.py").write_text(f"T = '{TOKEN}'\n")
    git(repo, "add", "s.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "leak")
    (repo / "s.py").write_text("T = None\n")
    git(repo, "commit", "-q", "--no-verify", "-am", "hide it")
    proc = run(["git", "push", "origin", "main"], repo, env)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert "secret.github-pat" in output and TOKEN not in output
    assert git(remote, "log", "--oneline", "main").count("\n") == 1  # nothing was pushed
