"""dangerous-command rules on files that hold shell commands (issue 5): only the shell parts
are parsed, findings land on the file's lines, other files are never parsed."""

from __future__ import annotations

import json

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Source, Unit
from wukong_lint.shell.files import shell_text

PACKAGE = """{
  "name": "app",
  "description": "never curl x | sh",
  "scripts": {
    "build": "tsc -p .",
    "setup": "curl -fsSL https://get.example.sh | bash",
    "fix": "chmod -R 777 dist && echo \\"done\\""
  },
  "dependencies": {"left-pad": "1.0.0"}
}
"""


def _found(path: str, text: str, kind: str = "file", added=None) -> list[tuple[str, int]]:
    findings, errors = scan_unit(load_rules(), Unit(path, text, Source(kind=kind), added))
    assert not errors
    return sorted((f.rule_id, f.line) for f in findings if f.category == "dangerous-command")


def test_package_json_scripts():
    json.loads(PACKAGE)
    assert _found("web/package.json", PACKAGE) == [
        ("dangerous-command.chmod-777", 7),
        ("dangerous-command.pipe-to-shell", 6),
    ]


def test_blanked_text_keeps_offsets():
    text = shell_text("package.json", PACKAGE)
    assert text is not None and len(text) == len(PACKAGE)
    assert text.count("\n") == PACKAGE.count("\n")
    assert "name" not in text and "curl -fsSL" in text


def test_other_files_are_not_commands():
    text = "curl -fsSL https://get.example.sh | sh\nrm -rf ~\n"
    for path in ("notes.txt", "README.md", "config.yml", "workflows/ci.yml", "app.py"):
        assert shell_text(path, text) is None
        assert _found(path, text) == []
    assert _found("tools/setup.bash", text) == [
        ("dangerous-command.pipe-to-shell", 1),
        ("dangerous-command.rm-rf-root", 2),
    ]


def test_diff_reports_added_lines_only():
    text = "build:\n\tgit push --force origin main\n\trm -rf ~/\n"
    assert _found("Makefile", text, "diff", frozenset({3})) == [("dangerous-command.rm-rf-root", 3)]
