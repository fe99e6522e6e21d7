"""The `python` rule kind's matcher: a text analysed once (analysis.py's `Analyser` over the
whole text, or over the skeleton of the functions that hold a trigger keyword), then each
rule's check read off the hits; `prepare` analyses a unit before its rules ask.
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from wukong_lint.code.python.analysis import Analyser, _line_starts
from wukong_lint.code.python.gates import lower as _lower
from wukong_lint.code.python.gates import possible as _possible
from wukong_lint.code.python.gates import wanted as _wanted
from wukong_lint.code.python.skeleton import Skeleton, has_keyword, skeleton
from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit


class Analysis(NamedTuple):
    """The hits of every check on one text, and what was parsed to find them."""

    hits: dict[str, list[tuple[int, int]]] | None  # check -> (line, byte column); None: no parse
    skeleton: Skeleton | None  # None: the whole text was parsed
    starts: list[int]  # line start offsets of the text


_cache: list[Any] = [None, None]  # (text, Analysis)


def _parse(path: str, text: str) -> ast.Module | None:
    try:
        return ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _hits(
    path: str,
    text: str,
    tree: ast.Module,
    defined: set[str] | None = None,
    debug_words: bool = True,
    quoting: bool = True,
) -> dict[str, list[tuple[int, int]]]:
    """The hits in a parsed text; `text` (for skipping quiet functions) may be "" when every
    function in the tree is known to hold a trigger (a skeleton), and then `defined` names
    the module's top-level classes and functions, blanked ones included."""
    analyser = Analyser(path, text, debug_words, quoting)
    if defined:
        analyser.defined.update(defined)
    with contextlib.suppress(RecursionError):  # nested too deep: the hits found so far
        analyser.visit(tree)
    # one hit per check and line (`return jsonify(str(e))` is a return and a response)
    first: dict[tuple[str, int], int] = {}
    for check, line, column in analyser.hits:
        key = (check, line)
        if key not in first or column < first[key]:
            first[key] = column
    result: dict[str, list[tuple[int, int]]] = {}
    for (check, line), column in first.items():
        result.setdefault(check, []).append((line, column))
    return result


def analyse(path: str, text: str, offsets: list[int] | None = None, keep: Any = None) -> Analysis:
    """The hits of every check on a Python text. With `offsets` (where trigger keywords end),
    only module-level code and the functions holding a trigger (that `keep(start, end)`
    accepts, when given) are parsed; the whole text is parsed when that skeleton does not
    parse, and when the text does not parse either the hits are None."""
    if _cache[0] is text:
        return _cache[1]
    starts = _line_starts(text)
    shape = None
    tree = None
    if offsets is not None:
        shape = skeleton(text, offsets, starts, keep)
        tree = _parse(path, shape.text)
        if tree is None:
            shape = None
    if tree is None:
        tree = _parse(path, text)
    # a skeleton keeps only functions with a trigger: no need to look for quiet ones in it
    debug_words = "debug" in _lower(text)
    quoting = "quote" in _lower(text) or "shlex" in _lower(text)
    if tree is None:
        hits = None
    elif shape is None:
        hits = _hits(path, text, tree, None, debug_words, quoting)
    else:
        defined = {m.group(1) for m in _TOP_LEVEL_NAME.finditer("\n" + text)}
        hits = _hits(path, "", tree, defined, debug_words, quoting)
    analysis = Analysis(hits, shape, starts)
    _cache[0], _cache[1] = text, analysis
    return analysis


# the top-level classes and functions of a module (a skeleton blanks most of them)
# (from a newline: the regex engine finds those far faster than a `^` anchor)
_TOP_LEVEL_NAME = re.compile(r"\n(?:class|def|async[ \t]+def)[ \t]+(\w+)")


def _in_function(rule: CompiledRule, offsets: list[int], text: str, start: int, end: int) -> bool:
    """Whether the function text[start:end] holds a keyword of `rule` (and one of its
    `function_requires_any` words, when it has some)."""
    if not has_keyword(offsets, start, end):
        return False
    words = (rule.params or {}).get("function_requires_any")
    if not words:
        return True
    lowered = _lower(text)
    return any(lowered.find(word, start, end) >= 0 for word in words)


def prepare(unit: Unit, batch: list[tuple[CompiledRule, list[int] | None]]) -> None:
    """Analyse a text once for all the rules of this kind that will run on it: the skeleton
    keeps the functions holding a keyword of any of them."""
    text = unit.text
    # (the cheap gates first: most files fail them, and then their words need no search)
    if not any(_possible(rule, text) and _wanted(rule, text) for rule, _ in batch):
        return  # nothing to find: no parse (match_python asks the same)
    wanted = [(rule, offsets) for rule, offsets in batch if _wanted(rule, text)]
    # (the skeleton still keeps the functions of every wanted rule: what a rule finds is the
    # same whether the other rules' checks are possible or not)
    if any(offsets is None for _, offsets in wanted):
        analyse(unit.path, text)
        return
    merged = sorted({o for _, offsets in wanted for o in offsets})  # type: ignore[union-attr]

    def keep(start: int, end: int) -> bool:
        return any(_in_function(r, o, text, start, end) for r, o in wanted)  # type: ignore[arg-type]

    analyse(unit.path, text, merged, keep)


def match_python(rule: CompiledRule, unit: Unit, offsets: list[int] | None) -> Iterator[Hit]:
    check = (rule.params or {}).get("check", "")
    text = unit.text
    if not _possible(rule, text) or not _wanted(rule, text):
        return
    analysis = analyse(unit.path, text, offsets)
    if analysis.hits is None:
        from wukong_lint.code.python.lines import fallback_hits

        yield from fallback_hits(check, text)
        return
    spots = analysis.hits.get(check)
    if not spots:
        return
    starts = analysis.starts
    shape = analysis.skeleton
    for line, column in spots:
        if not 0 < line <= len(starts):
            continue
        start = starts[line - 1]
        if shape is not None and offsets is not None:
            # only in the functions that hold this rule's own keywords (the skeleton may keep
            # more for other rules): what a rule reports never depends on the other rules
            piece = shape.piece_at(start)
            if (
                piece
                and piece.function
                and not _in_function(rule, offsets, text, piece.start, piece.end)
            ):
                continue
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        prefix = text[start:end].encode("utf-8", "surrogatepass")[:column]
        at = start + len(prefix.decode("utf-8", "ignore"))
        yield Hit(at, end, at, end)


match_python.prepare = prepare  # type: ignore[attr-defined]
