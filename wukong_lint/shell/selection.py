"""Walking only some statements of a long script (a file scan's shell text): those in which
a rule may match (`search_span`, see commands.Selector), keeping what the others change for
later statements (a `cd`, a variable, an alias, a function definition), and replaying a
statement seen before in the same state instead of walking it again.
"""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.shell.nodes import _command_name, list_parts
from wukong_lint.shell.walker import _Walker
from wukong_lint.shell.words import word as _word


def walk_selected(walker: _Walker, node: Any, search_span: Any) -> None:
    """Walk `node` if `search_span` finds something in its text; an `a && b || c` list is
    looked into part by part (a Dockerfile's `RUN apt-get ... && rm -rf ...` chain, say)."""
    if not search_span(node.start_byte, node.end_byte):
        if node.type != "command" or walker.source[
            node.start_byte : node.start_byte + 5
        ].startswith(_TRACKED_STARTS):
            _track_unselected(walker, node)
        return
    if node.type != "list":
        _walk_statement(walker, node)
        return
    for child in list_parts(node):  # (flat: a chain of 1,000 `&&` nests 1,000 deep)
        if child.is_named:
            walk_selected(walker, child, search_span)


_STATEMENTS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_STATEMENT_CACHED = 4096  # longer statements are walked every time (memory stays bounded)


def _walk_statement(walker: _Walker, node: Any) -> None:
    """Walk one statement of a long script; a statement seen before in the same state (the
    same folder and variables, no alias or function in force) is not walked again, its
    commands are replayed at its place: scripts, Makefiles and Dockerfiles repeat theirs
    (`rm -rf /var/lib/apt/lists/*`)."""
    start = node.start_byte
    if (
        walker.span is not None
        or not walker.ascii
        or walker.aliases
        or walker.bodies
        or node.end_byte - start > _STATEMENT_CACHED
    ):
        walker.visit(node)
        return
    key = (walker.source[start : node.end_byte], walker.cwd, tuple(walker.env.items()))
    at = walker.base + start  # (its offset in the whole text: a piece of a long one)
    found = _STATEMENTS.get(key)
    if found is not None:
        commands, functions, error, cwd, env = found
        walker.commands += [c._replace(start=c.start + at, end=c.end + at) for c in commands]
        walker.functions += [f._replace(start=f.start + at, end=f.end + at) for f in functions]
        walker.error = walker.error or error
        walker.cwd, walker.env = cwd, dict(env)
        return
    before, functions_before, error_before = (
        len(walker.commands),
        len(walker.functions),
        walker.error,
    )
    walker.visit(node)
    if walker.aliases or walker.bodies:
        return  # (what they do later depends on more than this statement)
    if len(_STATEMENTS) >= 4096:
        _STATEMENTS.clear()
    _STATEMENTS[key] = (
        tuple(c._replace(start=c.start - at, end=c.end - at) for c in walker.commands[before:]),
        tuple(
            f._replace(start=f.start - at, end=f.end - at)
            for f in walker.functions[functions_before:]
        ),
        walker.error and not error_before,
        walker.cwd,
        tuple(walker.env.items()),
    )


_TRACKED_STARTS = (b"cd", b"pushd", b"popd", b"alias", b"unset", b"builtin", b"command")


def _track_unselected(walker: _Walker, node: Any) -> None:
    """A statement not walked still changes what later ones mean: a `cd`, a variable, an
    alias, a function definition."""
    kind = node.type
    if kind in ("variable_assignment", "declaration_command"):
        walker.visit(node)
    elif kind == "function_definition":
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is not None and body is not None:
            walker.bodies[name_node.text.decode("utf-8", "replace")] = body
    elif kind == "command" and walker.source[node.start_byte : node.start_byte + 5].startswith(
        _TRACKED_STARTS
    ):
        name = _command_name(node)
        if name in ("cd", "pushd", "popd", "alias", "unset", "builtin", "command"):
            words = [
                _word(c.children[0] if c.type == "command_name" and c.children else c, walker.env)
                for c in node.children
                if c.is_named
                and c.type not in ("file_redirect", "herestring_redirect", "comment")
                and c.type != "variable_assignment"
            ]
            if words:
                walker.track(tuple(words))


# -- functions that call themselves in a pipe (a fork bomb): such a statement is walked whole -

_FUNCTION_NAME = re.compile(r"([^\s(){}|&;]+)\s*$")
_EMPTY_PARENS = re.compile(r"\([ \t]*\)")


def _may_call_itself(piece: str) -> bool:
    """A function defined in `piece` whose name comes before a `|` or `&` or after a `|`."""
    if "|" not in piece and "&" not in piece:
        return False
    if "function" not in piece and _EMPTY_PARENS.search(piece) is None:
        return False  # no function defined in it
    names = [m.group(1) for m in re.finditer(r"\bfunction\s+([^\s(){}|&;]+)", piece)]
    at = piece.find("(")
    while at >= 0:
        close = at + 1
        while close < len(piece) and piece[close] in " \t":
            close += 1
        if close < len(piece) and piece[close] == ")":
            found = _FUNCTION_NAME.search(piece, max(0, at - 200), at)
            if found:
                names.append(found.group(1))
        at = piece.find("(", at + 1)
    return any(_calls_itself(piece, name) for name in names)


def _calls_itself(piece: str, name: str) -> bool:
    """`name` followed by `|` or `&`, or after a `|` (spaces between allowed)."""
    at = piece.find(name)
    while at >= 0:
        after = piece[at + len(name) :].lstrip(" \t")
        before = piece[:at].rstrip(" \t")
        if after[:1] in ("|", "&") or before.endswith("|"):
            return True
        at = piece.find(name, at + 1)
    return False
