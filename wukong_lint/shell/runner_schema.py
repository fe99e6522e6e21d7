"""The schema of the code-runner registry (shell/runners.yaml), checked when runners.json is
made from it and by the tests; never imported at run time (shell/runners.py reads the JSON),
so that the hook does not pay for pydantic or YAML."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

How = Literal[
    "wrapper",
    "options",
    "script",
    "shell",
    "interpreter",
    "windows",
    "applet",
    "rm-like",
    "find",
    "xargs",
    "parallel",
    "git",
    "container",
    "make",
    "just",
    "packages",
    "none",
]
# the languages shell/interpreters.py and shell/runner_langs.py read
Language = Literal[
    "python", "node", "perl", "ruby", "php", "lua", "r", "julia", "awk", "sed", "vim", "ed",
    "elisp", "gdb", "tcl", "applescript",
]  # fmt: skip


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Examples(_Strict):
    # (a command line, one command it runs: compared word by word)
    runs: list[tuple[str, str]] = Field(default_factory=list)
    none: list[str] = Field(default_factory=list)  # command lines that run nothing more


class GitConfig(_Strict):
    keys: str  # a regex on the lower-cased key
    strip: str = ""  # a value starting with this is a shell script (`!cmd`)
    # what a value without `strip` is: a script (default), git's own words (an alias), a
    # credential helper's name (`store`: nothing of ours)
    otherwise: Literal["script", "git", "helper"] = "script"

    @field_validator("keys")
    @classmethod
    def _regex(cls, value: str) -> str:
        re.compile(value)
        return value


class Spec(_Strict):
    how: How
    language: Language | None = None
    value_options: list[str] = Field(default_factory=list)
    script_options: list[str] = Field(default_factory=list)
    code_options: list[str] = Field(default_factory=list)
    file_options: list[str] = Field(default_factory=list)
    lookup_options: list[str] = Field(default_factory=list)
    # options naming the folder its command runs in (`env -C DIR`, `sudo -D DIR`)
    chdir_options: list[str] = Field(default_factory=list)
    exec_options: list[str] = Field(default_factory=list)
    encoded_options: list[str] = Field(default_factory=list)
    key_options: dict[str, list[str]] = Field(default_factory=dict)
    strip: list[str] = Field(default_factory=list)
    only_stripped: list[str] = Field(default_factory=list)
    skip: int = Field(default=0, ge=0, le=4)
    assignments: bool = False
    script_anywhere: bool = False  # its script options may follow its positional words
    groups: list[str] = Field(default_factory=list)  # `coproc [NAME] {`: openers dropped
    first: bool = False
    keys: bool = False
    source: bool = False
    bundles: bool = True
    code_arg: bool = False
    data_args: bool = False  # its positional words are files it edits (ed): code on stdin
    stdin_code: bool = False
    stdin_code_when: list[str] = Field(default_factory=list)
    stdin_code_names: list[str] = Field(default_factory=list)
    plus_code: bool = False
    module_option: str | None = None
    fresh: bool = False
    service: bool = False
    after_dash: bool = False
    node_root: str | None = None
    subcommands: dict[str, Spec] = Field(default_factory=dict)


class Program(Spec):
    names: list[str] = Field(min_length=1)
    name_regex: str | None = None
    docs: str = ""
    examples: Examples = Examples()
    # git
    config: list[GitConfig] = Field(default_factory=list)
    scripts: dict[str, list[str]] = Field(default_factory=dict)
    hooks: dict[str, list[str]] = Field(default_factory=dict)
    no_verify: list[str] = Field(default_factory=list)
    verified_hooks: list[str] = Field(default_factory=list)
    builtins: list[str] = Field(default_factory=list)
    # containers
    mount_options: list[str] = Field(default_factory=list)
    host_options: list[str] = Field(default_factory=list)
    # find
    runs_options: list[str] = Field(default_factory=list)
    filters: list[str] = Field(default_factory=list)

    @field_validator("name_regex")
    @classmethod
    def _regex(cls, value: str | None) -> str | None:
        if value is not None:
            re.compile(value)
        return value


class Variable(_Strict):
    names: list[str] = Field(min_length=1)
    how: Literal["script", "file"]
    strip: list[str] = Field(default_factory=list)
    docs: str = ""
    examples: Examples = Examples()


class Registry(_Strict):
    option_sets: dict[str, list[str]] = Field(default_factory=dict)
    programs: list[Program]
    environment: list[Variable] = Field(default_factory=list)
