from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (CI must not pass or fail by chance);
# HYPOTHESIS_PROFILE=explore draws new ones, for a fuzzing session.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Each test session gets its own rule cache, so tests never depend on ~/.cache."""
    cache = tmp_path_factory.getbasetemp() / "wukong-cache"
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", str(cache))


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run(
        ["git", *args], cwd=repo, env=full_env, capture_output=True, text=True, check=True
    )
    return proc.stdout


def commit(repo: Path, name: str, text: str, message: str) -> str:
    """Write `name` in `repo` (its folders too), commit it alone, return the commit id."""
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(repo, "add", name)
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A fresh git repository with an identity and no commits."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "dev@example.com")
    git(path, "config", "user.name", "Dev")
    git(path, "config", "commit.gpgsign", "false")
    return path
