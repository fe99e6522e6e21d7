"""Selectors that name nothing are errors (exit 2, one line, "did you mean"); per-path-ignores
globs (`tests/`, `*`, warnings for globs that match nothing) and the config's `exclude`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git
from wukong_lint.cli import main
from wukong_lint.config.project import resolve_config
from wukong_lint.config.selectors import validate_selection
from wukong_lint.engine.loader import load_rules
from wukong_lint.util.errors import UsageError

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
PASSWORD = "Zq7#vLp2!tKx9wRm"


def check(capsys, *args: str) -> tuple[int, dict | None, str]:
    code = main(["check", "--format", "json", *args])
    captured = capsys.readouterr()
    report = json.loads(captured.out) if captured.out.strip() else None
    return code, report, captured.err


@pytest.fixture
def project(repo: Path, monkeypatch) -> Path:
    (repo / "app.py").write_text(f'T = "{TOKEN}"\npassword = "{PASSWORD}"\n')
    (repo / "tests" / "unit").mkdir(parents=True)
    (repo / "tests" / "unit" / "fixture.py").write_text(f'T = "{TOKEN}"\n')
    (repo / "vendor").mkdir()
    (repo / "vendor" / "lib.py").write_text(f'T = "{TOKEN}"\n')
    monkeypatch.chdir(repo)
    return repo


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--select", "secrt"], "--select: 'secrt' matches no rule, category or rule-id prefix: "
         "did you mean 'secret'?"),
        (["--ignore", "secret.githb-pat"], "did you mean 'secret.github-pat'?"),
        (["--select", "secret,dangerous-comand"], "did you mean 'dangerous-command'?"),
        (["--select", "Secret"], "did you mean 'secret'?"),
        # a prefix counts only at a boundary of the id's parts (as selection applies it)
        (["--select", "secret.githu"], "'secret.githu' matches no rule"),
    ],
)  # fmt: skip
def test_unknown_selectors_are_one_line_errors(project: Path, capsys, args, expected):
    code, report, err = check(capsys, *args, ".")
    assert code == 2 and report is None
    assert err.count("\n") == 1 and err.startswith("wukong-lint: error: ")
    assert expected in err


def test_valid_selectors_still_select(project: Path, capsys):
    for selector in ("secret", "secret.github", "secret.github-pat", "all", "*", "secret.github-"):
        code, report, err = check(capsys, "--select", selector, "app.py")
        assert code == 1 and err == "", selector
        assert "secret.github-pat" in {f["rule_id"] for f in report["findings"]}
    # a rule that is off by default is still a name (it runs when named)
    rules = load_rules(())
    off = next((r.id for r in rules.rules if not r.enabled), None)
    if off:
        assert check(capsys, "--select", off, "app.py")[0] in (0, 1)


def test_config_names_are_validated_with_the_file_named(project: Path, capsys):
    config = project / ".wukong-lint.yaml"
    cases = {
        "select: [secrets]\n": "select: 'secrets' matches no rule",
        "ignore: [secret.jwtt]\n": "did you mean 'secret.jwt'?",
        "per-path-ignores:\n  'tests/': [secret.github-patt]\n": "per-path-ignores['tests/']",
        "rule-params:\n  secret.generic-assignmnt: {entropy: 3.0}\n": (
            "rule-params: unknown rule 'secret.generic-assignmnt': "
            "did you mean 'secret.generic-assignment'?"
        ),
    }
    for text, expected in cases.items():
        config.write_text(text)
        code, report, err = check(capsys, ".")
        assert code == 2 and report is None, text
        assert str(config) in err and expected in err, err
        assert err.count("\n") == 1


def test_validate_selection_is_the_one_function_for_every_caller(project: Path):
    """The hook and the Action call it with their own option names."""
    rules = load_rules(()).rules
    validate_selection(rules, select=["secret"], ignore=["secret.jwt"])
    with pytest.raises(UsageError, match="did you mean 'secret'"):
        validate_selection(rules, select=["secrt"], option_names=("args --select", "-"))
    (project / ".wukong-lint.yaml").write_text("ignore: [dangerus-command]\n")
    config = resolve_config()
    with pytest.raises(UsageError, match=r"ignore: 'dangerus-command'.*'dangerous-command'"):
        validate_selection(rules, config=config)


def test_per_path_ignores_folders_star_and_unmatched_globs(project: Path, capsys):
    config = project / ".wukong-lint.yaml"
    config.write_text(
        "per-path-ignores:\n"
        "  'tests/': [secret]\n"  # a folder: everything under it, at any depth
        "  'vendor': ['*']\n"  # a folder without the slash; `*`: every rule
        "  'tset/*': [secret]\n"  # a typo: matches no file
        "  'build/': [secret]\n"  # ignored by git, but there: no warning
    )
    (project / ".gitignore").write_text("build/\n")
    (project / "build").mkdir()
    (project / "build" / "out.py").write_text("x = 1\n")
    code, report, err = check(capsys, ".")
    assert code == 1
    assert {f["path"] for f in report["findings"]} == {"app.py"}  # (suppressed: not listed)
    assert report["stats"]["suppressed"] == 2
    assert "'tset/*' matches no file" in err and "per-path-ignores" in err
    assert err.count("warning") == 1
    # the suppression shows: only app.py's findings fail the run
    code = main(["check", "--format", "concise", "."])
    out = capsys.readouterr().out
    assert "app.py:1:" in out and "tests/unit" not in out and "vendor/" not in out


def test_exclude_removes_paths_from_every_rule_in_every_mode(project: Path, capsys):
    (project / ".wukong-lint.yaml").write_text(
        "exclude: [vendor/, 'tests/**/fixture.py', 'nothing-here/']\n"
    )
    code, report, err = check(capsys, ".")
    assert {f["path"] for f in report["findings"]} == {"app.py"}
    assert report["stats"]["files"] == 2  # app.py and the config: excluded files are not read
    assert "'nothing-here/' matches no file" in err and "exclude" in err
    # named explicitly: still excluded (pre-commit hands files by name)
    code, report, _ = check(capsys, "vendor/lib.py")
    assert code == 0 and report["findings"] == [] and report["stats"]["files"] == 0
    # staged and range scans
    git(project, "add", ".")
    code, report, _ = check(capsys, "--staged")
    assert {f["path"] for f in report["findings"]} == {"app.py"}
    git(project, "commit", "-qm", "one")
    (project / "vendor" / "more.py").write_text(f'T = "{TOKEN}"\n')
    (project / "b.py").write_text(f'T = "{TOKEN}"\n')
    git(project, "add", ".")
    git(project, "commit", "-qm", "two")
    code, report, _ = check(capsys, "--diff", "HEAD~1..HEAD")
    assert {f["path"] for f in report["findings"]} == {"b.py"}
    code, report, _ = check(capsys, "--history")
    assert {f["path"] for f in report["findings"]} == {"app.py", "b.py"}


def test_config_show_lists_exclude_and_warns_of_unmatched_globs(project: Path, capsys):
    (project / ".wukong-lint.yaml").write_text("exclude: [vendor/, vendr/]\n")
    assert main(["config", "show"]) == 0
    captured = capsys.readouterr()
    assert "exclude:\n- vendor/\n- vendr/" in captured.out
    assert "exclude: 'vendr/' matches no file" in captured.err
    assert "'vendor/'" not in captured.err


def test_a_selection_that_leaves_no_rule_is_an_error(project: Path, capsys):
    code, report, err = check(capsys, "--ignore", "all", "app.py")
    assert code == 2 and report is None
    assert "no rule left to run (ignore all): nothing would be checked" in err
    pack = project / "pack"
    pack.mkdir()
    (pack / "one.yaml").write_text(
        "id: team.token\ncategory: secret\nseverity: high\nkind: regex\nmessage: m\ndocs: d\n"
        "keywords: [tok_]\nregex: 'tok_[a-z0-9]{16}'\n"
        "examples: {match: ['tok_a1b2c3d4e5f6g7h8'], no_match: ['tok_']}\n"
    )
    # a known category, but the rules loaded have none of it: nothing would run
    args = ("--no-builtin-rules", "--rules", str(pack))
    code, _, err = check(capsys, *args, "--select", "dangerous-command", "app.py")
    assert code == 2 and "no rule left to run (select dangerous-command)" in err
    assert check(capsys, *args, "--select", "team", "app.py")[0] == 0
    empty = project / "empty-pack"
    empty.mkdir()
    code, _, err = check(capsys, "--no-builtin-rules", "--rules", str(empty), "app.py")
    assert code == 2 and "no rule left to run (no rule is on in" in err


def test_the_actions_args_are_validated_too(project: Path, tmp_path: Path):
    """The Action passes `args` to `check`: a typo there fails the job (exit 2)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    git(project, "add", ".")
    git(project, "commit", "-qm", "base")
    event = tmp_path / "event.json"
    event.write_text("{}")
    output = tmp_path / "output.txt"
    output.write_text("")
    env = {
        **os.environ,
        "GITHUB_EVENT_NAME": "workflow_dispatch",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_WORKSPACE": str(project),
        "GITHUB_OUTPUT": str(output),
        "WUKONG_LINT": f"{sys.executable} -m wukong_lint",
        "PYTHONPATH": str(root),
        "INPUT_ARGS": "--select secrt",
        "INPUT_SARIF_FILE": str(tmp_path / "out.sarif"),
    }
    proc = subprocess.run(
        [sys.executable, str(root / "scripts" / "github_action.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "did you mean 'secret'?" in proc.stdout + proc.stderr
