"""Every `wukong-lint` command line shown in README.md and docs/*.md parses with the current
CLI parser, so the docs cannot drift from the options the tool has.

A command line is taken from a fenced code block: a line whose command (after a `$ ` prompt
and `VAR=value` prefixes) is `wukong-lint` or `python -m wukong_lint`, also as one stage of
a pipeline or list (`git show HEAD:a.py | wukong-lint check - ...`), joined over `\\` line
continuations, without its trailing `# comment` and its redirections. The `command` of a
JSON hook set-up and the `entry:` of a pre-commit hook count too. Each is parsed, never run:
`parse_args` on the parser `wukong_lint.cli._build_parser()` builds (which raises a one-line
UsageError, or exits through SystemExit, on a bad command line).
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import pytest

from wukong_lint.cli import _build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEST_COMMAND = "pip install -e '.[dev]' && python -m pytest"  # CI runs the README's

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# a hook set-up's `"command": "wukong-lint hook ..."`, a pre-commit hook's `entry: ...`
_EMBEDDED = re.compile(r"""(?:"command"\s*:\s*"|\bentry:\s*)(wukong-lint\b[^"\n]*)""")
# redirections: `>`, `2>`, `>>`, `2>&1`, `&>`, `<` alone (a target follows) or glued to it
_REDIRECT = re.compile(r"^(?:\d*(?:>>?|<)|&>>?)(?:&\d+)?$")
_GLUED_REDIRECT = re.compile(r"^(?:\d*(?:>>?|<)|&>>?)(?:&\d+|\S+)$")
_PLACEHOLDER = re.compile(r"^<[^<>]+>$")  # `<path>` is a word of the docs, not a redirection


class Command(NamedTuple):
    where: str  # page:line
    words: list[str]  # the arguments after `wukong-lint`

    @property
    def text(self) -> str:
        return shlex.join(["wukong-lint", *self.words])


def fenced_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line inside a fenced code block, with `\\` continuations
    joined into the line they start on."""
    found: list[tuple[int, str]] = []
    fence = None
    pending: tuple[int, str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        opening = _FENCE.match(line)
        if fence is None:
            if opening:
                fence = opening.group(1)
            continue
        closing = opening and not line[opening.end() :].strip()
        if closing and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
            if pending:
                found.append(pending)
            fence, pending = None, None
            continue
        if pending:
            number, line = pending[0], pending[1] + line.lstrip()
            pending = None
        stripped = line.rstrip()
        trailing = len(stripped) - len(stripped.rstrip("\\"))
        if trailing % 2:  # an odd number of backslashes: the line goes on
            pending = (number, stripped[:-1] + " ")
            continue
        found.append((number, line))
    if pending:
        found.append(pending)
    return found


def split_shell(line: str) -> list[str]:
    """The line's stages (split at `|`, `||`, `&&`, `;` and a lone `&` outside quotes),
    without a trailing `# comment` (a `#` that starts a word, outside quotes)."""
    stages: list[str] = []
    current: list[str] = []
    quote = None
    i = 0
    while i < len(line):
        char = line[i]
        previous, following = line[i - 1 : i], line[i + 1 : i + 2]
        if quote:
            if char == "\\" and quote == '"':
                current.append(line[i : i + 2])
                i += 2
                continue
            if char == quote:
                quote = None
            current.append(char)
        elif char == "\\":
            current.append(line[i : i + 2])
            i += 1
        elif char in "'\"":
            quote = char
            current.append(char)
        elif char == "#" and (not previous or previous.isspace()):
            break
        elif char in "|;" or (char == "&" and following == "&"):
            stages.append("".join(current))
            current = []
            if char != ";" and following == char:
                i += 1  # `||`, `&&`
        elif char == "&" and (not previous or previous.isspace()) and following != ">":
            stages.append("".join(current))  # a command sent to the background
            current = []
        else:
            current.append(char)  # (also the `&` of `2>&1` and `&>`)
        i += 1
    stages.append("".join(current))
    return [stage.strip() for stage in stages if stage.strip()]


def _without_redirections(words: list[str]) -> list[str]:
    kept: list[str] = []
    target = False  # the word after a redirection operator is its target
    for word in words:
        if target:
            target = False
        elif _PLACEHOLDER.match(word):
            kept.append(word)
        elif _REDIRECT.match(word):
            target = not re.search(r"&\d+$", word)  # (`2>&1` has none)
        elif not _GLUED_REDIRECT.match(word):
            kept.append(word)
    return kept


def tool_arguments(stage: str) -> list[str] | None:
    """The arguments of `wukong-lint` in one stage of a command line, or None when the
    stage runs something else."""
    try:
        words = shlex.split(stage)
    except ValueError:
        return None
    if words[:1] == ["$"]:
        words = words[1:]
    while words and _ENV.match(words[0]):
        words = words[1:]
    words = _without_redirections(words)
    if words[:1] == ["wukong-lint"]:
        return words[1:]
    if re.fullmatch(r"python3?", words[0] if words else "") and words[1:3] == ["-m", "wukong_lint"]:
        return words[3:]
    return None


def commands_in(text: str, name: str) -> list[Command]:
    found: list[Command] = []
    for number, line in fenced_lines(text):
        where = f"{name}:{number}"
        for embedded in _EMBEDDED.finditer(line):
            found.append(Command(where, shlex.split(embedded.group(1))[1:]))
        for stage in split_shell(line):
            arguments = tool_arguments(stage)
            if arguments is not None:
                found.append(Command(where, arguments))
    return found


def all_commands() -> list[Command]:
    found: list[Command] = []
    for page in PAGES:
        found += commands_in(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))
    return found


@lru_cache(maxsize=1)
def _parser():
    return _build_parser()  # once: every sub-command's parser (~40 of them)


def parse_error(words: list[str]) -> str | None:
    """None when the words parse as a wukong-lint command line, else the parser's message.
    (`--help` and `--version` print and exit 0: they parse.)"""
    parser = _parser()
    parser.words = words  # (for its "did you mean")
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            parser.parse_args(words)
    except SystemExit as exit:
        if exit.code in (0, None):
            return None
        return err.getvalue().strip() or f"exit {exit.code}"
    except Exception as error:  # the parser's errors are UsageErrors (one line, a usage)
        usage = getattr(error, "usage", None)
        return f"{error}" + (f"\n{usage}" if usage else "")
    return None


COMMANDS = all_commands()


@pytest.mark.parametrize("command", COMMANDS, ids=[c.where for c in COMMANDS])
def test_command_line_parses(command: Command) -> None:
    problem = parse_error(command.words)
    assert problem is None, f"{command.where}: `{command.text}` does not parse:\n{problem}"


def test_docs_show_command_lines() -> None:
    pages = {c.where.rsplit(":", 1)[0] for c in COMMANDS}
    assert "README.md" in pages and len(pages) >= 5, pages
    assert len(COMMANDS) >= 50, len(COMMANDS)


def test_readme_keeps_the_test_command() -> None:
    assert TEST_COMMAND in (ROOT / "README.md").read_text(encoding="utf-8")


def test_checker_rejects_bad_command_lines() -> None:
    assert parse_error(["check", "--no-such-flag"]) is not None
    assert "--no-such-flag" in (parse_error(["check", "--no-such-flag"]) or "")
    assert parse_error(["check", "--format", "yaml"]) is not None
    assert parse_error(["hook", "--mode", "block"]) is not None
    assert parse_error(["no-such-command"]) is not None
    assert parse_error(["check", "--format", "json", "src/"]) is None
    assert parse_error(["--version"]) is None
    assert parse_error(["rules", "show", "--help"]) is None


def test_extraction() -> None:
    page = "\n".join(
        [
            "wukong-lint check --outside-a-fence",
            "```sh",
            "$ wukong-lint check src/   # a comment with --bad options",
            "GIT_X='a b' wukong-lint check --history",
            "git show HEAD:a.py | wukong-lint check - --stdin-filename a.py 2>/dev/null",
            "wukong-lint check \\",
            "    --select 'secret#1' --format json > report.json",
            "python -m wukong_lint rules list && echo done",
            "pip install -e . && wukong-lint check <path>",
            "echo wukong-lint check --not-a-command",
            "```",
            "```json",
            '{"command": "wukong-lint hook --mode json"}',
            "```",
        ]
    )
    found = [(c.where, c.words) for c in commands_in(page, "p.md")]
    assert found == [
        ("p.md:3", ["check", "src/"]),
        ("p.md:4", ["check", "--history"]),
        ("p.md:5", ["check", "-", "--stdin-filename", "a.py"]),
        ("p.md:6", ["check", "--select", "secret#1", "--format", "json"]),
        ("p.md:8", ["rules", "list"]),
        ("p.md:9", ["check", "<path>"]),
        ("p.md:13", ["hook", "--mode", "json"]),
    ]
