"""The YAML schema of `command` rules (validated when rule files change; kept apart from the
matcher so that running command rules on the pre-commit path never imports pydantic)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from wukong_lint.engine.schema import RuleBase

PathClass = Literal[
    "root",
    "home",
    "home-child",
    "credential",
    "secret",
    "system",
    "device",
    "outside",
    "project-root",
    "git-dir",
    "project",
    "disposable",
    "temp",
    "cache",
    "unknown",
    "argument",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_regexes(values: list[str]) -> list[str]:
    for value in values:
        try:
            re.compile(value)
        except re.error as err:
            raise ValueError(f"bad regex {value!r}: {err}") from None
    return values


class Block(_Strict):
    program: list[str] = Field(default_factory=list)
    subcommand: list[str] = Field(default_factory=list)
    # options of the program that take a value (so it is not taken for the subcommand)
    value_options: list[str] = Field(default_factory=list)
    flags_any: list[str] = Field(default_factory=list)
    flags_all: list[list[str]] = Field(default_factory=list)
    flags_none: list[str] = Field(default_factory=list)
    args_any: list[str] = Field(default_factory=list)
    args_none: list[str] = Field(default_factory=list)
    stdin_from: list[str] = Field(default_factory=list)
    substitution_from: list[str] = Field(default_factory=list)
    redirect_to: list[str] = Field(default_factory=list)
    via: list[str] = Field(default_factory=list)
    recursive_function: bool = False
    # words of which one appears in every statement this block can match, once its quotes
    # and backslashes are removed: a long script's other statements are not walked. Only
    # needed when no program name does that job (a block for any program, say).
    words: list[str] = Field(default_factory=list)
    # short options may be bundled (-rf); off for programs like find (-name)
    bundles: bool = True
    # where the command's path arguments point (path_reasoning.py classes: root, home,
    # home-child, credential, secret, system, device, outside, project-root, git-dir, project,
    # disposable, temp, cache, unknown), judged from the folder it runs in and the project
    targets_any: list[PathClass] = Field(default_factory=list)
    targets_none: list[PathClass] = Field(default_factory=list)
    # which positional arguments are paths: all, the last (cp's destination), all but the
    # first (chmod's mode, chown's owner), the first (find's start folder)
    targets_at: Literal["all", "last", "after_first", "first"] = "all"
    # where the sources of a move or copy point (its positional arguments but the last):
    # `mv src /tmp/` moves project files into a temporary folder
    sources_any: list[PathClass] = Field(default_factory=list)
    # the class of a file a `>`/`>>` redirection writes
    redirect_targets_any: list[PathClass] = Field(default_factory=list)
    # the class of a path word of an earlier pipeline stage (`cat ~/.ssh/id_rsa | curl ...`)
    stdin_targets_any: list[PathClass] = Field(default_factory=list)
    # regexes searched in its arguments and its stdin when known (heredoc, here-string,
    # `echo ... |`): SQL statements, say
    text_any: list[str] = Field(default_factory=list)
    # an HTTP client's request (shell/http_requests.py: curl, wget, HTTPie, xh): its method
    # is one of these, and (when given) its URL's path and query match one of these regexes
    http_methods: list[str] = Field(default_factory=list)
    http_paths_any: list[str] = Field(default_factory=list)
    # the words hold `--` followed by more words (`git checkout -- file`: paths follow)
    double_dash: bool = False
    # at least this many positional arguments (a change to many files at once)
    min_args: int = 0
    # the command line does not parse as shell (or could not be walked whole)
    parse_error: bool = False
    # a huge command line whose walk stopped early (shell/pieces.py)
    partial: bool = False
    # what the line does not tell of the command (shell/unknown.py): its program
    # (`program`: `$x`, `"${a[@]}"`, `$(cat f)`), the code a shell or interpreter reads
    # (`code`: `some-tool | sh`, `python3 -c "$C"`)
    unresolved: list[Literal["program", "code"]] = Field(default_factory=list)
    # not a hit when every program its substitutions run is one of these (tools that print
    # shell set-up code: `eval "$(ssh-agent -s)"`, `eval "$(pyenv init -)"`)
    except_substitutions: list[str] = Field(default_factory=list)
    # the command line nests deeper than the walk follows (read flat, or not at all)
    too_deep: bool = False
    # regexes searched in the words of its pipeline's earlier stages (`printf '\x72...' |`)
    stdin_words_any: list[str] = Field(default_factory=list)
    # more words that select a long script's statement for this block (the functions of an
    # interpreter one-liner that delete files, say)
    selected_by: list[str] = Field(default_factory=list)
    # it sends a secret value (shell/secret_values.py): a provider's credential to a host
    # not the provider's (`foreign`), a variable named for a secret outside an auth header or
    # to a host the line does not give (`named`), either (`any`), or a secret variable in its
    # words wherever it goes (`words`: `echo $GITHUB_TOKEN` prints it)
    secret_values: Literal["foreign", "named", "any", "words"] | None = None

    _regexes = field_validator(
        "args_any", "args_none", "redirect_to", "text_any", "http_paths_any", "stdin_words_any"
    )(_check_regexes)


class Scope(_Strict):
    agent: Literal["any", "main", "sub"] = "any"
    profiles: list[Literal["generic", "wukong"]] = Field(default_factory=list)


class CommandRule(RuleBase):
    kind: Literal["command"]
    match: list[Block] = Field(min_length=1)
    scope: Scope = Scope()
