"""A known crash, not yet fixed: the shell parser (tree-sitter with tree-sitter-bash, as the
package loads it) dies with a segmentation fault on this 8-byte command (found by the
statement-selection fuzz test). In the live hook that is a call that runs unjudged. The parse
runs in a child process so that the crash fails only this test, never the test worker; it is
marked xfail until the parse is guarded (a child process, or a pre-check of the input)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CRASHER = "b'\\xc3\\x91{\\xf3\\x98\\x9c\\xb7\\x0c'"


@pytest.mark.xfail(
    reason="tree-sitter-bash segfaults on this input (issue 26 follow-up)", strict=False
)
def test_the_crashing_input_parses_and_is_judged() -> None:
    program = (
        "from wukong_lint.shell.parse import parse_script\n"
        f"text = {CRASHER}.decode('utf-8')\n"
        "parse_script(text); print('parsed')\n"
    )
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert proc.returncode == 0 and "parsed" in proc.stdout, (proc.returncode, proc.stderr)
