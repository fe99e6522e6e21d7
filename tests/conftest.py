from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (CI must not pass or fail by chance);
# HYPOTHESIS_PROFILE=explore draws new ones, for a fuzzing session.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """What `-n auto` (pyproject's addopts) means. The suite, or a folder of it, runs on one
    worker per usable core. A run that names test files or tests stays in this process: no
    worker start-up for a quick check, and a shared machine keeps its other cores free (`-n 2`
    asks for workers anyway). PYTEST_XDIST_AUTO_NUM_WORKERS overrides both."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist reads it
    named = [arg.split("::", 1)[0] for arg in config.args]
    if named and all(os.path.isfile(path) for path in named):
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return cores if cores > 1 else 0  # one worker would only add its start-up


def pytest_configure(config: pytest.Config) -> None:
    """With PYTHONDONTWRITEBYTECODE set (common in containers and CI images), every
    `python -m wukong_lint` a test starts compiles the whole package again: about a third of
    its start-up, and the suite starts hundreds. The processes this run starts (xdist workers,
    the command line, hooks) share compiled files in a temporary folder instead; none is
    written into the source tree, and the folder goes at the end of the run."""
    if hasattr(config, "workerinput") or not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return  # a worker inherits what the main process set; else Python caches as usual
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return  # the user chose where compiled files go
    folder = tempfile.mkdtemp(prefix="wukong-lint-tests-pyc-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    del os.environ["PYTHONDONTWRITEBYTECODE"]


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """A test marked `pure_python` patches a class of a module that can run compiled
    (wukong_lint/native.py): compiled callers never see the patch. When this process runs
    the compiled build, the test runs in a new pytest process on the pure-Python modules,
    whose source the compiled ones are built from, and must pass there."""
    if pyfuncitem.get_closest_marker("pure_python") is None:
        return None
    from wukong_lint import native

    if not native.status().startswith("compiled"):
        return None  # (pure Python here: the test runs as it is)
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
         pyfuncitem.nodeid],
        cwd=pyfuncitem.config.rootpath, env={**os.environ, native.PURE_ENV: "1"},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, f"in pure Python:\n{proc.stdout[-4000:]}{proc.stderr[-2000:]}"
    return True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked slow, and with them their files (a parallel run deals out whole files in
    the order of their first test), start first: started last, one of them would keep a
    worker busy alone at the end of the run."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Each test session gets its own rule cache, so tests never depend on ~/.cache; and each
    test its own user config folder (approvals of project configs, the user's config.yaml)
    and no managed config: the hook's policy never depends on the machine's."""
    cache = tmp_path_factory.getbasetemp() / "wukong-cache"
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", str(cache))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg-config")))
    monkeypatch.setenv("WUKONG_LINT_MANAGED_CONFIG", os.devnull + "/none")


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


def wukong_report(path: Path, *options: str) -> list[dict]:
    """The findings of `wukong-lint check PATH --profile wukong --format json OPTIONS`, run
    as a user runs it (a new process); any exit but 0 or 1 fails the test."""
    import json
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "wukong_lint", "check", str(path), "--profile", "wukong",
         "--format", "json", *options],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


_WARM: list[Path] = []


def warm_cache(cache_home: Path) -> None:
    """Seed `cache_home`/wukong-lint (a test's XDG_CACHE_HOME) with the rule and regex caches
    of this test session, built once per worker: a hook process in a fresh temporary HOME
    then starts as a user's second call does, not rebuilding every cache (~1.5 s of CPU a
    test). Tests about building, verifying or poisoning the caches do not call this."""
    if not _WARM:
        cache = Path(os.environ["WUKONG_LINT_CACHE_DIR"])
        env = {**os.environ, "WUKONG_LINT_CACHE_DIR": str(cache)}
        event = (
            '{"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "warm",'
            ' "tool_input": {"command": "ls"}, "cwd": "/tmp", "transcript_path": "/t.jsonl"}'
        )
        subprocess.run([sys.executable, "-m", "wukong_lint", "hook"], input=event.encode(),
                       capture_output=True, env=env, check=False)  # fmt: skip
        _WARM.append(cache)
    target = cache_home / "wukong-lint"
    target.mkdir(parents=True, exist_ok=True)
    for path in _WARM[0].iterdir():
        if path.is_file() and path.suffix in (".bin", ".json") and path.name != "hook.log":
            shutil.copy2(path, target / path.name)
