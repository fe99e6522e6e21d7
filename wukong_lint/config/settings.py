"""The effective configuration as a record (`Config`) and the profiles it may name: what
both the config reader (project.py) and its validation (model.py) build on."""

from __future__ import annotations

import os
from typing import Any, NamedTuple

PROFILES = ("generic", "wukong")


class Config(NamedTuple):
    """The effective configuration (defaults when there is no file)."""

    path: str | None = None  # the file it came from
    fail_on: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    rule_dirs: tuple[str, ...] = ()  # absolute
    builtin_rules: bool = True
    rule_params: dict[str, dict[str, Any]] | None = None
    profile: str | None = None
    baseline: str | None = None  # absolute
    allow_comments: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()  # globs relative to the config file: never scanned
    audit: str | None = None  # the hook's audit log: decisions (default) | all | off
    # the 戒 protocol version transcripts are judged by (None / "auto": what each shows)
    protocol_version: str | None = None
    # the 戒 checks the live hook enforces beyond tool calls (hook/live.py), each off unless
    # set: subagent-stop, summons, stop, reminder, compact (bool); redo-limit (int); lang
    live: dict[str, Any] | None = None
    # the live hook's session hygiene (hook/hygiene.py), each off unless set: session-end,
    # stop (bool): the session file the event names is cleaned in place
    hygiene: dict[str, Any] | None = None
    # the managed config's word on approvals of loosening project configs (layers.py):
    # False forbids them; elsewhere the key has no effect
    approvals: bool | None = None

    @property
    def root(self) -> str:
        """The folder that relative paths and globs of the config are relative to."""
        return os.path.dirname(os.path.abspath(self.path)) if self.path else os.getcwd()

    def selection(self, select: list[str], ignore: list[str]) -> tuple[list[str], list[str]]:
        """Merge with the command line: `--select` replaces the config's `select`; `--ignore`
        adds to its `ignore`. (`profile` is the default of `check --profile`.)"""
        return (select or list(self.select)), list(self.ignore) + ignore
