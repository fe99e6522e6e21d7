"""`.wukong-lint.yaml` / `[tool.wukong-lint]`, `--config`, `config show`, other scanners' allow
comments, and the cost of the pre-commit path with and without a config file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from tests.conftest import git
from wukong_lint.cli import main

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
JWT_FREE_PASSWORD = "Zq7#vLp2!tKx9wRm"


def findings(capsys, *args: str) -> tuple[int, list[tuple[str, str, int]]]:
    code = main(["check", "--format", "json", *args])
    out = capsys.readouterr().out
    data = json.loads(out) if out.strip() else {"findings": []}
    return code, [(f["rule_id"], f["path"], f["line"]) for f in data["findings"]]


def test_yaml_config_selection_paths_params_fail_on(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "tests").mkdir()
    (repo / "tests" / "fixture.py").write_text(f'T = "{TOKEN}"\n')
    (repo / "app.py").write_text(f'T = "{TOKEN}"\npassword = "{JWT_FREE_PASSWORD}"\n')
    assert findings(capsys)[1] == [
        ("secret.github-pat", "app.py", 1),
        ("secret.generic-assignment", "app.py", 2),
        ("secret.github-pat", "tests/fixture.py", 1),
    ]
    (repo / ".wukong-lint.yaml").write_text(
        "fail-on: critical\n"
        "ignore: [secret]\n"
        "select: [secret.github, secret.generic-assignment]\n"
        "per-path-ignores:\n  'tests/*': [secret.github-pat]\n"
        "rule-params:\n  secret.generic-assignment: {severity: medium}\n"
    )
    code, found = findings(capsys)
    assert found == [("secret.github-pat", "app.py", 1), ("secret.generic-assignment", "app.py", 2)]
    assert code == 1
    # fail-on from the config: only the medium finding left -> exit 0
    assert findings(capsys, "--ignore", "secret.github-pat")[0] == 0
    # the command line wins over the config
    assert findings(capsys, "--ignore", "secret.github-pat", "--fail-on", "medium")[0] == 1
    # --select replaces the config's select
    assert findings(capsys, "--select", "secret.generic-assignment")[1] == [
        ("secret.generic-assignment", "app.py", 2)
    ]
    # the config is found from a sub-folder too; per-path globs are relative to it
    monkeypatch.chdir(repo / "tests")
    assert findings(capsys, ".")[1] == []


def test_pyproject_table_and_explicit_config(repo: Path, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(f'T = "{TOKEN}"\n')
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.wukong-lint]\nignore = ["secret.github-pat"]\n'
    )
    assert findings(capsys)[1] == []
    other = tmp_path / "strict.yaml"
    other.write_text("select: [secret]\n")
    assert len(findings(capsys, "--config", str(other))[1]) == 1
    assert main(["config", "show"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"# from {repo / 'pyproject.toml'}")
    assert yaml.safe_load(shown)["ignore"] == ["secret.github-pat"]
    assert yaml.safe_load(shown)["fail-on"] == "high"


def test_bad_configs_name_the_problem(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text("x = 1\n")
    cases = {
        "fail_on: high\n": "unknown key 'fail_on' (did you mean 'fail-on'?)",
        "colour: red\n": "unknown key 'colour'",
        "fail-on: severe\n": "fail-on:",
        "profile: strict\n": "profile:",
        "rule-params:\n  secret.nope: {severity: low}\n": "unknown rule 'secret.nope'",
        "rule-params:\n  secret.github-pat: {entropy: high}\n": "expected a number",
        "rule-params:\n  secret.github-pat: {regexx: x}\n": "unknown setting",
        "allow-comments: [trufflehog]\n": "allow-comments",
        "- a list\n": "expected a mapping",
        "key: [unclosed\n": "line",
    }
    for text, expected in cases.items():
        (repo / ".wukong-lint.yaml").write_text(text)
        assert main(["check"]) == 2, text
        err = capsys.readouterr().err
        assert expected in err and err.count("\n") == 1 and "Traceback" not in err, (text, err)
    (repo / ".wukong-lint.yaml").unlink()
    (repo / "pyproject.toml").write_text("[tool.wukong-lint]\nselect = [\n")
    assert main(["check"]) == 2
    assert "invalid TOML" in capsys.readouterr().err
    assert main(["check", "--config", "nowhere.yaml"]) == 2


def test_other_scanners_allow_comments_when_enabled(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(
        f'A = "{TOKEN}"  # gitleaks:allow\n'
        f'B = "{TOKEN}"  # pragma: allowlist secret\n'
        "# pragma: allowlist nextline secret\n"
        f'C = "{TOKEN}"\n'
        f'D = "{TOKEN}"\n'
    )
    assert [f[2] for f in findings(capsys)[1]] == [1, 2, 4, 5]
    (repo / ".wukong-lint.yaml").write_text("allow-comments: [gitleaks]\n")
    assert [f[2] for f in findings(capsys)[1]] == [2, 4, 5]
    (repo / ".wukong-lint.yaml").write_text("allow-comments: [gitleaks, detect-secrets]\n")
    assert [f[2] for f in findings(capsys)[1]] == [5]


def test_profile_from_config_and_command_line(repo: Path, monkeypatch, capsys):
    from wukong_lint.sources import transcripts

    monkeypatch.chdir(repo)
    (repo / "a.py").write_text("x = 1\n")
    (repo / ".wukong-lint.yaml").write_text("profile: generic\n")
    assert main(["check", "a.py"]) == 0
    assert transcripts.OPTIONS["profile"] == "generic"
    assert main(["check", "a.py", "--profile", "wukong"]) == 0
    assert transcripts.OPTIONS["profile"] == "wukong"
    capsys.readouterr()
    assert main(["config", "show"]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["profile"] == "generic"


IMPORT_PROBE = """
import sys
from wukong_lint.cli import main
code = main(["check", "--staged"])
heavy = sorted(m for m in ("pydantic", "yaml", "tomllib", "tomli", "rich") if m in sys.modules)
print("HEAVY=" + ",".join(heavy), file=sys.stderr)
sys.exit(code)
"""


def test_staged_path_imports_nothing_heavy_without_a_config(repo: Path):
    (repo / "a.py").write_text("x = 1\n")
    git(repo, "add", "a.py")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    main(["rules", "list"])  # fill the rule cache (a cold cache validates the YAML rules)
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE], cwd=repo, capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert "HEAVY=\n" in proc.stderr
    # with a config file, YAML and pydantic are loaded (and the config applies)
    (repo / ".wukong-lint.yaml").write_text("fail-on: critical\n")
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE], cwd=repo, capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0 and "pydantic" in proc.stderr


def test_audit_off_written_plainly_is_off(tmp_path: Path) -> None:
    """`audit: off`, as the docs write it (YAML 1.1 reads an unquoted `off` as false), turns
    the audit log off instead of failing the config; other values are still checked."""
    from wukong_lint.config.project import load_config
    from wukong_lint.util.errors import UsageError

    path = tmp_path / ".wukong-lint.yaml"
    for written, expected in (("off", "off"), ("'off'", "off"), ("all", "all")):
        path.write_text(f"audit: {written}\n", encoding="utf-8")
        assert load_config(str(path)).audit == expected
    path.write_text("audit: no-way\n", encoding="utf-8")
    try:
        load_config(str(path))
    except UsageError as err:
        assert "audit" in str(err)
    else:
        raise AssertionError("a wrong audit value was accepted")
