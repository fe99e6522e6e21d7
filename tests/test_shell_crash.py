"""Inputs on which the shell parser (tree-sitter 0.25 with tree-sitter-bash 0.25) crashed
the whole process with a segmentation fault or bus error, found by fuzzing; in the live hook
that was a call that ran unjudged. shell/model.py's parse_source reads them without a crash
and with the same tree shape. Each parse runs in a child process, several times (the crash
was nondeterministic), so that a regression fails this test, never the test worker."""

from __future__ import annotations

import subprocess
import sys

import pytest

# (each crashed unguarded in most of a few runs: a character outside the BMP after `{`, or
# an open quote, such a character and a form feed ending the text)
CRASHERS = [
    "\u00d1{\U000f8737\x0c",
    "{\U000f0000{<\U0001f600\u00d1;;",
    "{[;{}{\U000f0000",
    "\U00107831{\U00032961'\U000360ca=",
    "'\U0001f600\x0c",
    "echo {\U000e0041}",
]


@pytest.mark.parametrize("text", CRASHERS, ids=range(len(CRASHERS)))
def test_inputs_that_crashed_the_parser_parse(text: str) -> None:
    program = (
        "import sys\n"
        "from wukong_lint.shell.parse import parse_script\n"
        "from wukong_lint.shell.model import parse_source\n"
        f"text = {text!r}\n"
        "for _ in range(20):\n"
        "    parse_source(text.encode('utf-8'))\n"
        "    script = parse_script(text)\n"
        "print('parsed', len(script.commands))\n"
    )
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert proc.returncode == 0 and "parsed" in proc.stdout, (proc.returncode, proc.stderr)


def test_the_stand_in_keeps_every_offset_and_the_words_shape() -> None:
    from wukong_lint.shell.parse import parse_script

    script = parse_script("git commit -m '\U0001f389 init' && rm -rf \U000e0041/tmp")
    assert [c.argv[0] for c in script.commands] == ["git", "rm"]
    assert script.commands[1].start == len("git commit -m '\U0001f389 init' && ")
    assert script.commands[1].end == len(script.commands[1].argv[-1]) + 33
    assert script.commands[1].argv[:2] == ("rm", "-rf")
