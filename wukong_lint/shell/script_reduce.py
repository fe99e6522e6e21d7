"""A long script cut down to the statements worth judging.

The hook reads the scripts a call runs (hook/scripts.py) and judges their commands with the
command and path rules, and lists the files they run in turn: each of those walks the
script's commands in Python, which for a 100 KB script is most of the cost. Most of its
statements cannot matter: no rule names their programs or paths. So the script is parsed
once (tree-sitter, in C), and only its top-level statements in which the selector
(shell/commands.script_selector: the programs the command rules name, the programs that
run files or code, the paths the path rules look for) finds something are kept, with the
statements that change what later ones mean (assignments, `cd`, aliases); a statement
repeated in the same folder with the same values of its variables is kept once. What is
kept is judged as usual.

A statement that does not parse cleanly is kept as it is: the cut never hides one.
"""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.shell.model import parse_source
from wukong_lint.shell.nodes import _command_name, _piece_search, list_parts

_STATE_COMMANDS = frozenset(["cd", "pushd", "popd", "alias", "unalias", "set", "shopt", "builtin",
                             "export", "declare", "typeset", "local", "readonly"])  # fmt: skip
_STATE_NODES = frozenset(["variable_assignment", "declaration_command", "variable_assignments"])
_VARIABLE = re.compile(rb"\$\{?([A-Za-z_]\w*)")
_ASSIGNED = re.compile(rb"(?:^|[\s;&|(])([A-Za-z_]\w*)(?:\[[^\]]*\])?\+?=")
_MOVES = re.compile(rb"(?:^|[\s;&|(])(?:cd|pushd|popd)(?:\s|$)")


def _changes_state(node: Any) -> bool:
    """A statement that changes what later ones mean: an assignment, `cd`, an alias."""
    if node.type in _STATE_NODES:
        return True
    if node.type == "list":
        return any(_changes_state(part) for part in list_parts(node) if part.is_named)
    return node.type == "command" and _command_name(node) in _STATE_COMMANDS


def reduce(text: str, selector: Any) -> str:
    """`text` with only the statements worth judging (see the module docstring)."""
    source = text.encode("utf-8", "surrogatepass")
    tree = parse_source(source)
    root = tree.root_node
    search_span = selector.spans(text) if len(source) == len(text) else None
    if search_span is None:
        search_span = _piece_search(source, selector.search)
    kept: list[bytes] = []
    seen: set[tuple[Any, ...]] = set()
    assigned: dict[bytes, bytes] = {}  # variable -> the statement that last assigned it
    folder = 0  # how many times a `cd` moved the folder (paths mean something else after)
    for child in root.children:
        if not child.is_named or child.type == "comment":
            continue
        piece = source[child.start_byte : child.end_byte]
        if child.has_error or child.type == "ERROR":
            kept.append(piece)  # (what does not parse is judged as it is: never hidden)
            continue
        state = _changes_state(child)
        if not state and not search_span(child.start_byte, child.end_byte):
            continue
        # the same statement, in the same folder, with the same values of the variables it
        # uses, is judged once (scripts repeat theirs: `rm -rf build`, `export PATH=...`)
        names = _VARIABLE.findall(piece)
        key = (folder, piece, tuple(assigned.get(name, b"") for name in names))
        if key in seen:
            continue
        seen.add(key)
        kept.append(piece)
        if state:
            for name in _ASSIGNED.findall(piece):
                assigned[name] = piece
            if _MOVES.search(piece):
                folder += 1
    return b"\n".join(kept).decode("utf-8", "surrogatepass") + "\n"
