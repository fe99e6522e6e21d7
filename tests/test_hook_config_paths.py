"""The live hook honours the config's `exclude` and `per-path-ignores` for the file an
Edit / Write / MultiEdit changes, as `check` does for files (relative to the config's folder;
a relative `file_path` from the event's `cwd`). Real event JSON fed to the real command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# Built at run time: the test file itself holds no secret.
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8"
CONFIG = """\
rule-dirs: [team-rules]
exclude: [tests/fixtures/, "*.golden"]
per-path-ignores:
  "docs/*": [secret]
  "examples/": [injection]
  "deploy/.env.ci": [custom.env-write]
  "scratch/": ["*"]
"""


def _exit_mode(args: tuple[str, ...] | list[str]) -> list[str]:
    """The hook in exit mode unless the test picks one (the default is json since the ask
    tier must reach the user; these tests read exit codes)."""
    args = list(args)
    return args if any(a.startswith("--mode") for a in args) else ["--mode", "exit", *args]


def hook(event: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", "hook", *_exit_mode(args)],
        input=json.dumps(event).encode(), capture_output=True, timeout=60, check=False,
    )  # fmt: skip


def write(root: Path, path: str, content: str, cwd: Path | None = None) -> dict:
    return {
        "session_id": "s1",
        "transcript_path": str(root / "none.jsonl"),
        "cwd": str(cwd or root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": path, "content": content},
        "tool_use_id": "toolu_01",
    }


ENV_WRITE_RULE = """\
rules:
  - id: custom.env-write
    category: sensitive-path
    severity: medium
    kind: path
    message: Writes a .env file
    applies_to: [transcript]
    access: [write]
    targets: ['.env', '.env.*']
    docs: A team's rule.
    examples:
      match: ['echo A=1 > .env']
      no_match: ['cat .env']
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    for folder in (".git", "tests/fixtures", "src/pkg", "docs", "examples", "deploy", "scratch"):
        (root / folder).mkdir(parents=True)
    (root / ".wukong-lint.yaml").write_text(CONFIG)
    (root / "team-rules").mkdir()
    (root / "team-rules" / "env.yaml").write_text(ENV_WRITE_RULE)
    return root


def test_excluded_file_does_not_block_and_others_still_do(project: Path) -> None:
    content = f"token = '{TOKEN}'\n"
    assert hook(write(project, str(project / "tests/fixtures/key.txt"), content)).returncode == 0
    assert hook(write(project, str(project / "api.golden"), content)).returncode == 0  # basename
    blocked = hook(write(project, str(project / "src/pkg/key.txt"), content))
    assert blocked.returncode == 2
    assert b"secret.github-pat" in blocked.stderr
    assert TOKEN.encode() not in blocked.stderr


def test_relative_path_resolved_from_the_event_cwd(project: Path) -> None:
    content = f"token = '{TOKEN}'\n"
    sub = project / "src" / "pkg"
    assert hook(write(project, "../../tests/fixtures/k.txt", content, cwd=sub)).returncode == 0
    # `tests/fixtures/k.txt` from src/pkg is src/pkg/tests/fixtures: not excluded
    assert hook(write(project, "tests/fixtures/k.txt", content, cwd=sub)).returncode == 2


def test_per_path_ignores_cover_only_the_rules_they_name(project: Path) -> None:
    secret = f"export GH_TOKEN={TOKEN}\n"
    assert hook(write(project, str(project / "docs/setup.md"), secret)).returncode == 0
    # examples/ ignores injection only: the secret there still blocks
    assert hook(write(project, str(project / "examples/demo.py"), secret)).returncode == 2
    # `*` covers every rule that reads the file
    assert hook(write(project, str(project / "scratch/notes.txt"), secret)).returncode == 0


def test_a_glob_never_relaxes_a_file_outside_the_project(project: Path) -> None:
    proc = hook(write(project, "/etc/app/settings.golden", "x = 1\n"))
    assert proc.returncode == 2
    assert b"sensitive-path.system-write" in proc.stderr


def test_action_findings_stay_unless_named(project: Path) -> None:
    """A path rule's finding on a write is about where the agent writes, not what the file
    holds: `exclude` and `*` leave it; a per-path-ignores entry naming the rule covers it.
    (A team's rule: the built-in ones do not report writing a `.env` since issue 26.)"""
    extra = ("--mode", "json")
    proc = hook(write(project, str(project / "scratch/.env"), "A=1\n"), *extra)
    decision = json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"]
    assert decision == "ask", proc.stdout
    proc = hook(write(project, str(project / "deploy/.env.ci"), "A=1\n"), *extra)
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout


def test_a_multi_file_patch_is_filtered_only_when_every_file_is_covered(project: Path) -> None:
    def patch(*paths: str) -> dict:
        body = "".join(f"*** Add File: {p}\n+token = '{TOKEN}'\n" for p in paths)
        event = write(project, "", "")
        event["tool_name"], event["tool_input"] = "apply_patch", {"input": body}
        return event

    assert hook(patch("tests/fixtures/a.txt", "docs/b.md")).returncode == 0
    assert hook(patch("tests/fixtures/a.txt", "src/pkg/c.py")).returncode == 2


def test_edit_and_multiedit_targets(project: Path) -> None:
    edit = write(project, str(project / "tests/fixtures/cfg.py"), "")
    edit["tool_name"] = "Edit"
    edit["tool_input"] = {"file_path": edit["tool_input"]["file_path"], "old_string": "a",
                          "new_string": f"t = '{TOKEN}'"}  # fmt: skip
    assert hook(edit).returncode == 0
    multi = dict(edit, tool_name="MultiEdit")
    multi["tool_input"] = {
        "file_path": str(project / "src/pkg/cfg.py"),
        "edits": [{"old_string": "a", "new_string": f"t = '{TOKEN}'"}],
    }
    assert hook(multi).returncode == 2
