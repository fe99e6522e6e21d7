"""The error classes of 戒 (seed 004): a failed tool result or an API error message is
classified by its text; the class is counted in `stats.tool_errors`."""

from __future__ import annotations

import re

ERROR_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "edit-failure",
        re.compile(
            r"string to replace not found|old_?string not found|oldstring not found|"
            r"found \d+ matches of the string to replace|found multiple times|"
            r"no changes to make|file has not been read yet|modified since (it was )?read",
            re.I,
        ),
    ),
    (
        "context-exceeded",
        re.compile(
            r"prompt is too long|token limit|context[ _]length|context window|"
            r"maximum context|too many tokens|context_length_exceeded",
            re.I,
        ),
    ),
    (
        "permission-denied",
        re.compile(
            r"EACCES|EPERM|permission denied|operation not permitted|"
            r"doesn't want to proceed|was rejected|requires approval|not allowed",
            re.I,
        ),
    ),
    (
        "file-not-found",
        re.compile(
            r"ENOENT|no such file|file does not exist|file not found|path does not exist|"
            r"does not exist",
            re.I,
        ),
    ),
)


def classify_error(text: str) -> str | None:
    head = text[:4000]
    for name, pattern in ERROR_CLASSES:
        if pattern.search(head):
            return name
    return None
