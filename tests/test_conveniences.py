"""Everyday conveniences (issue 28): "did you mean" for misspelt config values, one string as
a one-item list, `rules list` filters, `config show --format json`, shell completion, and
warnings for inline suppressions that name no rule or suppress nothing."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from wukong_lint.cli import main

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fail-on: hgih\n", "fail-on: unknown value 'hgih' (did you mean 'high'?"),
        ("profile: wukng\n", "profile: unknown value 'wukng' (did you mean 'wukong'?"),
        ("allow-comments: [rufff]\n", "(did you mean 'ruff'?"),
        ("live: {lang: eng}\n", "live.lang: unknown value 'eng' (did you mean 'en'?"),
        ("fail-on: zzzzzz\n", "expected one of low, medium, high, critical"),
        ("select: 3\n", "select: expected a list (or one string)"),
    ],
)
def test_misspelt_values_get_did_you_mean(repo: Path, monkeypatch, capsys, text, expected):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text("x = 1\n")
    (repo / ".wukong-lint.yaml").write_text(text)
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert expected in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_string_is_a_one_item_list(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "vendor").mkdir()
    (repo / "vendor" / "lib.py").write_text(f'T = "{TOKEN}"\n')
    (repo / "app.py").write_text(f'T = "{TOKEN}"\n')
    (repo / ".wukong-lint.yaml").write_text("select: secret\nexclude: vendor/\n")
    assert main(["check", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["rule_id"], f["path"]) for f in found] == [("secret.github-pat", "app.py")]
    (repo / ".wukong-lint.yaml").write_text("ignore: secret\n")
    code = main(["check", "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0 and json.loads(out)["findings"] == []


OFF_RULE = """id: secret.zz-off-by-default
category: secret
severity: low
kind: regex
enabled: false
message: a rule that is off unless selected
keywords: [zzz-marker]
regex: 'zzz-marker-[0-9]+'
docs: Off by default.
examples:
  match: ['zzz-marker-12']
  no_match: ['nothing']
"""


def _listed(capsys, *options: str) -> list[dict]:
    assert main(["rules", "list", "--format", "json", *options]) == 0
    return json.loads(capsys.readouterr().out)["rules"]


def test_rules_list_filters(tmp_path: Path, capsys):
    every = _listed(capsys)
    secrets = _listed(capsys, "--category", "secret")
    assert secrets and all(r["category"] == "secret" for r in secrets)
    assert len(secrets) == sum(r["category"] == "secret" for r in every)
    both = _listed(capsys, "--category", "secret,dangerous-command", "--kind", "regex")
    assert {r["category"] for r in both} <= {"secret", "dangerous-command"}
    assert all(r["kind"] == "regex" for r in both) and len(both) < len(every)
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "off.yaml").write_text(OFF_RULE)
    off = _listed(capsys, "--rules", str(pack), "--disabled")
    assert [r["id"] for r in off] == ["secret.zz-off-by-default"]
    on = _listed(capsys, "--rules", str(pack), "--enabled")
    assert "secret.zz-off-by-default" not in {r["id"] for r in on}
    assert len(on) == len(every)  # the built-in rules are all on
    assert main(["rules", "list", "--category", "secret", "--rules", str(pack)]) == 0
    assert "secret.zz-off-by-default" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--category", "secrt"], "no rule has category 'secrt' (did you mean 'secret'?)"),
        (["--kind", "regx"], "no rule has kind 'regx' (did you mean 'regex'?)"),
    ],
)
def test_rules_list_unknown_filter_is_one_line(capsys, options, expected):
    assert main(["rules", "list", *options]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1


def test_rules_list_enabled_and_disabled_exclude_each_other(capsys):
    assert main(["rules", "list", "--enabled", "--disabled"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_config_show_json(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    assert main(["config", "show", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["source"] is None and shown["config"]["fail-on"] == "high"
    (repo / ".wukong-lint.yaml").write_text("fail-on: medium\nselect: secret\n")
    assert main(["config", "show", "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["source"] == str(repo / ".wukong-lint.yaml")
    assert shown["config"]["fail-on"] == "medium" and shown["config"]["select"] == ["secret"]
    assert main(["config", "show", "--format", "xml"]) == 2


def _bash_complete(script: str, *words: str) -> list[str]:
    """COMPREPLY of the bash script for the command line `words` (the last one being typed)."""
    quoted = " ".join(shlex.quote(w) for w in words)
    program = (
        f"{script}\nCOMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}\n"
        '_wukong_lint; printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line]


def _script(capsys, shell: str) -> str:
    assert main(["completion", shell]) == 0
    return capsys.readouterr().out


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_walks_the_parser(capsys):
    script = _script(capsys, "bash")
    subprocess.run(["bash", "-n"], input=script, text=True, check=True)
    top = _bash_complete(script, "wukong-lint", "")
    assert {"check", "rules", "config", "completion", "baseline"} <= set(top)
    assert _bash_complete(script, "wukong-lint", "ru") == ["rules"]
    assert set(_bash_complete(script, "wukong-lint", "rules", "")) >= {"list", "show", "test"}
    listed = _bash_complete(script, "wukong-lint", "rules", "list", "--")
    assert {"--category", "--kind", "--enabled", "--disabled", "--format"} <= set(listed)
    assert _bash_complete(script, "wukong-lint", "rules", "list", "--format", "") == [
        "text",
        "json",
    ]
    assert _bash_complete(script, "wukong-lint", "check", "--fail-on", "h") == ["high"]
    assert _bash_complete(script, "wukong-lint", "config", "show", "--format", "j") == ["json"]
    # an option of `check`, after other options and a path
    assert "--staged" in _bash_complete(script, "wukong-lint", "check", "-q", "src", "--st")


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_name_every_command_and_option(capsys, shell):
    from wukong_lint.cli import _build_parser
    from wukong_lint.cli.completion import commands

    script = _script(capsys, shell)
    tree = commands(_build_parser())
    for command in tree:
        assert command.path in script
        for option in command.options:
            for flag in option.flags:
                assert (flag if shell == "zsh" else flag.lstrip("-")) in script
    if shell == "zsh":
        assert script.startswith("#compdef wukong-lint") and "compdef _wukong_lint" in script
    else:
        assert "-l fail-on -x -a 'low medium high critical'" in script
    binary = shutil.which(shell)
    if binary:  # a syntax check where the shell is installed
        subprocess.run([binary, "-n"], input=script, text=True, check=True)


def test_completion_of_an_unknown_shell_is_one_line(capsys):
    assert main(["completion", "tcsh"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'tcsh'" in err and "Traceback" not in err


STALE = (
    f'T = "{TOKEN}"  # wukong-lint: ignore[secret.github-pat]\n'
    "x = 1  # wukong-lint: ignore[secrt]\n"
    "y = 2  # wukong-lint: ignore\n"
    "z = 3  # wukong-lint: ignore[secret.jwt]\n"
)


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("wukong-lint: warning:")]


def test_stale_inline_ignores_are_warnings(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "a.py").write_text(STALE)
    (repo / "clean.py").write_text("# wukong-lint: ignore[secret.github-pat] has its finding\n")
    assert main(["check"]) == 0  # warnings never change the exit code by default
    assert _warnings(capsys.readouterr().err) == [
        "wukong-lint: warning: a.py:2: wukong-lint: ignore[secrt] matches no rule "
        "(did you mean 'secret'?)",
        "wukong-lint: warning: a.py:3: wukong-lint: ignore suppressed nothing (unused)",
        "wukong-lint: warning: a.py:4: wukong-lint: ignore[secret.jwt] suppressed nothing (unused)",
        "wukong-lint: warning: clean.py:1: wukong-lint: ignore[secret.github-pat] suppressed "
        "nothing (unused)",
    ]
    assert main(["check", "--stale-ignores", "fail"]) == 1
    assert main(["check", "--stale-ignores", "fail", "--exit-zero"]) == 0
    capsys.readouterr()
    assert main(["check", "--stale-ignores", "off"]) == 0
    assert _warnings(capsys.readouterr().err) == []


def test_stale_ignores_of_rules_that_did_not_run_are_not_called_unused(
    repo: Path, monkeypatch, capsys
):
    monkeypatch.chdir(repo)
    (repo / "a.py").write_text(STALE)
    assert main(["check", "--select", "secret.github-pat"]) == 0
    warned = _warnings(capsys.readouterr().err)
    assert not any("a.py:4" in line for line in warned)  # secret.jwt did not run
    assert any("a.py:2" in line and "did you mean 'secret'" in line for line in warned)


def test_stale_ignores_in_a_staged_change_only_on_added_lines(repo: Path, monkeypatch, capsys):
    from tests.conftest import git

    monkeypatch.chdir(repo)
    (repo / "old.py").write_text("w = 0  # wukong-lint: ignore\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    (repo / "old.py").write_text(
        "w = 0  # wukong-lint: ignore\nv = 1  # wukong-lint: ignore[jwt]\n"
    )
    git(repo, "add", ".")
    assert main(["check", "--staged"]) == 0
    assert _warnings(capsys.readouterr().err) == [
        "wukong-lint: warning: old.py:2: wukong-lint: ignore[jwt] matches no rule "
        "(did you mean 'secret.jwt'?)"
    ]


def test_a_used_ignore_gives_no_warning(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "a.py").write_text(f'T = "{TOKEN}"  # wukong-lint: ignore[secret]\n')
    assert main(["check", "--stale-ignores", "fail"]) == 0
    assert _warnings(capsys.readouterr().err) == []
