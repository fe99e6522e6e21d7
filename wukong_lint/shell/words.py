"""Shell words as the shell reads them: quotes and escapes removed (`'r'm`, `re\\set`,
`$'\\x72m'`), variables assigned earlier on the line substituted where their value is literal
(`X=/; rm -rf $X`), words split only by a line continuation joined (`re\\<newline>set`).

Expansions whose value is not known (`$FOO`, `$(pwd)`) keep their source text, so that the
path reasoning (path_reasoning.py) can still tell `$HOME/x` or `$(pwd)` apart.
"""

from __future__ import annotations

import functools
import re
from typing import Any

# (compiled when first used: most words have no $'...' and no known variable)
_ANSI = r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)"
_ANSI_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
                "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}  # fmt: skip
EXPANSIONS = frozenset(["simple_expansion", "expansion"])
_NAME = r"\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?])\}?$"


@functools.cache
def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.S)


def unescape(text: str) -> str:
    """Backslash escapes of an unquoted word removed (a backslash-newline disappears)."""
    if "\\" not in text:
        return text
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _unescape_double(text: str) -> str:
    """Inside double quotes only \\$ \\` \\" \\\\ and backslash-newline are escapes."""
    if "\\" not in text:
        return text
    return re.sub(r'\\([$`"\\\n])', lambda m: "" if m.group(1) == "\n" else m.group(1), text)


def ansi_c(body: str) -> str:
    """The value of a $'...' string body."""

    def one(match: re.Match[str]) -> str:
        esc = match.group(1)
        head = esc[0]
        try:
            if head in "xuU" and len(esc) > 1:
                return chr(int(esc[1:], 16))
            if head.isdigit():
                return chr(int(esc, 8))
        except (ValueError, OverflowError):
            return esc
        if head == "c" and len(esc) == 2:
            return chr(ord(esc[1]) & 0x1F)
        return _ANSI_SIMPLE.get(esc, "\\" + esc)

    return _rx(_ANSI).sub(one, body)


def _expansion(node: Any, env: dict[str, str] | None) -> str:
    text = node.text.decode("utf-8", "replace")
    if env:
        match = _rx(_NAME).match(text)
        if match and match.group(1) in env:
            return env[match.group(1)]
    return text


def word(node: Any, env: dict[str, str] | None = None) -> str:
    """The value of a shell word with quotes removed; expansions whose value is unknown keep
    their source text. (NUL bytes, which bash drops from its input, are the caller's.)"""
    kind = node.type
    if kind == "word":  # (the usual case first)
        return unescape(node.text.decode("utf-8", "replace"))
    if kind in EXPANSIONS:
        return _expansion(node, env)
    text = node.text.decode("utf-8", "replace")
    if kind == "raw_string":
        return text[1:-1]
    if kind == "string":
        if not (text.endswith('"') and len(text) >= 2):
            return text
        if env and any(child.type in EXPANSIONS for child in node.children):
            raw = node.text
            base = node.start_byte
            pieces, pos = [], 1
            for child in node.children:
                if child.type in EXPANSIONS:
                    pieces.append(
                        _unescape_double(
                            raw[pos : child.start_byte - base].decode("utf-8", "replace")
                        )
                    )
                    pieces.append(_expansion(child, env))
                    pos = child.end_byte - base
            pieces.append(_unescape_double(raw[pos:-1].decode("utf-8", "replace")))
            return "".join(pieces)
        return _unescape_double(text[1:-1])
    if kind == "ansi_c_string":
        return ansi_c(text[2:-1])
    if kind == "concatenation":
        return "".join(word(child, env) for child in node.children)
    if kind == "word":
        return unescape(text)
    return text


def joined_by_continuation(source: bytes, end: int, start: int) -> bool:
    """Are two words split only by line continuations (`re\\<newline>set`)?"""
    gap = source[end:start]
    return bool(gap) and gap.replace(b"\\\n", b"") == b"" and end > 0


def literal(value: str) -> bool:
    """A value with no expansion left in it (safe to substitute)."""
    return "$" not in value and "`" not in value


_BACKQUOTED_ESCAPE = re.compile(r"\\([\\`$])")


def backquoted(text: str) -> str:
    r"""The script inside a `` `...` `` substitution as bash runs it: a backslash before `` ` ``,
    `$` or another backslash is removed first, so `` `echo \`rm -rf ~\`` `` runs `rm -rf ~`
    (tree-sitter reads the escaped backticks as plain word characters)."""
    return _BACKQUOTED_ESCAPE.sub(r"\1", text[1:-1] if text.endswith("`") else text[1:])
