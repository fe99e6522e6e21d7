"""A shell command-line model for checks: what programs run, with which words, fed by what,
in which folder.

Built on tree-sitter-bash (MIT), so quotes, `;`/`&&`/`||`, pipes, subshells, command and
process substitution, heredocs and function definitions are parsed as bash parses them. On
top of the syntax tree the walker follows what the shell would do on this line:

- wrappers run another command (shell_unwrap.py: `sudo`, `env`, `timeout`, `nohup`,
  `bash -c STRING`, `eval`, `ssh host STRING`, `busybox rm`...), and interpreter one-liners
  run code (interpreters.py: `python -c "os.system('rm -rf /')"`);
- a pipeline's producer feeds the next stage: `echo rm -rf / | sh`, `echo / | xargs rm -rf`,
  `find . -print0 | xargs -0 rm -rf`; a heredoc or here-string feeds a shell or interpreter;
- `find -exec ... {}` and `-delete` act on find's start paths; `parallel ... ::: args`;
- `cd` moves the folder later commands of the line run in (the `cwd` of a command, a path
  word: "." the project root, "?" unknown); `X=/` and `export X=/` bind a literal value
  later words use; aliases and functions defined earlier on the line run when called;
- words are taken as the shell takes them (shell_words.py), `git -C dir -c k=v -- reset`
  is `git reset` run in `dir`.

`parse(text)` returns a `Script`: every command that would run (including nested ones) with
its unquoted words, write redirections, the programs feeding its stdin through a pipeline,
the programs run inside substitutions in its arguments, the wrappers it ran under, its
folder, what is known of its stdin, and its span in `text`. Words inside quotes stay one word
and are never taken for commands, so `echo "rm -rf /"` yields only `echo`. Reused for shell
scripts, Dockerfiles and CI files.

Bounded whatever the input: nested scripts are followed `MAX_DEPTH` levels deep, functions
expanded at most `MAX_EXPANSIONS` times, a tree deeper than the interpreter's stack is walked
as far as it goes, and `Script.error` says when the text does not parse (or was not walked
whole).
"""

from __future__ import annotations

from typing import Any

from wukong_lint.shell.model import (  # the records, re-exported: shell.Command...
    WRITE_REDIRECTS,
    Command,
    Function,
    Script,
    parse_source,
    program_name,
)
from wukong_lint.shell.nodes import _JOINED, _piece_search, split_options
from wukong_lint.shell.unwrap import SHELLS, unwrap
from wukong_lint.shell.walker import _Walker, flat_walk, rescued

__all__ = [
    "SHELLS",
    "WRITE_REDIRECTS",
    "_JOINED",
    "Command",
    "Function",
    "Script",
    "parse",
    "parse_script",
    "program_name",
    "split_options",
    "unwrap",
]  # fmt: skip

PIECES_FROM = 512 << 10  # characters: a longer text is parsed and walked piece by piece
_CACHE: tuple[str, Script] | None = None
_SELECTED: tuple[str, Any, Script] | None = None


def parse_script(
    text: str, depth: int = 0, span: tuple[int, int] | None = None, select: Any = None
) -> Script:
    """Parse `text`; with `select` (a compiled regex), only the top-level statements in
    which it finds something are walked (the tree is built whole: tree-sitter is fast, walking
    it in Python is not). The regex sees a statement with its quotes, backslashes and line
    continuations removed, so `'r'm` and `r\\m` still show the `rm` they run."""
    if len(text) > PIECES_FROM and depth == 0 and span is None:
        from wukong_lint.shell.pieces import parse_pieces

        return parse_pieces(text, select)  # (memory bounded whatever the size)
    source = text.encode("utf-8", "surrogatepass")
    tree = parse_source(source)
    walker = _Walker(source, text, depth, span)
    try:
        if select is None:
            walker.visit(tree.root_node)
        else:
            # a selector may answer for spans of the text from one look at all of it (byte
            # offsets are character offsets in ASCII text, the only kind it takes)
            spans = getattr(select, "spans", None)
            search_span = spans(text) if spans is not None else None
            if search_span is None:
                search_span = _piece_search(source, select.search)
            from wukong_lint.shell.selection import walk_selected

            for child in tree.root_node.children:
                walk_selected(walker, child, search_span)
    except RecursionError:  # nested deeper than the stack: a parse error, and a flat reading
        walker.error = walker.deep = True
        flat = flat_walk(text, depth, span)
        if flat is not None and flat.commands:
            walker = flat
    error = walker.error or tree.root_node.has_error
    commands = walker.commands
    if (
        tree.root_node.has_error
        and select is None  # (a file scan's script: bash would stop at the error too)
        and not walker.deep
        and len(text) <= _RESCUE_UP_TO
    ):
        commands = commands + rescued(text, depth, span, commands)
    return Script(tuple(commands), tuple(walker.functions), error, deep=walker.deep)


_RESCUE_UP_TO = 1 << 20  # characters: a longer text that does not parse is not read twice


def parse(text: str, select: Any = None) -> Script:
    """Parse a command line or script (the last result is cached: several rules ask)."""
    global _CACHE, _SELECTED
    if select is not None:
        if _SELECTED is not None and _SELECTED[1] is select and _SELECTED[0] == text:
            return _SELECTED[2]
        script = parse_script(text, select=select)
        _SELECTED = (text, select, script)
        return script
    if _CACHE is not None and _CACHE[0] == text:
        return _CACHE[1]
    script = parse_script(text)
    _CACHE = (text, script)
    return script
