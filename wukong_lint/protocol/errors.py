"""The error classes of 戒 (seed 004): a failed tool result or an API error message is
classified by its text; the six classes of the seed's table are counted in
`stats.tool_errors`, the session-level thinking-block error is reported on its own.

`matched_pattern` names what matched, for the finding's note (the seed's 错误恢复输出格式:
error class, matched pattern, recovery strategy): the alternatives are fixed phrases, so the
note never carries text of the transcript beyond them."""

from __future__ import annotations

import re

ERROR_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        # Claude API: "Expected `thinking` or `redacted_thinking`, but found `text`"
        "thinking-block-error",
        re.compile(
            r"expected `?thinking`? or `?redacted_thinking`?|thinking block|"
            r"invalid `?signature`? in `?thinking`?",
            re.I,
        ),
    ),
    (
        "edit-failure",
        re.compile(
            r"string to replace not found|old_?string not found|oldstring not found|"
            r"found \d+ matches of the string to replace|found multiple times|"
            r"no changes to make|file has not been read yet|modified since (it was )?read|"
            r"oldstring and newstring must be different|"  # OpenCode
            r"old_string and new_string (?:are|must be) "
            r"(?:exactly )?(?:the same|identical|different)",
            re.I,
        ),
    ),
    (
        "context-exceeded",
        re.compile(
            r"prompt is too long|prompt too long|token limit|context[ _]length|context window|"
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


def matched_pattern(problem: str, text: str) -> str | None:
    """The words of `text` that put it in the error class `problem` (None: not a class)."""
    for name, pattern in ERROR_CLASSES:
        if name == problem:
            found = pattern.search(text[:4000])
            return found.group(0)[:80] if found else None
    return None
