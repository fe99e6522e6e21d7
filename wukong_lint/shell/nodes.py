"""Small helpers on the syntax tree and the words of a command, shared by the walker
(shell/walker.py), the statement selection (shell/selection.py) and the pieces of a huge
text (shell/pieces.py)."""

from __future__ import annotations

from typing import Any


def list_parts(node: Any) -> list[Any]:
    """The children of a left-nested `list` node (`a && b || c`), in order, as one level."""
    outers = []
    while node.type == "list" and node.children and node.children[0].type == "list":
        outers.append(node)
        node = node.children[0]
    parts = list(node.children)
    for outer in reversed(outers):
        parts += outer.children[1:]
    return parts


def _self_call(body: Any, name: str) -> bool:
    """Does a function body pipe into its own name or start itself in the background?"""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "pipeline":
            calls = [c for c in node.children if c.type == "command"]
            if any(_command_name(c) == name for c in calls):
                return True
        if node.type == "&" and any(
            _command_name(sibling) == name
            for sibling in (node.parent.children if node.parent else [])
            if sibling.type == "command"
        ):
            return True
        stack.extend(node.children)
    return False


def _command_name(node: Any) -> str:
    for child in node.children:
        if child.type == "command_name":
            return child.text.decode("utf-8", "replace")
    return ""


_JOINED = str.maketrans("", "", "\\'\"")  # quotes and backslashes, removed


def _piece_search(source: bytes, search: Any) -> Any:
    """`search` on the text of a byte span, its quotes, backslashes and line continuations
    removed."""

    def search_span(start: int, end: int) -> bool:
        piece = source[start:end].decode("utf-8", "replace")
        return search(piece.replace("\\\n", "").translate(_JOINED))  # type: ignore[no-any-return]

    return search_span


def split_options(
    argv: tuple[str, ...], value_options: frozenset[str] = frozenset()
) -> tuple[list[str], list[str]]:
    """(options, positional arguments) of a command's words after the program name."""
    options: list[str] = []
    positional: list[str] = []
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            positional += args[i + 1 :]
            break
        if arg.startswith("-") and arg != "-":
            options.append(arg)
            if arg in value_options and i + 1 < len(args):
                i += 1
        else:
            positional.append(arg)
        i += 1
    return options, positional
