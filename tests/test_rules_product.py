"""Rules as a product: `rules list` table, docs/rules.md kept up to date, gitleaks import,
and the progress bar of long scans."""

from __future__ import annotations

import io
from pathlib import Path

from wukong_lint.cli import main
from wukong_lint.cli.ruledocs import render_markdown
from wukong_lint.engine.loader import load_rules

PROJECT = Path(__file__).resolve().parent.parent
DOCS = PROJECT / "docs" / "rules.md"


def test_docs_rules_md_is_up_to_date():
    expected = render_markdown(load_rules(()).rules)
    assert DOCS.read_text(encoding="utf-8") == expected, (
        "docs/rules.md is out of date: run `wukong-lint rules docs -o docs/rules.md`"
    )


def test_rules_docs_command_and_check(tmp_path: Path, capsys):
    target = tmp_path / "rules.md"
    assert main(["rules", "docs", "-o", str(target)]) == 0
    assert "### secret.github-pat" in target.read_text()
    assert main(["rules", "docs", "--check", "-o", str(target)]) == 0
    target.write_text(target.read_text() + "edited\n")
    assert main(["rules", "docs", "--check", "-o", str(target)]) == 1
    assert "out of date" in capsys.readouterr().err


def test_rules_list_is_a_table(capsys):
    assert main(["rules", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["ID", "CATEGORY", "SEVERITY", "KIND", "ENABLED"]
    row = next(line for line in lines if line.startswith("secret.github-pat "))
    assert row.split() == ["secret.github-pat", "secret", "critical", "regex", "on"]


GITLEAKS = r"""
title = "team rules"
[extend]
useDefault = true

[[rules]]
id = "acme-api-key"
description = "Acme API key"
regex = '''(?i)\b(acme_[a-z0-9]{32})\b'''
secretGroup = 1
entropy = 3.0
keywords = ["acme_"]
[[rules.allowlists]]
regexes = ['''acme_test''']
stopwords = ["example"]

[[rules]]
id = "internal-token"
description = "Internal service token"
regex = '''itok-[0-9a-f]{8}-[A-Za-z0-9]{24}'''
keywords = ["itok-"]
[rules.allowlist]
regexTarget = "line"
regexes = ['''#\s*fake''']
commits = ["abc123"]

[[rules]]
id = "pem-files"
path = '''\.pem$'''

[[rules]]
id = "no-keywords"
regex = '''secret=[a-z]{10}'''

[allowlist]
paths = ['''vendor/''']
"""


def test_import_gitleaks(tmp_path: Path, capsys):
    config = tmp_path / ".gitleaks.toml"
    config.write_text(GITLEAKS)
    out = tmp_path / "pack"
    assert main(["rules", "import-gitleaks", str(config), "-o", str(out)]) == 0
    report = capsys.readouterr().out
    assert "2 rule(s) written." in report
    assert "pem-files: path-only rule" in report and "no-keywords: no keywords" in report
    assert "commits cannot be converted" in report and "[extend]" in report
    assert sorted(p.name for p in out.iterdir()) == ["acme-api-key.yaml", "internal-token.yaml"]
    # the pack loads, its generated examples pass, and it finds what gitleaks would
    assert main(["rules", "test", str(out)]) == 0
    capsys.readouterr()
    key = "acme_" + "q8w2e9r7t6y5u4i3o2p1a9s8d7f6g5h4"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text(
        f'k = "{key}"\nt = "itok-0a1b2c3d-Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk"  # fake\n'
    )
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "b.py").write_text(f'k = "{key}"\n')
    code = main(["check", "--no-builtin-rules", "--rules", str(out), str(tmp_path / "src"),
                 str(tmp_path / "vendor"), "--format", "json"])  # fmt: skip
    found = capsys.readouterr().out
    assert code == 1 and found.count('"rule_id": "gitleaks.acme-api-key"') == 1
    assert "gitleaks.internal-token" not in found and key not in found
    # bad input: one line, exit 2
    config.write_text("[[rules]\n")
    assert main(["rules", "import-gitleaks", str(config), "-o", str(out)]) == 2
    assert main(["rules", "import-gitleaks", str(tmp_path / "none.toml"), "-o", str(out)]) == 2


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_for_long_scans_on_a_terminal(tmp_path: Path):
    from wukong_lint.engine.scan import Tally
    from wukong_lint.report import progress

    small = tmp_path / "a.txt"
    small.write_text("x\n")
    assert progress.wanted([(str(small), "a.txt")], _Tty()) == 0
    many = [(str(small), "a.txt")] * progress.MIN_FILES
    assert progress.wanted(many, _Tty()) > 0
    assert progress.wanted(many, io.StringIO()) == 0  # not a terminal
    stream = _Tty()
    bar = progress.Bar(1000, 2, stream)
    bar.advance(1, 500)
    bar.advance(1, 500)
    bar.close()
    assert "100.0%" in stream.getvalue() and "2/2 files" in stream.getvalue()
    assert isinstance(Tally([], [], 0, 0, 0), tuple)
