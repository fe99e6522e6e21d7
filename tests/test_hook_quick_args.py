"""`wukong-lint hook` options are read without argparse (once per tool call, ~4 ms): the
namespace must be the one argparse makes, and whatever the quick reader does not take
(abbreviations, bad values, help, a missing value) must reach argparse and its errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from wukong_lint import cli
from wukong_lint.cli.hook import quick_args, run

TAKEN = [
    [],
    ["--mode", "json"],
    ["--mode=exit"],
    ["--mode", "json", "--fail-on", "medium", "--profile", "wukong"],
    ["--on-error", "block", "--mode", "exit", "--mode", "json"],
    ["--select", "dangerous-command", "--select=secret", "--ignore", "secret.generic"],
    ["--rules", "packs/a", "--rules=packs/b", "--config", "conf.yaml"],
    ["--config=", "--profile=generic", "--fail-on=critical"],
    ["--select", "a,b", "--on-error=allow"],
    ["--profile", "wukong", "--checkpoint", "--mode", "json"],
    ["--checkpoint"],
    ["--agent", "claude-code", "--hygiene"],
]
LEFT_TO_ARGPARSE = [
    ["--mode"],  # no value
    ["--mode", "yaml"],  # not a choice
    ["--mode=yaml"],
    ["--mod", "json"],  # an abbreviation argparse accepts
    ["--fail-on", "severe"],
    ["--select", "--mode"],  # an option where a value should be
    ["-h"],
    ["--help"],
    ["extra"],
    ["--", "--mode", "json"],
    ["--unknown", "x"],
    ["--checkpoint=yes"],  # a flag takes no value
]


@pytest.mark.parametrize("words", TAKEN)
def test_the_quick_reader_makes_the_namespace_argparse_makes(words):
    parsed = vars(cli._build_parser("hook").parse_args(["hook", *words]))
    quick = quick_args(words)
    assert quick is not None
    quick = vars(quick)
    assert quick.pop("handler") is run and parsed.pop("handler") is run
    assert quick == parsed


@pytest.mark.parametrize("words", LEFT_TO_ARGPARSE)
def test_what_the_quick_reader_does_not_take_goes_to_argparse(words):
    assert quick_args(words) is None


def test_usage_errors_still_come_from_argparse(capsys):
    assert cli.main(["hook", "--mode", "yaml"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and "yaml" in err


def test_a_hook_run_imports_neither_argparse_nor_typing_helpers_it_does_not_need(tmp_path):
    event = {"session_id": "s", "transcript_path": "/nonexistent/s.jsonl", "cwd": str(tmp_path),
             "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "tool_input": {"command": "git push --force origin main"}}  # fmt: skip
    code = (
        "import io, sys\n"
        "from wukong_lint.cli import main\n"
        "out = io.StringIO(); real = sys.stdout; sys.stdout = out\n"
        "code = main(['hook', '--mode', 'json'])\n"
        "sys.stdout = real\n"
        "print(code, out.getvalue().strip())\n"
        "print([m for m in ('argparse', 'gettext', 'hashlib') if m in sys.modules])\n"
    )
    for _ in range(2):  # (the first run may fill the rule cache: validation imports more)
        proc = subprocess.run([sys.executable, "-c", code], input=json.dumps(event),
                              capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    first, modules = proc.stdout.splitlines()
    exit_code, answer = first.split(" ", 1)
    assert exit_code == "0"
    assert json.loads(answer)["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert modules == "[]"
