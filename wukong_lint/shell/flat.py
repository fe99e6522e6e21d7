"""The flat reading of a text nested deeper than the walk can follow.

bash runs `( ( … rm -rf / … ) )`, a thousand nested `if … then … fi` or five hundred
`while … do … done` whatever their depth, so "too deep to judge" must not mean "allowed":
such a text is read again with its nesting removed, every nested command as a top-level one.
Grouping that nests (`$(` and `(`/`)`, backticks, `{ }` groups, double quotes) becomes
blanks or line breaks, and so do the reserved words of compound commands where a command
would start (`if`, `then`, `fi`, `while`, `do`, `done`, `case … in`, `esac`, the header of a
`for`): what is left is a plain list of the commands they held. Offsets stay those of the
original text, and variables (`$HOME`, `${HOME}`) stay what they are. The flat reading may see
more than runs (a quoted word in the depths), never less; the script is marked `deep`, which
the rules ask about. (The walk of the flat text is walker.flat_walk.)
"""

from __future__ import annotations

import re

# Grouping that nests: `$(` and `(`/`)`, backticks, `{ }` groups (not `${VAR}`), double
# quotes; each character becomes a space or a newline.
_NESTING = re.compile(r'\$\(|[()`"]|(?<!\$)\{(?=\s)|(?<=[\s;&|])\}')
_TOKENS = re.compile(r"[ \t]+|\n|;;&?|;&|[;&|(){}]|[^\s;&|(){}]+")
_KEYWORDS = frozenset(["if", "then", "elif", "else", "fi", "while", "until", "do", "done",
                       "esac", "!", "time", "coproc"])  # fmt: skip
_HEADERS = frozenset(["for", "select"])  # `for NAME in WORDS;`: up to the separator
_SEPARATORS = frozenset([";", "&", "|", "(", ")", "{", "}", "\n", ";;", ";&", ";;&"])
_CASE_ENDS = frozenset([";;", ";&", ";;&"])


def _flatten(match: re.Match[str]) -> str:
    found = match.group()
    return " " * len(found) if found == '"' else " \n" if found == "$(" else "\n"


def _without_keywords(text: str) -> str:
    """The reserved words of compound commands in command position blanked (same length)."""
    out: list[str] = []
    command_start = True  # the next word starts a command
    header = False  # inside `for NAME in WORDS` or `case WORD in`
    pattern = False  # inside a `case` pattern, up to its `)`
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token[0] in " \t":
            out.append(token)
            continue
        if pattern:
            if token == ")":
                pattern = False
                command_start = True
                out.append("\n")
            elif token == "esac":
                pattern = False
                out.append(" " * len(token))
            else:
                out.append(" " * len(token))
            continue
        if token in _SEPARATORS:
            if header and token in (";", "\n"):
                header = False
            out.append(token)
            command_start = True
            if token in _CASE_ENDS:
                pattern = True
            continue
        if header:
            out.append(" " * len(token))
            if token == "in" and header == "case":
                header = False
                pattern = True
            continue
        if command_start and token in _KEYWORDS:
            out.append(" " * len(token))
            continue
        if command_start and token in _HEADERS:
            out.append(" " * len(token))
            header = True
            continue
        if command_start and token == "case":
            out.append(" " * len(token))
            header = "case"  # type: ignore[assignment]
            continue
        out.append(token)
        command_start = False
    return "".join(out)


def flat_text(text: str) -> str:
    return _NESTING.sub(_flatten, _without_keywords(text))


MAX_SEGMENTED = 1 << 16  # characters: a longer text that does not parse is not cut up
# a command's end where the flat text has no nesting left: a separator outside single quotes
_SEGMENT = re.compile(r"(?:[^'\\;&|\n]|\\.|\$?'[^']*')+", re.S)


def segments(flat: str) -> list[tuple[int, str]]:
    """The commands of a flat text one by one (their offsets and text), for a text whose
    parse fails: tree-sitter's error recovery may swallow the rest of a line into one error
    (`[ -d ~ ] && rm -rf ~`), which a command parsed alone escapes."""
    return [(m.start(), m.group()) for m in _SEGMENT.finditer(flat) if not m.group().isspace()]
