"""Command-line errors worded for people: one line, the command's name once, a short usage
line, and "did you mean" for a misspelt option, choice or sub-command.

Used by the argparse parser class of cli.py, so only when a parser is built (never on the
pre-commit path).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any

from wukong_lint.util.errors import UsageError

TOOL = "wukong-lint"
_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)$")
_UNRECOGNIZED = "unrecognized arguments: "


def close_match(word: str, known: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(word, sorted(set(known)), n=1, cutoff=0.6)
    return found[0] if found else None


def _subparsers(parser: Any) -> dict[str, Any]:
    for action in getattr(parser, "_actions", ()):
        choices = getattr(action, "choices", None)
        if action.__class__.__name__ == "_SubParsersAction" and isinstance(choices, dict):
            return choices
    return {}


def _command_parser(parser: Any, words: Sequence[str]) -> Any:
    """The (sub-)parser the words reach: `check`, `rules show`..."""
    for word in words:
        if word.startswith("-"):
            continue
        sub = _subparsers(parser).get(word)
        if sub is None:
            break
        parser = sub
    return parser


def _options(parser: Any) -> list[str]:
    return [s for action in parser._actions for s in action.option_strings if s.startswith("--")]


def usage_line(parser: Any) -> str:
    """`usage: wukong-lint check [options] [PATH ...]` and where the full help is."""
    positionals = []
    for action in parser._actions:
        if action.option_strings or action.__class__.__name__ == "_SubParsersAction":
            continue
        name = action.metavar or action.dest.upper()
        positionals.append(f"[{name} ...]" if action.nargs in ("*", "+") else str(name))
    if _subparsers(parser):
        positionals.append("COMMAND" if parser.prog == TOOL else "ACTION")
    words = [parser.prog, "[options]", *positionals]
    return f"usage: {' '.join(words)}  (`{parser.prog} --help` for more)"


def parser_error(parser: Any, message: str, words: Sequence[str] | None) -> UsageError:
    """The UsageError for argparse's `message` about `parser`; `words`: the command line
    (known to the top-level parser), to find the sub-command an unknown option belongs to."""
    target = _command_parser(parser, words) if words is not None else parser
    hint = ""
    choice = _CHOICE.search(message)
    if choice:
        options = re.findall(r"'([^']*)'", choice.group(2))
        close = close_match(choice.group(1), options) or close_match(
            choice.group(1).lower(), options
        )
        hint = f" (did you mean '{close}'?)" if close else ""
    elif message.startswith(_UNRECOGNIZED):
        first = message[len(_UNRECOGNIZED) :].split()[0]
        flag = first.split("=", 1)[0]
        if flag.startswith("-"):
            close = close_match(flag, _options(target))
            hint = f" (did you mean '{close}'?)" if close else ""
    name = target.prog[len(TOOL) :].strip()
    err = UsageError(f"{name}: {message}{hint}" if name else f"{message}{hint}")
    err.usage = usage_line(target)  # type: ignore[attr-defined]
    return err
