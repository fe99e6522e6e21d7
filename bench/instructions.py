"""Instructions a transcript scan executes, counted by valgrind's callgrind: a steady figure
for small speed changes where a shared machine's wall clock moves 5 % from run to run.

    python bench/instructions.py [--session FILE] [--profile wukong] [--mb 5] [--mode full]

The scan runs in one process (`scan.tally` over the session's units, as `--jobs 1`) on the
first MB and on the first 2 x MB of the session, cut on line ends; the difference is what the
second MB cost, without start-up, rule loading and first-use work (imports, memos). `--mode
read` only makes the units (no rule set), `--mode follow` only follows the session state (what
a worker does before its part). Hash randomisation is off and the rule cache is warmed first,
so two runs of the same code agree to ~0.1 %. valgrind must be installed (not a dependency:
a tool for development, like py-spy).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The measured program: the scan of a file in one process, rules loaded before (not counted
# apart: the difference of two runs removes them).
_PROGRAM = """
import sys
from wukong_lint import cli
from wukong_lint.cli import common
from wukong_lint.engine import scan
from wukong_lint.sources import transcripts
from wukong_lint.sources.dispatch import units_for_files
profile, path, mode = sys.argv[1:4]
args = cli._build_parser("check").parse_args(["check", "--profile", profile, path])
transcripts.configure(profile, None, None)
ruleset = common.build_ruleset(args, common.load_config(args), details=False)
if mode == "read":
    sum(1 for _ in units_for_files([(path, path)]))
elif mode == "follow":
    from wukong_lint.model.events import Context
    from wukong_lint.sources.transcripts.session import Part, Session
    state = Session(path, Context(profile, False, {}, None)).snapshot()
    part = Part("claude", path, path, __import__("os").path.getsize(path), -1, state, False)
    sum(1 for _ in transcripts.part_units(part))
else:
    scan.tally(ruleset, units_for_files([(path, path)]))
"""


def _head(session: str, size: int, out: str) -> None:
    """The first `size` bytes of `session`, cut back to the end of a line."""
    with open(session, "rb") as handle:
        data = handle.read(size)
    with open(out, "wb") as handle:
        handle.write(data[: data.rfind(b"\n") + 1])


def _instructions(program: str, profile: str, path: str, mode: str) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         program, profile, path, mode],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed ({done.returncode}): {done.stderr[-1500:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--session", default=os.path.join(HERE, "out", "transcript-100mb.jsonl"))
    parser.add_argument("--profile", default="wukong")
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--mode", choices=("full", "read", "follow"), default="full")
    opts = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    if not os.path.isfile(opts.session):
        raise SystemExit(f"no session at {opts.session} (python bench/transcripts.py makes it)")
    size = int(opts.mb * 1e6)
    with tempfile.TemporaryDirectory() as folder:
        program = os.path.join(folder, "scan.py")
        with open(program, "w", encoding="utf-8") as handle:
            handle.write(_PROGRAM)
        one, two = os.path.join(folder, "one.jsonl"), os.path.join(folder, "two.jsonl")
        _head(opts.session, size, one)
        _head(opts.session, 2 * size, two)
        # warm the rule cache (a first run after a code change compiles the rules)
        subprocess.run([sys.executable, program, opts.profile, one, "read"], cwd=ROOT,
                       check=True, capture_output=True)  # fmt: skip
        first = _instructions(program, opts.profile, one, opts.mode)
        second = _instructions(program, opts.profile, two, opts.mode)
    print(
        f"{opts.mode}, profile {opts.profile}: {(second - first) / 1e6:.0f} M instructions for "
        f"the session's second {opts.mb:g} MB ({first / 1e6:.0f} M for the first, with start-up)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
