"""Cheap text tests that prove a check of code_js.py cannot report anything in a file, so that
the file is not parsed for it (the same gates-before-parsing design as python_gates.py).

A rule's keywords (rules/code/javascript.yaml) already limit the files looked at to those
naming a sink, but sink names are common words in harmless code (`.get(`, `.exec(`, `catch`,
`.write(`). Each gate below asks for what the analysis needs to report its check at all: SQL
text in a string, a shell-running call, an HTTP response, code run from a string. A gate
answers False only when the check surely finds nothing in the text: when in doubt, True.
Every test is a substring search or one linear regex over the text.

Past those word tests, the `sql`, response (`error-text`, `stack-trace`, `environment`) and
reflected-HTML gates look at the sinks themselves (js_sites.py): a query call whose first
argument could be formatted text, a response that could be given an error, the environment
or request data, followed through the names bound with `=` (js_reach.py). An Express handler
answering `res.json(item)` with `catch (err) { next(err) }`, or browser code reading
`res.json()` of a fetch, is then not parsed.
"""

from __future__ import annotations

import re
from typing import Any

from wukong_lint.code.js import reach as js_reach
from wukong_lint.code.js import sites as js_sites
from wukong_lint.code.js.syntax import too_big

# a string (quote or backtick) that starts with SQL: a statement or a clause of one
_SQL_TEXT = re.compile(
    r"""["'`]\s*\(?\s*(?:select|insert|update|delete|with|replace|merge|create|drop|alter"""
    r"""|truncate|pragma|where|and|or|order\s+by|group\s+by|limit|offset|set|values|from"""
    r"""|join|left\s+join|inner\s+join|having|union|call|exec)\b""",
    re.IGNORECASE,
)
_RAW_SQL = ("raw(", "rawunsafe", "raw (", "unsafe(", "where(`", "where (`", "having(`")
_FORMATTING = ("${", "+", "format(", "concat(", "join(")
_HTML = (
    "innerhtml", "outerhtml", "insertadjacenthtml", "document.write", "dangerouslysetinnerhtml",
    ".html(", "v-html", "srcdoc", "bypasssecuritytrust",
)  # fmt: skip
_JQUERY = ("$(", "jquery(")
# an HTTP response of a Node framework (Express, Fastify, Koa, hapi, Next.js, NestJS): a
# response object's method, or a name only responses have
_RESPONSE_NAMES = (
    "ctx.body", "ctx.throw", "ctx.res", "context.body", "context.throw", "this.body",
    "Response(", "Response.json", "NextResponse", "HttpResponse", "Exception", "HttpError",
    "createError",
)  # fmt: skip
# a response object's method, also on the next line (`res\n  .status(500)`)
_RESPONSE_OBJECT = re.compile(r"(?:res|reply|resp|response|rep|h)\s*(?:\?\s*)?\.")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$.")
_TIMER_ARGUMENT = re.compile(r"""\s*\(\s*(?:["'`]|[\w$.]+\s*\+|req\b)""")


def _standalone(text: str, word: str, dot: bool = False) -> list[int]:
    """Where `word` starts a name in the text (not inside a longer name or after a `.`,
    unless `dot`): the ends of those occurrences."""
    found = []
    at = text.find(word)
    while at >= 0:
        before = text[at - 1] if at else " "
        if before not in _NAME_CHARS or (dot and before == "."):
            found.append(at + len(word))
        at = text.find(word, at + 1)
    return found


def _called(text: str, end: int) -> bool:
    """Whether a `(` follows `end` (after blanks)."""
    return text[end : end + 64].lstrip().startswith("(")


_ERROR = ("catch", "(err", "(error", "(e)", "(e,", "(ex)", "(ex,", "reason")


def _memo_for(text: str) -> dict[str, Any]:
    if _memo[0] is not text:
        _memo[0], _memo[1], _memo[2] = text, text.lower(), {}
    return _memo[2]


_memo: list[Any] = [None, "", {}]


def _response(text: str) -> bool:
    known = _memo[2].get("_response")
    if known is None:
        known = _memo[2]["_response"] = any(name in text for name in _RESPONSE_NAMES) or any(
            js_reach.starts_name(text, m.start(), dot=False)
            for m in _RESPONSE_OBJECT.finditer(text)
        )
    return known


def _sql(text: str, lowered: str) -> bool:
    if not any(sign in lowered for sign in _FORMATTING) and not js_reach.FMT_START.search(text):
        return False
    if not (any(word in lowered for word in _RAW_SQL) or _SQL_TEXT.search(text) is not None):
        return False
    return _lines_only(text) or js_sites.query_formatted(text)


def _shell(text: str, lowered: str) -> bool:
    if not any(
        word in text for word in ("child_process", "shelljs", "execa", "spawn", "shell:")
    ) and not any(
        _called(text, end) for word in ("exec", "execSync") for end in _standalone(text, word, True)
    ):
        return False
    return _lines_only(text) or js_sites.command_variable(text)


def _html(text: str, lowered: str) -> bool:
    if any(word in lowered for word in _HTML):
        return True
    if any(word in lowered for word in _JQUERY) and any(
        word in lowered
        for word in (".append(", ".prepend(", ".after(", ".before(", ".replacewith(")
    ):
        return True
    # text built from request data (req.query, ctx.query...) sent as a response body
    if not (("req" in lowered or "ctx." in lowered) and _response(text)):
        return False
    return _lines_only(text) or js_sites.response_holds(text, "req")


def _eval(text: str, lowered: str) -> bool:
    if any(name in text for name in ("runIn", "compileFunction", "Script(", "execScript")):
        return True
    for word, dot in (("eval", True), ("Function", False)):
        if any(_called(text, end) for end in _standalone(text, word, dot)):
            return True
    return any(
        _TIMER_ARGUMENT.match(text, end)
        for timer in ("setTimeout", "setInterval", "setImmediate")
        for end in _standalone(text, timer, True)
    )


def _stack(text: str, lowered: str) -> bool:
    if not (".stack" in lowered and _response(text)):
        return False
    return _lines_only(text) or js_sites.response_holds(text, "err")


def _error_text(text: str, lowered: str) -> bool:
    if not (any(word in lowered for word in _ERROR) and _response(text)):
        return False
    return _lines_only(text) or js_sites.response_holds(text, "err")


def _environment(text: str, lowered: str) -> bool:
    if not ("process.env" in lowered and _response(text)):
        return False
    return _lines_only(text) or js_sites.response_holds(text, "env")


def _lines_only(text: str) -> bool:
    """A text checked with line patterns (js_syntax.too_big) keeps the looser gates above: the
    sink-level look of js_sites.py follows the tree analysis, not the line patterns."""
    return too_big(text)


GATES = {
    "sql": _sql,
    "shell": _shell,
    "html": _html,
    "eval": _eval,
    "stack-trace": _stack,
    "error-text": _error_text,
    "environment": _environment,
}


def possible(check: str, text: str) -> bool:
    """False when `check` surely reports nothing in `text` (answered once per text)."""
    memo = _memo_for(text)
    known = memo.get(check)
    if known is None:
        gate = GATES.get(check)
        known = memo[check] = True if gate is None else gate(text, _memo[1])
    return known
