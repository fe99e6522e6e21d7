"""Everyday conveniences (issue 28): "did you mean" for misspelt config values, one string as
a one-item list, `rules list` filters, `config show --format json`, shell completion, and
warnings for inline suppressions that name no rule or suppress nothing."""

from __future__ import annotations

import json
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
