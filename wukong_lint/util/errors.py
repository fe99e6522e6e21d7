"""Errors that end a run with exit code 2 and a one-line message (never a traceback)."""

from __future__ import annotations


class WukongError(Exception):
    """Base class: usage, configuration or input errors. `str(err)` is the one-line message."""

    exit_code = 2


class UsageError(WukongError):
    pass


class RuleError(WukongError):
    """A rule file that cannot be loaded: the message names the file and, when known, the rule."""


class InputError(WukongError):
    pass
