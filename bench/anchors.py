"""Benchmark of `wukong-lint anchors fmt` on a generated anchors file (default 5 MB).

    python bench/anchors.py [--mb 5] [--runs 5] [--keep FILE]

The file (corpora/anchors/anchors_file.py) mixes what real anchors files hold: full-form
anchors (Chinese and English field headings, tables, code fences), compact anchors, type
sections, comments with example anchors, user blocks, shuffled so fmt has to reorder. Prints
the size, the number of anchors, the best and median time of fmt in-process (parse + render +
index) over several runs, the time of the whole command (`anchors fmt --check`, interpreter
start-up included), and checks that the result is idempotent. Target: <= 1 s for 5 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from wukong_lint.anchors.ops import fmt_file_text

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the bench folder: corpora
from corpora.anchors.anchors_file import generate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", metavar="FILE", help="also write the generated file here")
    args = parser.parse_args()
    text = generate(int(args.mb * 1024 * 1024))
    size = len(text.encode())
    times = []
    result = None
    for _ in range(args.runs):
        start = time.perf_counter()
        result = fmt_file_text("anchors.md", text, False)
        times.append(time.perf_counter() - start)
    assert result is not None and result.ok, result and result.refused
    again = fmt_file_text("anchors.md", result.text, False)
    from wukong_lint.anchors.parse import parse

    anchors = len(parse(text).anchors)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "anchors.md")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(result.text)
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "wukong_lint", "anchors", "fmt", "--check", path],
            capture_output=True,
            check=False,
        )
        command = time.perf_counter() - start
        if args.keep:
            with open(args.keep, "w", encoding="utf-8") as handle:
                handle.write(text)
    print(f"anchors file            {size / 1e6:.2f} MB, {anchors} anchors")
    best, median = min(times), statistics.median(times)
    print(f"fmt in-process          best {best:.3f} s, median {median:.3f} s"
          f" ({args.runs} runs; target <= 1 s)")  # fmt: skip
    print(f"anchors fmt --check     {command:.3f} s (whole command, formatted file, exit "
          f"{proc.returncode})")  # fmt: skip
    print(f"idempotent              {again.text == result.text}")
    return 0 if again.text == result.text and proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
