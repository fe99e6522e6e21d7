"""The commit messages of a `--diff` range, as units (path `(commit message)`), like
`--history` scans them: a token pasted into a pull request's commit message is merged with
it and stays in the history, so a range scan that skipped messages passed it in silence."""

from __future__ import annotations

from collections.abc import Iterator

from wukong_lint.model import Unit
from wukong_lint.sources.git import run_git
from wukong_lint.sources.history import _message_unit

BATCH = 500  # commits per `git log` (command-line length)


def message_units(shas: list[str], cwd: str | None = None) -> Iterator[Unit]:
    for start in range(0, len(shas), BATCH):
        batch = shas[start : start + BATCH]
        # NUL after the id and after the body: a body holds any other byte
        out = run_git(["log", "--no-walk=unsorted", "--format=%H%x00%B%x00", *batch, "--"], cwd)
        parts = out.split(b"\0")
        for index in range(0, len(parts) - 1, 2):
            sha = parts[index].strip().decode("ascii", "replace")
            unit = _message_unit(sha, [parts[index + 1]])
            if unit is not None:
                yield unit
