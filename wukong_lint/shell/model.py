"""What the shell model of a command line is made of (shell/parse.py walks the syntax tree
into these): the `Command`s that would run, the `Function`s defined, the `Script` of a text;
the tree-sitter-bash parser; and what a pipeline stage hands the next one (`_Producer`: what it
prints, `_dumped`: the environment it dumps, `_fed`: the words of its substitutions)."""

from __future__ import annotations

import functools
import os
import re
from typing import Any, NamedTuple

from wukong_lint.shell.path_reasoning import ENVIRON

_PARSER: Any = None
MAX_PRODUCER_WORDS = 256

WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", ">&"})
_PRINTERS = frozenset({"echo", "printf"})
_ENV_PRINTERS = frozenset({"env", "printenv", "set", "export", "declare", "typeset"})
_DELETERS = frozenset({"rm", "unlink", "shred"})


class Command(NamedTuple):
    argv: tuple[str, ...]  # unquoted words, argv[0] as written
    start: int  # span in the text given to parse()
    end: int
    redirects: tuple[tuple[str, str], ...] = ()  # (operator, target)
    stdin_from: tuple[str, ...] = ()  # programs of earlier stages of its pipeline
    substitutions: tuple[str, ...] = ()  # programs run by $(...), `...`, <(...) in its words
    via: tuple[str, ...] = ()  # wrappers it runs under, outermost first
    heredoc: str | None = None  # its stdin when known: heredoc, here-string, `echo X |`
    cwd: str = "."  # the folder it runs in: "." the project root, "?" unknown, or a path word
    stdin_args: tuple[str, ...] = ()  # the words of the earlier stages of its pipeline
    # what the line does not tell of it, each "kind:what" (kind `program`: the program word,
    # `code`: the script or code a shell or interpreter runs): see shell/unknown.py
    unknown: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return program_name(self.argv[0]) if self.argv else ""


class Function(NamedTuple):
    name: str
    start: int
    end: int
    calls_itself: bool  # its body pipes into itself or runs itself in the background


class Script(NamedTuple):
    commands: tuple[Command, ...]
    functions: tuple[Function, ...]
    error: bool = False  # the text does not parse as shell, or was not walked whole
    partial: bool = False  # a huge text whose walk stopped early (see shell_pieces.py)
    deep: bool = False  # nested deeper than the walk follows: read flat, or not followed


@functools.lru_cache(maxsize=4096)
def program_name(word: str) -> str:
    """The program a command word names, as the rules name it: its base name (a Windows path
    too), in lower case and without a Windows executable suffix. `RM -rf /` runs rm on a
    case-insensitive file system (macOS, Windows), and `C:/…/git.exe` is git."""
    name = os.path.basename(word.rstrip("/")) or word
    if "\\" in name:
        name = name.rstrip("\\").rsplit("\\", 1)[-1] or name
    name = name.lower()
    for suffix in _WINDOWS_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


_WINDOWS_SUFFIXES = (".exe", ".cmd", ".bat", ".com")


@functools.lru_cache(maxsize=256)
def _tree(source: bytes) -> Any:
    """The syntax tree of a nested script (trees are read-only: a script repeats its
    `bash -c` and `ssh host` strings)."""
    return parse_source(source)


# tree-sitter-bash 0.25 crashes the process (a segmentation fault or bus error, not an
# exception) on some inputs with characters outside the BMP, found by fuzzing: `{` before an
# unassigned, tag or private-use character, or an open quote whose last character before a
# form feed ending the text is outside the BMP. Parsed as they are, a hostile command would
# end the live hook (an unjudged call) or a scan. Both are made harmless without moving a
# byte: every character outside the BMP reads as U+20000 (also 4 bytes in UTF-8, a letter;
# to bash all of them are plain word characters, so the tree has the same shape), and a form
# feed that ends the text gets a newline after it. 240,000 random texts of every plane then
# parsed without a crash (tests/test_shell_crash.py keeps the inputs that crashed).
_HIGH_PLANES = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")
_STAND_IN = "\U00020000".encode()


def parse_source(source: bytes) -> Any:
    """The syntax tree of `source` (UTF-8), parsed so that no input can crash the parser."""
    if _HIGH_PLANES.search(source) is not None:
        source = _HIGH_PLANES.sub(_STAND_IN, source)
    if source.endswith(b"\x0c"):
        source += b"\n"
    return _parser().parse(source)


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        import tree_sitter

        from wukong_lint.util.extensions import load_extension

        # the grammar's extension alone: the package's __init__ imports importlib.resources
        binding = load_extension("tree_sitter_bash", "_binding")
        if binding is None:
            import tree_sitter_bash as binding  # type: ignore[no-redef]
        _PARSER = tree_sitter.Parser(tree_sitter.Language(binding.language()))
    return _PARSER


class _Producer(NamedTuple):
    argv: tuple[str, ...]
    text: str | None  # what it writes, when literal
    words: tuple[str, ...]  # the words of every stage up to it


def _printed(command: Command) -> str | None:
    """What a pipeline stage writes, when its words say it literally: `echo ...`,
    `printf ...` (formats and escapes read, shell/printf.py), `cat <<EOF ... EOF`."""
    name = command.name
    if name in _PRINTERS:
        from wukong_lint.shell.printf import printed

        return printed((name, *command.argv[1:]))  # (an unknown value stays as written)
    if name == "cat" and command.heredoc is not None and len(command.argv) == 1:
        return command.heredoc
    return None


def _dumped(command: Command) -> tuple[str, ...]:
    """What a pipeline stage reads besides its path words: the environment (its tokens and
    keys) for `env`, `printenv`, `set`, `export -p`, `declare -x`... (`env | curl -d @- ...`
    sends them away)."""
    name = command.name
    if name not in _ENV_PRINTERS:
        return ()
    args = command.argv[1:]
    if name == "env":  # env alone prints; `env X=1 cmd` runs cmd (recorded on its own)
        if any(not a.startswith("-") for a in args):
            return ()
    elif name in ("export", "declare", "typeset", "readonly"):
        if any(not a.startswith("-") for a in args) or (
            args and "p" not in "".join(args) and "x" not in "".join(args)
        ):
            return ()
    elif name == "set" and args:
        return ()
    return (ENVIRON,)


def _fed(commands: list[Command]) -> tuple[str, ...]:
    """The words of the commands run inside a command's substitutions (and the environment
    when one of them prints it)."""
    words: list[str] = []
    for command in commands[:16]:
        words += command.argv[1:MAX_PRODUCER_WORDS]
        words += _dumped(command)
    return tuple(words[:MAX_PRODUCER_WORDS])


def _has_glob(word: str) -> bool:
    return any(c in word for c in "*?[")


def _replace(argv: tuple[str, ...], token: str, targets: list[str]) -> tuple[str, ...]:
    """`{}` (or xargs -I's string) in a command's words replaced by the targets."""
    out: list[str] = []
    for word in argv:
        if word == token:
            out += targets
        elif token and token in word:
            out += [word.replace(token, t) for t in targets[:4]]
        else:
            out.append(word)
    return tuple(out)
