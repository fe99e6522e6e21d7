"""The real `pre-commit` tool runs our hook: a leaking commit is refused, a clean one passes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import git

PROJECT = Path(__file__).resolve().parent.parent
TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"

pytestmark = pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit missing")


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, str]]:
    """A committed copy of the project as it is now (uncommitted edits included)."""
    root = tmp_path_factory.mktemp("hook-repo")
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=PROJECT, capture_output=True, check=True,
    ).stdout.split(b"\0")  # fmt: skip
    for raw in filter(None, listing):
        rel = os.fsdecode(raw)
        source = PROJECT / rel
        if source.is_file() and not source.is_symlink():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / rel)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "snapshot")
    rev = git(root, "rev-parse", "HEAD").strip()
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home")),
        "NO_COLOR": "1",
        # pre-commit's install of the hook builds a pure-Python wheel: the compiled build
        # takes half a minute, and test_packaging.py and test_native.py test it
        "WUKONG_LINT_PURE": "1",
    }
    env.pop("GIT_INDEX_FILE", None)
    return root, rev, env


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_manifest_is_valid(hook_repo):
    root, _, env = hook_repo
    proc = run(["pre-commit", "validate-manifest", ".pre-commit-hooks.yaml"], root, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# Each of the two tests below has pre-commit build a virtualenv with the project installed (the
# slowest tests of the suite): try-repo builds its own in a throw-away store, the installed
# hooks share one in the module's PRE_COMMIT_HOME (a parallel run keeps a file on one worker).


@pytest.mark.slow
def test_try_repo(hook_repo, repo: Path):
    root, rev, env = hook_repo
    (repo / "app.py").write_text(f"import os\nGITHUB_TOKEN = '{TOKEN}'\n")
    git(repo, "add", "app.py")

    tried = run(["pre-commit", "try-repo", str(root), "wukong-lint", "--ref", rev], repo, env)
    output = tried.stdout + tried.stderr
    assert tried.returncode == 1, output
    assert "secret.github-pat" in output and "app.py" in output
    assert TOKEN not in output


@pytest.mark.slow
def test_installed_hook(hook_repo, repo: Path):
    root, rev, env = hook_repo
    (repo / "app.py").write_text(f"import os\nGITHUB_TOKEN = '{TOKEN}'\n")
    git(repo, "add", "app.py")

    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {root}\n  rev: {rev}\n  hooks:\n  - id: wukong-lint\n"
    )
    installed = run(["pre-commit", "install"], repo, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    refused = run(["git", "commit", "-m", "add token"], repo, env)
    assert refused.returncode != 0, refused.stdout + refused.stderr
    assert "secret.github-pat" in refused.stdout + refused.stderr
    assert git(repo, "log", "--oneline", "--all") == ""  # nothing was committed

    (repo / "app.py").write_text("import os\nGITHUB_TOKEN = os.environ['GITHUB_TOKEN']\n")
    git(repo, "add", "app.py", ".pre-commit-config.yaml")
    accepted = run(["git", "commit", "-m", "read token from env"], repo, env)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "wukong-lint" in accepted.stdout + accepted.stderr  # the hook did run

    # a secret committed with --no-verify: `pre-commit run --all-files` scans the files
    (repo / "leak.py").write_text(f"T = '{TOKEN}'\n")
    git(repo, "add", "leak.py")
    git(repo, "commit", "-q", "--no-verify", "-m", "skip the hook")
    all_files = run(["pre-commit", "run", "--all-files"], repo, env)
    assert all_files.returncode == 1, all_files.stdout + all_files.stderr
    assert "secret.github-pat" in all_files.stdout and "leak.py" in all_files.stdout


@pytest.mark.slow
def test_anchors_fmt_hook_fixes_files(hook_repo, repo: Path):
    """`wukong-anchors-fmt` rewrites an unformatted anchors file and fails the commit; once
    the fixed file is added, the commit goes through."""
    root, rev, env = hook_repo
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {root}\n  rev: {rev}\n  hooks:\n  - id: wukong-anchors-fmt\n"
    )
    messy = "# Anchors\n\n[D002] Second\n- why:  b\n\n\n[D001] First\n- Why: a\n"
    (repo / "anchors.md").write_text(messy)
    (repo / "notes.md").write_text("# not an anchors file\n\n\n[D002] x\n- Why: y\n")
    git(repo, "add", "-A")
    installed = run(["pre-commit", "install"], repo, env)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    refused = run(["git", "commit", "-m", "anchors"], repo, env)
    output = refused.stdout + refused.stderr
    assert refused.returncode != 0, output
    assert "files were modified by this hook" in output
    fixed = (repo / "anchors.md").read_text()
    assert fixed.index("[D001] First") < fixed.index("[D002] Second")
    assert "- Why: b" in fixed and "<!-- MACHINE_BLOCK_START -->" in fixed
    assert (repo / "notes.md").read_text().count("\n\n\n") == 1  # not its files: untouched

    git(repo, "add", "-A")
    accepted = run(["git", "commit", "-m", "anchors"], repo, env)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
