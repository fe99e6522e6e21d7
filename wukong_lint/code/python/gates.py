"""Cheap text tests that prove a check of code_python.py cannot report anything in a file, so
that the file is not parsed for it.

A Python rule's keywords are broad on purpose (`execute`, `environ`, `debug`): most files that
hold one hold nothing the check reports (`os.environ.get("X")`, `logger.debug(...)`,
`self.db.execute(SELECT_ITEM, (item_id,))`). Each gate below looks at the text for what the
analysis needs to report a check at all and answers False only when that is missing. A gate
must be sound for every way the file can be analysed: the syntax tree of the whole file, of a
skeleton (python_skeleton.py keeps a subset of its lines, verbatim) and the line patterns of
code_lines.py when nothing parses. Identifiers outside ASCII are NFKC-normalised by Python
(`ｅnviron` is `environ`), so a text that is not ASCII always passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_WORD = "[A-Za-z0-9_]"
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

# (Patterns start with their literal and the character before it is looked at in Python: a
# pattern that starts with a look-behind or \b is tried at every position of the text.)


def _words(text: str, word: str) -> Iterator[int]:
    """Where `word` stands as a whole identifier in the (ASCII) text."""
    size = len(word)
    at = text.find(word)
    while at >= 0:
        end = at + size
        if (not at or text[at - 1] not in _WORD_CHARS) and text[end : end + 1] not in _WORD_CHARS:
            yield at
        at = text.find(word, end)


def _any_word(text: str, word: str) -> bool:
    return next(_words(text, word), None) is not None


# -- environment: `os.environ` (or an alias of it) as a whole value, or `.copy()`, `.items()`,
# `.keys()`, `.values()` of it. `os.environ["X"]`, `os.environ.get(...)` and any other
# attribute of it are one variable or a lookup, never the environment (Analyser.kinds).
# Only an immediate `[` or `.name` counts as safe: that is a subscript or an attribute of the
# `environ` before it, whatever the code around it; anything else (`environ` at the end of a
# line, in an import, before `)`, `.copy`) passes.
_SAFE_AFTER_ENVIRON = re.compile(rf"\[|\.(?!(?:copy|items|keys|values)(?!{_WORD}))[A-Za-z_]")


def environment(text: str) -> bool:
    if not text.isascii():
        return True
    return any(not _SAFE_AFTER_ENVIRON.match(text, at + 7) for at in _words(text, "environ"))


# -- debug-setting: an assignment of the constant `True` to the name `DEBUG`.


def debug_setting(text: str) -> bool:
    return not text.isascii() or (_any_word(text, "DEBUG") and _any_word(text, "True"))


# -- sql: a call of a database method or function (code_python.SQL_METHODS, SQL_FUNCTIONS)
# whose query is built by formatting. The tree only knows such a call by the name of the method
# or function (or an import alias of one: `from sqlalchemy import text as sa_text`), so every
# call needs that name in the text. A call is harmless when it has no arguments, or when its
# first argument is a bare name that occurs nowhere else in the file (`execute(SELECT_ITEM,
# params)` with SELECT_ITEM imported from elsewhere: nothing in the file can have built it by
# formatting, since a name is marked as formatted only where it is assigned or appended to)
# and no `sql=`, `query=`, `statement=` or `where=` stands inside its brackets (the query
# passed by keyword; brackets holding a string or a comment are taken to run to the end of
# the text). `.extra()` and `RawSQL()` are reported for any non-literal SQL: always possible.
_SQL_NAMES = (
    "execute", "executemany", "executescript", "mogrify", "raw", "extra", "fetch", "fetchrow",
    "fetchval", "fetch_all", "fetch_one", "fetch_val", "read_sql", "read_sql_query", "text",
    "RawSQL", "run",
)  # fmt: skip
_QUERY_KEYWORDS = ("sql", "query", "statement", "where")
_RAW = frozenset({"extra", "RawSQL"})
# what may stand between two tokens: blanks, line breaks (inside brackets), backslash
# continuations, comments (each up to its line break: one way to match, no backtracking)
_GAP_PATTERN = r"(?:[ \t\f\v\r\n\\]|#[^\n]*(?![^\n]))*"
_GAP = re.compile(_GAP_PATTERN)
_ASSIGNED = re.compile(_GAP_PATTERN + "=(?!=)")
_IDENT = re.compile(rf"[A-Za-z_]{_WORD}*")
_ALIAS = re.compile(rf"as(?!{_WORD})")
_DEFINED = re.compile(rf"(?<!{_WORD})(?:def|class)[ \t]+\Z")
_FINDER: list[Any] = []
# `conn.run(`: a connection's name (code_python's RUN_RECEIVER) and a dot before `run`
_RUN_AFTER = re.compile(
    r"(?i)(?<![A-Za-z0-9_])(?:\w*conn\w*|con|db|database|cur|cursor|session|pg\w*|client)"
    r"[ \t]*\.[ \t]*\Z"
)


def _skip(text: str, pos: int) -> int:
    return _GAP.match(text, pos).end()  # type: ignore[union-attr]


def _names(text: str) -> list[tuple[int, int, int]]:
    """(key number, start, end) of every SQL name and query keyword name in the text."""
    if not _FINDER:
        import ahocorasick_rs

        _FINDER.append(ahocorasick_rs.AhoCorasick([*_SQL_NAMES, *_QUERY_KEYWORDS]))
    return _FINDER[0].find_matches_as_indexes(text, overlapping=True)  # type: ignore[no-any-return]


def sql(text: str) -> bool:
    if not text.isascii():
        return True
    first_args: dict[str, int] = {}
    keywords: list[int] = []  # where `query=` and the like stand
    calls: list[tuple[int, int]] = []  # the argument lists of the calls checked below
    for number, start, end in _names(text):
        if (start and text[start - 1] in _WORD_CHARS) or text[end : end + 1] in _WORD_CHARS:
            continue  # part of a longer name
        if number >= len(_SQL_NAMES):  # `query=`: a keyword argument (or an assignment)
            if _ASSIGNED.match(text, end):
                keywords.append(start)
            continue
        name = _SQL_NAMES[number]
        at = _skip(text, end)
        following = text[at : at + 1]
        while following == ")":  # `len(text)`; or a parenthesised callee, `(cur.execute)(q)`
            at = _skip(text, at + 1)
            following = text[at : at + 1]
            if following == "(":
                return True
        if following != "(":
            if _ALIAS.match(text, at):  # `import ... text as sa_text`
                return True
            continue  # not a call: an attribute, a name, a word in a string
        opening = at
        at = _skip(text, at + 1)
        if text.startswith(")", at):
            continue  # no argument: nothing to check
        if _DEFINED.search(text, max(0, start - 16), start):
            # `def fetch(self, ...)`: a definition, not a call, when a parameter follows
            # (what the line patterns for unparsable code look for starts with a quote)
            param = _IDENT.match(text, at)
            after = _skip(text, param.end()) if param else at
            if (param or text.startswith("*", at)) and (
                not param or text[after : after + 1] in (",", ")", ":", "=")
            ):
                continue
            return True
        if name in _RAW:
            return True
        if name == "run" and (
            not _RUN_AFTER.search(text, max(0, start - 80), start)
            or text.startswith(("[", "(", "{", "*", "self", "cls"), at)
            or text[max(0, start - 12) : start].endswith(("subprocess.", "asyncio.", "trio."))
        ):
            # only a method is a query (pg8000's conn.run(sql)): not run(...), not
            # subprocess.run([...]), asyncio.run(main()), Base.run(self)
            continue
        arg = _IDENT.match(text, at)
        if arg is None:
            return True
        after = _skip(text, arg.end())
        if text[after : after + 1] not in (",", ")"):
            return True
        first_args[arg.group()] = first_args.get(arg.group(), 0) + 1
        calls.append((opening, _closing(text, opening)))
    for ident, count in first_args.items():
        # (every occurrence as a substring is one as a word when the counts agree)
        if text.count(ident) != count and sum(1 for _ in _words(text, ident)) != count:
            return True
    return any(opening < at < closing for at in keywords for opening, closing in calls)


_BRACKET = re.compile(r"[()\[\]{}\"'#]")


def _closing(text: str, opening: int) -> int:
    """Where the brackets opened at `opening` close; the end of the text when a string or a
    comment comes first (its brackets are not code: counting them could stop too soon)."""
    depth = 0
    for match in _BRACKET.finditer(text, opening):
        char = match.group()
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if not depth:
                return match.end()
        else:
            break
    return len(text)


# -- reflected-html: request data formatted into a response whose text is HTML. The analysis
# reports a call of an HTML response (code_python.HTML_RESPONSES, by name) or a handler's
# return whose literal text holds markup: a tag (`<p>`, `</b>`, `<div class=`, `<!DOCTYPE`).
# A route's parameters (`"/user/<int:id>"`) are no tags: a `<` after `/` is not counted.
_HTML_RESPONSE_NAMES = ("HttpResponse", "make_response", "HTMLResponse", "Response")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:[\s/>]|$)|<!")


def reflected_html(text: str) -> bool:
    if not text.isascii():
        return True
    for name in _HTML_RESPONSE_NAMES:  # a call of one (`HTTPResponse(` is another name)
        for at in _words(text, name):
            if text.startswith("(", _skip(text, at + len(name))):
                return True
            if _ALIAS.match(text, _skip(text, at + len(name))):
                return True  # `from django.http import HttpResponse as R`
    at = text.find("<")
    while at >= 0:
        if (not at or (text[at - 1] not in _WORD_CHARS and text[at - 1] != "/")) and _TAG.match(
            text, at
        ):
            return True
        at = text.find("<", at + 1)
    return False


# -- version: a version (or platform) value in a response. The analysis reports it only in a
# request handler's return or in a response call (code_python.RESPONSE_CALLS), so a file
# needs a route decorator, a handler taking a request, or such a call.
_HANDLER_SIGNS = ("route(", "@app.", "@router.", "@bp.", "api_view", "@get(", "@post(")
_RESPONSE_CALL_NAMES = (
    "jsonify", "HttpResponse", "JsonResponse", "HttpResponseServerError", "HttpResponseBadRequest",
    "Response", "make_response", "PlainTextResponse", "HTMLResponse", "JSONResponse",
    "StreamingHttpResponse", "render_template", "render", "abort", "HTTPException",
)  # fmt: skip


def version(text: str) -> bool:
    if not text.isascii() or any(sign in text for sign in _HANDLER_SIGNS):
        return True
    return any(
        text.startswith("(", _skip(text, at + len(name)))
        for name in _RESPONSE_CALL_NAMES
        for at in _words(text, name)
    )


# check -> gate; a check without one is always analysed
GATES = {
    "environment": environment,
    "debug-setting": debug_setting,
    "sql": sql,
    "reflected-html": reflected_html,
    "version": version,
}


# -- the gates asked per rule, answered once per text (front.py and analysis.py ask) -------

_lowered: list[Any] = [None, "", {}]  # (text, text.lower(), {requires_any: found})
_FINDERS: dict[tuple[str, ...], Any] = {}
_gated: list[Any] = [None, {}]  # (text, {check: possible})


def lower(text: str) -> str:
    """`text.lower()`, computed once per text for all the rules and checks that ask."""
    if _lowered[0] is not text:
        _lowered[0], _lowered[1], _lowered[2] = text, text.lower(), {}
    return _lowered[1]  # type: ignore[no-any-return]


def wanted(rule: Any, text: str) -> bool:
    """A rule whose `requires_any` words are all missing from the text has nothing to find."""
    requires = (rule.params or {}).get("requires_any")
    if not requires:
        return True
    lowered = lower(text)
    key = tuple(requires)
    known = _lowered[2].get(key)
    if known is None:  # rules share their lists of words: each list is looked for once
        finder = _FINDERS.get(key)
        if finder is None:  # one automaton pass instead of a scan of the text per word
            import ahocorasick_rs

            finder = _FINDERS[key] = ahocorasick_rs.AhoCorasick(list(requires))
        try:
            known = bool(finder.find_matches_as_indexes(lowered))
        except UnicodeEncodeError:  # lone surrogates: the plain way
            known = any(word in lowered for word in requires)
        _lowered[2][key] = known
    return known  # type: ignore[no-any-return]


def possible(rule: Any, text: str) -> bool:
    """False when a cheap look at the text proves that the rule's check cannot report anything
    in it (python_gates.py), on the syntax tree or by the line patterns."""
    check = (rule.params or {}).get("check", "")
    gate = GATES.get(check)
    if gate is None:
        return True
    if _gated[0] is not text:
        _gated[0], _gated[1] = text, {}
    known = _gated[1].get(check)
    if known is None:
        known = _gated[1][check] = gate(text)
    return known  # type: ignore[no-any-return]
