"""Whether a value of some sort could reach a sink's arguments: a look at the text, for the gates
of js_gates.py, that lets most files with a sink but nothing dangerous in it go unparsed.

The analysis of code_js.py reports a sink (a query call, a response) only when what its
arguments are known to be carries a flag: formatted text (`sql`), a caught error (`error-text`,
`stack-trace`), the process environment (`environment`), request data (`html` of a response).
A flag starts at a few places the text shows (a `+`, a `${`, a `catch (e)`, `process.env`,
`req`) and travels only through names bound with `=`. So, from each sink's argument text:
the argument holds a starting point, or one of its names is assigned (anywhere in the file,
in any function: a superset of the analysis's scopes) from a text that does, followed name
to name. Anything this look cannot read (an unbalanced bracket, a huge argument, type
arguments, a name passed on under another name) answers "could": a gate may let a harmless
file through, never turn away one the analysis reports.

Every step is a regex search or a slice of the text; no syntax tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

# An argument or right-hand side longer than this is not read (answered "could").
_MAX_SPAN = 6000
_MAX_NAMES = 400  # names followed per question before giving up (answered "could")

_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
# what ends or opens a bracket, or starts a string or comment, in a scan forward
_SPECIAL = re.compile(r"""[()\[\]{}'"`;,\n/]""")
_STRING_END = {"'": re.compile(r"['\\\n]"), '"': re.compile(r'["\\\n]')}
_TEMPLATE_STOP = re.compile(r"[`\\]|\$\{")
_OPEN = "([{"
_CLOSE = ")]}"
# an assignment's `=` (not `==`, `=>`, `<=`, `>=`, `!=`); the name before it is read by hand
_EQUALS = re.compile(r"=(?![=>])")  # (a `=` after `=` or `!` is checked by hand)
_COMPOUND = frozenset("+-*/%&|^?")
# a declaration with a type annotation the pattern above does not read (`const f: () => T =`)
# (no pattern here starts with \b or a look-behind: Python's re then tries every position;
# whether a match starts a name is checked by hand, with starts_name)
_TYPED_DECLARATION = re.compile(r"(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*:")
_CATCH = re.compile(r"catch\s*\(\s*([A-Za-z_$][\w$]*)")
# a line ending so that the expression goes on to the next one, or a line going on with one
_CONTINUES_AFTER = frozenset("=+-*/%&|^!~?:,.([{<>")
_CONTINUES_BEFORE = frozenset(".?:+-*/%&|^,([<>=`")

# -- where a flag starts ----------------------------------------------------------------------
# formatted text: `+`, `${`, util.format, a string method of code_js (concat, join, replace...)
FMT_START = re.compile(
    r"\+|\$\{|format\b|\.\s*(?:trim|trimStart|trimEnd|toLowerCase|toUpperCase|slice"
    r"|substring|substr|padStart|padEnd|concat|replace|replaceAll|normalize|toString|repeat"
    r"|join|split|at|charAt|toLocaleLowerCase|toLocaleUpperCase|reverse|filter|sort|flat)\b"
)
# the whole environment (`process.env`, not one of its variables `process.env.HOME`)
_ENV_START = re.compile(r"env(?![\w$])(?!\s*(?:\?\s*)?\.\s*[\w$]|\s*\[)")
# request data: Koa's ctx.query and the like (req and request are names, see _SEEDS)
_REQ_START = re.compile(
    r"(?:ctx|context)\s*\.\s*(?:query|params|request|body|headers|cookies|path|url)\b"
)
_ERROR_NAMES = frozenset(
    {"err", "error", "e", "ex", "exc", "exception", "er", "error_", "_err", "_error", "caught",
     "reason"}
)  # fmt: skip


# words of the language, never bound with `=` (not followed: nothing to find)
KEYWORDS = frozenset(
    {"await", "new", "typeof", "void", "delete", "this", "null", "true", "false", "undefined",
     "in", "of", "instanceof", "function", "return", "async", "yield", "class", "super", "as",
     "satisfies", "const", "let", "var", "if", "else"}
)  # fmt: skip


class _Text:
    """One text's indexes, made on first use: where names are bound, and answers so far."""

    __slots__ = ("answers", "assignments", "catches", "memo", "text", "values")

    def __init__(self, text: str) -> None:
        self.text = text
        self.assignments: dict[str, list[tuple[int, bool]]] | None = None
        self.catches: frozenset[str] | None = None
        self.answers: dict[tuple[str, str], bool] = {}  # (sort, name) -> could it hold one
        self.values: dict[int, str | None] = {}  # where a bound value starts -> its code
        self.memo: dict[Any, Any] = {}  # answers of js_sites.py for this text

    def bindings(self) -> dict[str, list[tuple[int, bool]]]:
        """Name -> (where its assigned value starts, whether a compound assignment)."""
        if self.assignments is None:
            found: dict[str, list[tuple[int, bool]]] = {}
            text = self.text
            for match in _EQUALS.finditer(text):
                at = match.start()
                if at and text[at - 1] in "=!":
                    continue
                for name, compound in _assigned(text, at):
                    found.setdefault(name, []).append((match.end(), compound))
            for match in _TYPED_DECLARATION.finditer(text):
                if not starts_name(text, match.start()):
                    continue
                start = _typed_value(text, match.end())
                if start is not None:
                    found.setdefault(match.group(1), []).append((start, False))
            self.assignments = found
        return self.assignments

    def caught(self) -> frozenset[str]:
        if self.catches is None:
            text = self.text
            self.catches = frozenset(
                m.group(1) for m in _CATCH.finditer(text) if starts_name(text, m.start())
            )
        return self.catches


_current: list[Any] = [None]


def starts_name(text: str, at: int, dot: bool = True) -> bool:
    """Whether `at` starts a name (no name character before it; nor a `.` unless `dot`)."""
    if not at:
        return True
    before = text[at - 1]
    return not (before.isalnum() or before in "_$" or (not dot and before == "."))


def state(text: str) -> _Text:
    """The indexes of `text` (kept for the last text asked about)."""
    return _state(text)


def _state(text: str) -> _Text:
    state = _current[0]
    if state is None or state.text is not text:
        state = _current[0] = _Text(text)
    return state


def _assigned(text: str, at: int) -> list[tuple[str, bool]]:
    """The names bound by the `=` at `at`, with whether it is a compound assignment (`+=`):
    `name =`, `name += `, and the name of `name: Type =` (`b` of `let a: A = 1, b: B = 2`).
    A member (`a.b =`), an element (`a[i] =`) or a pattern (`{ a } =`) binds no name."""
    i = at - 1
    compound = False
    before = text[i] if i >= 0 else ""
    if before in "<>":  # <<= >>= >>>=; a lone < or > makes <= or >=, no assignment
        if text[i - 1 : i + 1] not in ("<<", ">>"):
            return []
        while i >= 0 and text[i] in "<>":
            i -= 1
        compound = True
    while i >= 0 and text[i] in _COMPOUND:
        i -= 1
        compound = True
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    found = []
    for _ in range(2):
        if i < 0 or not (text[i].isalnum() or text[i] in "_$"):
            break
        start = i
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_$"):
            start -= 1
        name = text[start : i + 1]
        j = start - 1
        while j >= 0 and text[j] in " \t\r\n":
            j -= 1
        if not name or name[0].isdigit() or (j >= 0 and text[j] == "." and text[j - 1 : j] != "."):
            break  # a number, or a property (`a.b =`; `...b` is no property)
        found.append((name, compound))
        if j < 0 or text[j] != ":":
            break
        i = j - 1  # `name: Type =`: the name is before the colon
        while i >= 0 and text[i] in " \t\r\n":
            i -= 1
    return found


def _typed_value(text: str, at: int) -> int | None:
    """Where the value of `const x: Type = value` starts (after its `=`), or None."""
    depth = 0
    end = min(len(text), at + _MAX_SPAN)
    i = at
    while i < end:
        c = text[i]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth < 0:
                return None
        elif c == "=":
            nxt = text[i + 1 : i + 2]
            if nxt in ("=", ">"):
                i += 2
                continue
            if depth == 0 and text[i - 1] not in "!<>=":
                return i + 1
        elif c in ";" and depth == 0:
            return None
        i += 1
    return None


def span(text: str, start: int, *, stop_comma: bool, statement: bool) -> tuple[int, str] | None:
    """The code from `start` to the end of an argument list (the `)` closing it: `statement`
    False) or of an expression statement's value (`statement` True), with string literals
    blanked and template literals kept only for their `${...}` parts; with `stop_comma`, up
    to the first top-level comma too. None when it cannot be read within _MAX_SPAN, or once
    the spans read of this text add up to several times its size (`x.json(x.json(...` nested
    deep: each sink's span would be read to the cap)."""
    state = _state(text)
    budget = state.memo.get("budget")
    if budget is None:
        budget = state.memo["budget"] = [4 * len(text) + 65536]
    if budget[0] <= 0:
        return None
    found = _span(text, start, stop_comma, statement)
    budget[0] -= (found[0] if found is not None else min(len(text), start + _MAX_SPAN)) - start
    return found


def _span(text: str, start: int, stop_comma: bool, statement: bool) -> tuple[int, str] | None:
    out: list[str] = []
    depth = 0
    i = start
    limit = min(len(text), start + _MAX_SPAN)
    templates: list[int] = []  # depth at which each open `${` of a template literal started
    while i < limit:
        match = _SPECIAL.search(text, i, limit)
        if match is None:
            return None
        j = match.start()
        c = text[j]
        out.append(text[i:j])
        i = j + 1
        if c in "'\"":
            close = _skip_string(text, i, c, limit)
            if close is None:
                return None
            out.append(" ")
            i = close
        elif c == "`":
            close = _skip_template(text, i, limit, templates, depth)
            if close is None:
                return None
            i, inside = close
            if inside:  # inside a `${`: code until its `}` (kept, marked as formatting)
                depth += 1
                out.append(" ${")
            else:
                out.append(" ")
        elif c == "/":
            nxt = text[i : i + 1]
            if nxt == "/":
                newline = text.find("\n", i, limit)
                if newline < 0:
                    return None
                i = newline
            elif nxt == "*":
                close_at = text.find("*/", i + 1, limit)
                if close_at < 0:
                    return None
                i = close_at + 2
            else:
                out.append(c)
        elif c in _OPEN:
            depth += 1
            out.append(c)
        elif c in _CLOSE:
            if templates and c == "}" and templates[-1] == depth - 1:
                # the `}` of a template's `${`: the template's text goes on
                templates.pop()
                depth -= 1
                close = _skip_template(text, i, limit, templates, depth)
                if close is None:
                    return None
                i, inside = close
                if inside:
                    depth += 1
                    out.append("} ${")
                else:
                    out.append("} ")
                continue
            depth -= 1
            if depth < 0:
                return j, "".join(out)
            out.append(c)
        elif depth == 0 and ((c == "," and stop_comma) or (c == ";" and statement)):
            return j, "".join(out)
        elif c == "\n" and depth == 0 and statement:
            if not _goes_on(text, j, limit):
                return j, "".join(out)
            out.append(c)
        else:
            out.append(c)
    return None


def _skip_string(text: str, at: int, quote: str, limit: int) -> int | None:
    pattern = _STRING_END[quote]
    while True:
        match = pattern.search(text, at, limit)
        if match is None or match.group() == "\n":
            return None
        if match.group() == "\\":
            at = match.end() + 1
            continue
        return match.end()


def _skip_template(
    text: str, at: int, limit: int, templates: list[int], depth: int
) -> tuple[int, bool] | None:
    """Past a template literal's text from `at`: (where, True) at a `${`, whose depth is
    pushed on `templates`; (after the closing backtick, False) at its end."""
    while True:
        match = _TEMPLATE_STOP.search(text, at, limit)
        if match is None:
            return None
        stop = match.group()
        if stop == "\\":
            at = match.end() + 1
            continue
        if stop == "`":
            return match.end(), False
        templates.append(depth)
        return match.end(), True


def _goes_on(text: str, newline: int, limit: int) -> bool:
    """Whether an expression goes on past the line break at `newline`."""
    back = newline - 1
    while back >= 0 and text[back] in " \t\r":
        back -= 1
    if back >= 0 and text[back] in _CONTINUES_AFTER:
        return True
    ahead = _NONSPACE.search(text, newline, limit)
    if ahead is None:
        return True
    first = ahead.start()
    if text[first] in _CONTINUES_BEFORE:
        return text[first : first + 2] not in ("++", "--")
    word = _IDENT.match(text, first)
    return word is not None and word.group() in ("instanceof", "in", "as", "satisfies")


_NONSPACE = re.compile(r"\S")
_SPACE = " \t\r\n"


def names(code: str) -> Iterable[str]:
    """The variables `code` reads: names neither a property (`.name`, not `...name`) nor an
    object key (`{ name: ...`)."""
    for match in _IDENT.finditer(code):
        back = match.start() - 1
        while back >= 0 and code[back] in _SPACE:
            back -= 1
        before = code[back] if back >= 0 else ""
        if before == "." and not (back >= 2 and code[back - 2 : back + 1] == "..."):
            continue
        if before in ("{", ","):
            ahead = _NONSPACE.search(code, match.end())
            if ahead is not None and ahead.group() == ":":
                continue
        yield match.group()


# -- the question -----------------------------------------------------------------------------
_STARTS = {"fmt": FMT_START, "env": _ENV_START, "req": _REQ_START}


def _seeds(state: _Text, sort: str) -> frozenset[str]:
    if sort == "err":
        seeds = state.memo.get("err-seeds")
        if seeds is None:
            seeds = state.memo["err-seeds"] = _ERROR_NAMES | state.caught()
        return seeds
    if sort == "req":
        return frozenset({"req", "request"})
    return frozenset()


def anywhere(text: str, sort: str) -> bool:
    """False when no value of `sort` starts anywhere in `text` (the environment, which has
    no name to start from, is never read); True otherwise."""
    if sort == "env":
        return _starts(_ENV_START, text)
    return True


def _starts(pattern: re.Pattern[str], code: str) -> bool:
    """Whether `pattern` matches in `code` where a name starts (or at a symbol: `+`, `${`)."""
    for match in pattern.finditer(code):
        at = match.start()
        if not code[at].isalpha() or starts_name(code, at):
            return True
    return False


def could(text: str, code: str, sort: str) -> bool:
    """Whether `code` (an argument's text, read by `span`) could hold a value of `sort`
    ("fmt", "err", "env", "req") in the analysis of `text`."""
    state = _state(text)
    start = _STARTS.get(sort)
    seeds = _seeds(state, sort)
    budget = [_MAX_NAMES]
    seen: set[str] = set()
    if _could(state, code, sort, start, seeds, seen, budget):
        return True
    # nothing reachable from `code` holds one: neither does anything reachable from the
    # names followed on the way
    for name in seen:
        state.answers[(sort, name)] = False
    return False


def _could(state: _Text, code: str, sort: str, start: Any, seeds: frozenset[str],
           seen: set[str], budget: list[int]) -> bool:  # fmt: skip
    if start is not None and _starts(start, code):
        return True
    for name in names(code):
        if name in seeds:
            return True
        if name in seen or name in KEYWORDS:
            continue
        seen.add(name)
        known = state.answers.get((sort, name))
        if known is None:
            budget[0] -= 1
            if budget[0] < 0:
                return True
            known = _bound_to(state, name, sort, start, seeds, seen, budget)
            if known:  # (False may depend on the names being followed: kept by `could`)
                state.answers[(sort, name)] = True
        if known:
            return True
    return False


def _bound_to(state: _Text, name: str, sort: str, start: Any, seeds: frozenset[str],
              seen: set[str], budget: list[int]) -> bool:  # fmt: skip
    values = state.values
    for at, compound in state.bindings().get(name, ()):
        if compound and sort == "fmt":
            return True  # name += value: text built at run time
        code = values.get(at, "")
        if code == "":
            read = span(state.text, at, stop_comma=True, statement=True)
            code = values[at] = None if read is None else read[1] or " "
        if code is None:
            return True
        if _could(state, code, sort, start, seeds, seen, budget):
            return True
    return False
