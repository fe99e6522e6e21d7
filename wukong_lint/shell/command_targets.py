"""The conditions of `command` rule blocks that read where a command's paths point, and
what a finding says the command is.

`Where` is what a unit's commands are judged against: its project (a transcript's or hook
event's `cwd`; unknown in a file scan) and whether its commands build a container image (a
Dockerfile, whose system folders are the image's). `describe` names the command that runs
for a finding's message, without the words that may hold values.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from wukong_lint.shell.parse import WRITE_REDIRECTS, Command, split_options
from wukong_lint.shell.path_reasoning import (
    ARGUMENT,
    STDIN,
    UNDER,
    classify,
    expand_braces,
    resolve,
    secret_name,
)
from wukong_lint.shell.unwrap import find_parts


def _split(argv: tuple[str, ...], value_options: list[str]) -> tuple[list[str], list[str]]:
    return split_options(argv, frozenset(value_options))


def _stdin_paths(command: Command) -> list[str]:
    """Path words read into a command: those of its pipeline's earlier stages, and its
    `<` redirection."""
    found = [op_target for op, op_target in command.redirects if op == "<"]
    found += [
        word
        for word in command.stdin_args
        if not word.startswith("-")
        and ("/" in word or word.startswith(("~", "$")) or secret_name(word))
    ]
    return found


def _targets(block: dict[str, Any], positional: list[str]) -> list[str]:
    at = block.get("targets_at", "all")
    if at == "last":
        return positional[-1:] if len(positional) > 1 else []
    if at == "after_first":
        return positional[1:]
    if at == "first":
        return positional[:1]
    return positional


def _targets_match(
    block: dict[str, Any], positional: list[str], command: Command, where: Where
) -> bool:
    words = _targets(block, positional) + [
        value
        for option in _split(command.argv, block["value_options"])[0]
        if option.startswith("--") and "=" in option
        for value in [option.split("=", 1)[1]]
        if value.startswith(("/", "~", "$", "@", "."))
    ]
    if command.name in _FINDS:
        words = _find_reach(command, words, where)
    elif not words and command.name == "git" and command.argv[1:2] == ("clean",):
        words = ["."]  # (`cd ~ && git clean -fdx`: no path is the folder it runs in)
    classes = [where.classify(one, command.cwd) for word in words for one in expand_braces(word)]
    if not classes:
        return False
    wanted, unwanted = block.get("targets_any"), block.get("targets_none")
    if wanted and not any(c in wanted for c in classes):
        return False
    return not (unwanted and any(c in unwanted for c in classes))


_FINDS = frozenset(["find", "gfind", "bfs"])


def _find_reach(command: Command, words: list[str], where: Where) -> list[str]:
    """A find's start paths, but those whose `-name`/`-path` test selects only build output
    under them (`find . -name '*.pyc'`): what it reaches, disposable (issue 31)."""
    parts = find_parts(command.argv[1:])
    if not (parts.filtered and parts.name):
        return words
    out = []
    for word in words:
        reach = word.rstrip("/") + UNDER + parts.name if word in parts.starts else word
        disposable = reach != word and where.classify(reach, command.cwd) == "disposable"
        out.append(reach if disposable else word)
    return out


def _sources_match(block: dict[str, Any], positional: list[str], command: Command, where: Where
                   ) -> bool:  # fmt: skip
    """A source of the move or copy (a positional argument but the last) points where the
    block's `sources_any` says."""
    wanted = block["sources_any"]
    return any(
        where.classify(one, command.cwd) in wanted
        for word in positional[:-1]
        for one in expand_braces(word)
    )


class Where(NamedTuple):
    """What a command's paths are judged against: the project root (a transcript's `cwd`;
    None in a file scan), whether the commands run in a container image being built (a
    Dockerfile: its system folders are the image's), and the files that earlier commands of
    the line created (`touch f && rm f`: deleting them loses nothing of the user's)."""

    root: str | None = None
    container: bool = False
    made: frozenset[str] = frozenset()

    def classify(self, word: str, cwd: str) -> str:
        if self.made and resolve(word, cwd, self.root) in self.made:
            return "temp"  # made by this very line: nothing of the user's is in it
        found = classify(word, cwd, self.root)
        if (
            self.container
            and found in _CONTAINER_CLASSES
            and (found != "system" or _depth(word) > 1)
        ):
            return "container"
        return found


# Commands that create the files they name (a `touch` of a file that exists only updates its
# time, and `touch f && rm f` then deletes it: the line says the file is its own scratch file;
# `mkdir` without -p fails on a folder that exists). A `>` empties its file first: deleting it
# afterwards loses nothing more.
_MAKERS = {"touch": ("-c", "--no-create"), "mkdir": ("-p", "--parents")}
_EMPTYING = frozenset([">", ">|", "&>"])


def made_files(commands: Any, where: Where) -> list[tuple[int, str]]:
    """(end offset, resolved path) of the files the commands of a line create."""
    found: list[tuple[int, str]] = []
    for command in commands:
        refused = _MAKERS.get(command.name)
        targets: list[str] = [t for op, t in command.redirects if op in _EMPTYING]
        if refused is not None and not any(o in refused for o in command.argv[1:]):
            targets += [w for w in command.argv[1:] if not w.startswith("-")]
        for target in targets[:64]:
            path = resolve(target, command.cwd, where.root)
            if path is not None and UNDER not in target and not any(c in target for c in "*?["):
                found.append((command.end, path))
    return found


class Before:
    """`where` with the files made by the commands that ended before a command starts, for
    each command of a script in turn, without going over every file made for every command
    (a 100 KB build script: 4,000 commands and some hundred files made,
    0.4 million steps): the files made, ordered by where their commands end, and the
    `Where` of each count of them, made once."""

    def __init__(self, where: Where, made: list[tuple[int, str]]) -> None:
        self.where = where
        ordered = sorted(made)
        self.ends = [end for end, _ in ordered]
        self.paths = [path for _, path in ordered]
        self.known: dict[int, Where] = {0: where}

    def at(self, command: Command) -> Where:
        from bisect import bisect_right

        count = bisect_right(self.ends, command.start)
        found = self.known.get(count)
        if found is None:
            found = self.known[count] = self.where._replace(made=frozenset(self.paths[:count]))
        return found


_CONTAINER_CLASSES = frozenset(["system", "outside", "home-child", "cache"])
_NOWHERE = Where()


def _depth(word: str) -> int:
    return len([p for p in word.split("/") if p and p not in (".", "*")])


_HELP = frozenset(["--help", "-help"])
_DRY_RUN = ("--dry-run", "--dry_run", "--dryrun", "--preview-only", "--what-if", "--simulate",
            "--no-act", "--just-print")  # fmt: skip
_FILE_PROGRAMS = frozenset(["rm", "unlink", "shred", "rmdir", "mv", "cp", "truncate"])


def dry_run(options: list[str] | tuple[str, ...]) -> bool:
    """Do a command's options make it only describe what it would do (`--dry-run`)? The
    last of a dry run and its negation wins (`git clean --dry-run --no-dry-run -f` deletes)."""
    found = False
    for option in options:
        if option.startswith(_DRY_RUN):
            found = True
        elif option in ("--no-dry-run", "--no-dry_run", "--no-dryrun"):
            found = False
    return found


# Unicode dashes that read as `-` to a person (and to PowerShell, which takes en and em
# dashes as a parameter's dash): `git reset ‐‐hard` is judged as `--hard`.
DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")


def ascii_dashes(word: str) -> str:
    if word[:1] not in DASHES:
        return word
    end = 0
    while end < len(word) and word[end] in DASHES:
        end += 1
    return "-" * end + word[end:]


@functools.cache
def _describe_rx(pattern: str) -> re.Pattern[str]:
    from wukong_lint.util.re_snapshot import compile_static  # (a rule's pattern)

    return compile_static(pattern, re.S)  # type: ignore[no-any-return]


def describe(command: Command, block: dict[str, Any] | None = None,
             where: Where | None = None) -> str:  # fmt: skip
    """The command that runs, for a finding's message, in its own order: its program, its
    flags (without attached values), its subcommand (or the program a wrapper runs) and, for
    a block about paths, its path arguments; never other words (they may hold values). A
    finding on what the line does not tell says first, in one line, what could not be
    resolved (`cannot tell what `$x` runs`)."""
    runs = _describe(command, block)
    unknown = _unresolved(command, block, where) if block else ""
    return f"{unknown}; {runs}" if unknown else runs


def _unresolved(command: Command, block: dict[str, Any], where: Where | None) -> str:
    """What the line does not tell that the block's finding rests on, in one line."""
    said: list[str] = []
    wanted = block.get("unresolved") or ()
    for entry in command.unknown:
        kind, _, what = entry.partition(":")
        if kind not in wanted:
            continue
        what = _shown(what)
        if kind == "program":
            said.append(f"cannot tell what `{what}` runs")
        elif kind == "code" and what == "its stdin":
            said.append(f"cannot see the code `{command.name}` reads from its stdin")
        elif kind == "code":
            said.append(f"cannot tell what code `{what}` holds")
    if "unknown" in (block.get("targets_any") or ()):
        _, positional = _split(command.argv, block["value_options"])
        if block["subcommand"]:
            positional = positional[1:]
        for word in _targets(block, positional):
            if (where or _NOWHERE).classify(word, command.cwd) == "unknown":
                if not word.startswith(("/", "~", "$")) and _unknown_folder(command.cwd):
                    folder = "" if command.cwd == "?" else f" (`cd {_shown(command.cwd)}`)"
                    said.append(f"cannot tell which folder `{_shown(word)}` is in{folder}")
                else:
                    said.append(f"cannot tell what `{_shown(word)}` names")
                break
    return "; ".join(said[:2])


def _unknown_folder(cwd: str) -> bool:
    return cwd == "?" or "$" in cwd or "`" in cwd


def _shown(word: str) -> str:
    """A word as a finding shows it: short, without the model's stand-ins."""
    word = word.replace(STDIN, "(stdin)").replace(UNDER, "/…").replace(ARGUMENT, "$N")
    word = word.replace("\0", "")
    return word if len(word) <= 60 else word[:57] + "…"


def _describe(command: Command, block: dict[str, Any] | None = None) -> str:
    _, positional = _split(command.argv, block["value_options"] if block else [])
    lead = positional[0] if positional else None
    shows_lead = lead is not None and (
        (block is not None and bool(block["subcommand"])) or command.name in _WRAPPERS_SHOWN
    )
    paths: set[str] = set()
    if block and (
        block.get("targets_any") or block.get("min_args") or command.name in _FILE_PROGRAMS
    ):
        paths = set(_targets(block, positional[1:] if block["subcommand"] else positional))
    shown = [command.name]
    for word in command.argv[1:]:
        if len(shown) >= 8:
            shown.append("…")
            break
        if _describe_rx(_FLAG).fullmatch(word):
            shown.append(word.split("=", 1)[0])
        elif word == lead and shows_lead and _describe_rx(_WORD).fullmatch(word):
            shown.append(word)
            shows_lead = False
        elif word in paths:
            shown.append(_shown(word))
    if block and block.get("redirect_targets_any"):
        shown += [f"{op} {t[:60]}" for op, t in command.redirects if op in WRITE_REDIRECTS][:2]
    text = " ".join(shown)
    if command.via:
        text += " via " + " → ".join(command.via)
    if command.cwd not in (".", "?") and paths:
        text += f" in {command.cwd[:60]}"
    return "runs `" + text.replace("\0", "") + "`"


_FLAG = r"-[A-Za-z0-9]{1,4}|--[a-z][a-z0-9-]*(=.*)?"  # (compiled on the first hit)
_WORD = r"[A-Za-z0-9_.:/+-]{1,30}"
_WRAPPERS_SHOWN = frozenset(["sudo", "doas", "su", "pkexec", "runas", "xargs", "parallel", "env"])
