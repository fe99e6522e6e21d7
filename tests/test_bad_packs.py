"""Bad rule packs and malformed gitleaks configs (issue 15): the one-line usage or rule
error with exit 2, never "internal error"."""

from __future__ import annotations

from pathlib import Path

import pytest

from wukong_lint.cli import main

RULE = (
    "id: custom.a\ncategory: secret\nseverity: high\nkind: regex\nmessage: m\n"
    "keywords: [abc]\nregex: 'abc[0-9]+'\ndocs: d\n"
    "examples: {{match: ['abc12'], no_match: ['abd']}}\n{extra}"
)
PACKS = {
    "nul byte": b"id: custom.a\x00\n",
    "nested 5,000 deep": ("a: " + "[" * 5000 + "]" * 5000 + "\n").encode(),
    "not UTF-8": b"id: \xff\xfe\n",
    "regex bomb": RULE.format(extra="").replace("abc[0-9]+", "(?:a{60000}){60000}").encode(),
    "bad plain allow regex": RULE.format(extra="allow: ['(']\n").encode(),
    "YAML alias bomb": b"a: &x [1, 2]\nb: [*x, *x]\n",
}
GITLEAKS = {
    "not UTF-8": b"[[rules]]\nid = '\xff'\n",
    "nested 3,000 deep": ("a = " + "[" * 3000 + "]" * 3000 + "\n").encode(),
    "rules is a number": b"rules = 5\n",
    "tags is a number": b"[[rules]]\nid = 'x'\nregex = 'abc'\nkeywords = ['abc']\ntags = 5\n",
    "allowlist regexes is a number": (
        b"[[rules]]\nid = 'x'\nregex = 'abc'\nkeywords = ['abc']\n[rules.allowlist]\nregexes = 5\n"
    ),
    "entropy is a word": (
        b"[[rules]]\nid = 'x'\nregex = 'abc'\nkeywords = ['abc']\nentropy = 'high'\n"
    ),
}


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("wukong-lint: error: "), err
    assert "internal error" not in err and "Traceback" not in err
    return err


@pytest.mark.parametrize("name", sorted(PACKS))
def test_a_bad_rule_pack_is_a_one_line_rule_error(name, tmp_path, capsys):
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "rule.yaml").write_bytes(PACKS[name])
    target = tmp_path / "a.txt"
    target.write_text("abc12\n")
    assert main(["check", "--rules", str(pack), str(target)]) == 2
    assert "rule.yaml" in one_line_error(capsys)


@pytest.mark.parametrize("name", sorted(GITLEAKS))
def test_a_malformed_gitleaks_config_is_a_one_line_usage_error(name, tmp_path, capsys):
    config = tmp_path / ".gitleaks.toml"
    config.write_bytes(GITLEAKS[name])
    assert main(["rules", "import-gitleaks", str(config), "-o", str(tmp_path / "out")]) == 2
    assert ".gitleaks.toml" in one_line_error(capsys)


def test_gitleaks_rules_that_cannot_be_compiled_are_skipped_and_the_pack_loads(
    tmp_path: Path, capsys
):
    config = tmp_path / ".gitleaks.toml"
    config.write_text(
        "[[rules]]\nid = 'bomb'\nregex = '(?:a{60000}){60000}'\nkeywords = ['aaa']\n"
        "[[rules]]\nid = 'good'\nregex = 'tok_[0-9]{8}'\nkeywords = ['tok_']\n"
        "[[rules.allowlists]]\nregexes = ['(', 'tok_00000000']\n"
    )
    out = tmp_path / "out"
    assert main(["rules", "import-gitleaks", str(config), "-o", str(out)]) == 0
    printed = capsys.readouterr()
    assert "bomb" in printed.out + printed.err and "regex too large" in printed.out + printed.err
    assert [p.name for p in out.iterdir()] == ["good.yaml"]
    assert main(["rules", "test", str(out)]) == 0
