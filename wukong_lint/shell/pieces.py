"""A huge shell text (a 20 MB Bash command in a hook event, a generated script) parsed and
walked piece by piece, so that memory stays bounded whatever its size.

Parsed whole, a text costs about 50 bytes of syntax tree per byte and a few hundred bytes per
command it runs: a 20 MB command line of short statements peaked at 3 GB. Here the text is
parsed some 256 KB at a time, cut after the last complete top-level statement of each piece
(a statement the parser had to close before the next one started: a cut inside a quote, a
heredoc or a `\\` continuation is never taken), and walked with the state the earlier pieces
left (the folder a `cd` moved to, variables, aliases, functions). A statement seen before in
the same state is not walked again (only what it changes for the next ones is applied), and
a command the text runs again in the same way is kept once (in a tool call: a file scan
walks the statements rules select, shell_selection.py, and reports each place): a script repeating
`rm -rf build` 1,000,000 times is one command to judge.

Bounded: at most MAX_COMMANDS distinct commands are kept; past them the walk stops and the
script says so (`partial`: the command rules report that it was not judged whole, and the
hook asks); so does a single statement longer than MAX_PIECE (a 5 MB quoted string, a loop
whose body is the whole text), which is not parsed.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from wukong_lint.shell.model import Command, Function, Script, parse_source
from wukong_lint.shell.nodes import _piece_search, list_parts
from wukong_lint.shell.walker import _Walker

PIECE = 256 << 10  # bytes parsed at a time
MAX_PIECE = 4 << 20  # a statement longer than this ends the cutting: the rest is one piece
MAX_COMMANDS = 20_000  # distinct commands kept of one command line
MAX_FILE_COMMANDS = 200_000  # commands kept of one script in a file scan (statements selected)
MAX_FUNCTION_PIECES = 8  # pieces whose function definitions are kept (each keeps its tree)


def _key(command: Command) -> tuple[Any, ...]:
    """What makes two commands of a text the same command to judge (all but the span)."""
    return (command.argv, command.redirects, command.stdin_from, command.substitutions,
            command.via, command.heredoc, command.cwd, command.stdin_args)  # fmt: skip


_SEPARATORS = frozenset([";", "&", "&&", "||", ";;"])


def _cut(children: list[Any], last: bool, piece: bytes) -> list[Any]:
    """The top-level statements of a piece that are whole: all of them in the last piece;
    else those before the last one (the text may go on), before any that did not parse, and
    before any not ended by a separator or a line break (the parser's error recovery makes a
    statement of the words before a quote left open by the cut)."""
    if last:
        return children
    kept = []
    for child, after in pairwise(children):
        if child.has_error or child.is_missing:
            break
        if child.is_named and not (
            after.type in _SEPARATORS or b"\n" in piece[child.end_byte : after.start_byte]
        ):
            break
        kept.append(child)
    while kept and not kept[-1].is_named:  # (a `;` or `&` belongs with what follows)
        kept.pop()
    return kept


def _walk_once(walker: _Walker, node: Any, piece: bytes, walked: dict[Any, Any]) -> None:
    """Walk a statement unless the same statement was walked before in the same state (the
    folder, the variables; no alias or function in force): its commands would be the same,
    and are kept once anyway. Only what it changes for the next statements is applied."""
    if walker.aliases or walker.bodies or node.end_byte - node.start_byte > 4096:
        walker.visit(node)
        return
    key = (piece[node.start_byte : node.end_byte], walker.cwd, tuple(walker.env.items()))
    after = walked.get(key)
    if after is not None:
        walker.cwd, walker.env = after[0], dict(after[1])
        return
    walker.visit(node)
    if not walker.aliases and not walker.bodies:
        if len(walked) >= 65536:
            walked.clear()
        walked[key] = (walker.cwd, tuple(walker.env.items()))


def _statements(root: Any) -> list[Any]:
    """The top-level statements of a piece, an `a && b || c` chain taken part by part (a
    20 MB command line may be one chain: it is cut between its parts; which of them run
    does not change what each would do)."""
    found: list[Any] = []
    for child in root.children:
        if child.type == "list":
            found += list_parts(child)
        else:
            found.append(child)
    return found


def parse_pieces(text: str, select: Any = None) -> Script:
    from wukong_lint.shell.selection import walk_selected

    source = text.encode("utf-8", "surrogatepass")
    ascii_text = len(source) == len(text)
    whole_search = None
    if select is not None and ascii_text:
        spans = getattr(select, "spans", None)
        whole_search = spans(text) if spans is not None else None
    commands: list[Command] = []
    seen: set[tuple[Any, ...]] = set()
    walked: dict[tuple[Any, ...], tuple[str, tuple[tuple[str, str], ...]]] = {}
    functions: list[Function] = []
    error = partial = deep = False
    previous: _Walker | None = None
    function_pieces = 0
    start = chars = 0  # the piece's offset in bytes and in characters
    size = PIECE
    while start < len(source) and not partial:
        end = min(start + size, len(source))
        if end < len(source):
            cut = source.rfind(b"\n", start, end)
            if cut > start:
                end = cut + 1
        piece = source[start:end]
        tree = parse_source(piece)
        last = end >= len(source)
        children = _statements(tree.root_node)
        kept = _cut(children, last, piece)
        if not kept:
            if size < MAX_PIECE:
                size *= 2  # one statement longer than a piece: look further
                continue
            partial = error = True  # one statement of more than MAX_PIECE: not judged whole
            break
        size = PIECE
        # the next piece starts at the next statement (not at the `;` between them)
        after = len(kept)
        while after < len(children) and not children[after].is_named:
            after += 1
        stop = len(piece) if last or after >= len(children) else children[after].start_byte
        piece_text = piece.decode("utf-8", "surrogatepass")
        walker = _Walker(piece, piece_text, 0, None, previous)
        walker.base = chars
        if previous is not None:
            walker.bodies = dict(previous.bodies)
        bodies_before = len(walker.bodies)
        if select is None:
            search_span = None
        elif whole_search is not None:
            base = start

            def search_span(first: int, after: int, base: int = base) -> bool:
                return whole_search(first + base, after + base)  # type: ignore[no-any-return]
        else:
            search_span = _piece_search(piece, select.search)
        try:
            for child in kept:
                if search_span is not None:
                    walk_selected(walker, child, search_span)
                else:
                    _walk_once(walker, child, piece, walked)
        except RecursionError:
            walker.error = walker.deep = True
        error = error or walker.error or any(c.has_error for c in kept)
        deep = deep or walker.deep
        for command in walker.commands:
            # (a file scan reports each place: only a tool call's command keeps one of each)
            key = _key(command) if select is None else command
            if key not in seen:
                if len(commands) >= (MAX_COMMANDS if select is None else MAX_FILE_COMMANDS):
                    partial = error = True  # more than is kept: not judged whole
                    break
                seen.add(key)
                commands.append(command)
        functions += walker.functions[:64]
        walker.commands, walker.functions = [], []
        if len(walker.bodies) != bodies_before or any(
            previous is None or previous.bodies.get(k) is not v for k, v in walker.bodies.items()
        ):
            function_pieces += 1  # (a function body keeps its piece's tree alive)
            if function_pieces > MAX_FUNCTION_PIECES:
                walker.bodies = dict(previous.bodies) if previous is not None else {}
                error = True  # calls of the dropped functions are not followed
        previous = walker
        chars += len(piece[:stop].decode("utf-8", "surrogatepass")) if not ascii_text else stop
        start += stop
    return Script(tuple(commands), tuple(functions[:4096]), error, partial, deep)
