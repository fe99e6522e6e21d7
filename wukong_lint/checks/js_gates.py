"""Cheap text tests that prove a check of code_js.py cannot report anything in a file, so that
the file is not parsed for it (the same gates-before-parsing design as python_gates.py).

A rule's keywords (rules/code/javascript.yaml) already limit the files looked at to those
naming a sink; each gate below also asks for what the analysis needs to report the check at
all: a value that is not a literal can only reach a sink in a file that builds strings
(`+`, `${`, `format`) or names a variable, so the gates look for the sink's name and, where a
sink is common in harmless code (`.query(`, `.get(`, `.exec(`), for the signs of a query built
at run time. A gate must only answer False when the check surely finds nothing: when in
doubt, it answers True.
"""

from __future__ import annotations

import re
from typing import Any

# a query's text is built at run time: concatenation, a template substitution, format
_FORMATTING = ("${", "+", "format(", "concat(", "join(")
_SQL_WORDS = re.compile(
    r"(?i)\b(?:select|insert|update|delete|where|values|from|order\s+by|group\s+by|limit|join"
    r"|union|having|create|drop|alter|replace|merge|truncate|pragma|grant)\b"
)
_RAW_SQL = ("raw(", "rawunsafe", "raw (", "unsafe(")
_SHELL = ("exec", "spawn", "execa", "shell")
_HTML = (
    "innerhtml", "outerhtml", "insertadjacenthtml", "document.write", "dangerouslysetinnerhtml",
    ".html(", ".append(", ".prepend(", ".after(", ".before(", ".replacewith(", "v-html",
    "srcdoc", "bypasssecuritytrust",
)  # fmt: skip
_REFLECTED = (".send(", ".write(", ".end(", ".body")
_EVAL = ("eval", "function(", "function (", "runin", "compilefunction", "script(", "settimeout",
         "setinterval", "setimmediate", "execscript")  # fmt: skip
_RESPONSE = (".send", ".json", ".jsonp", ".end(", ".end (", ".write", ".render", "body",
             "response", "throw(", "reply", "exception(")  # fmt: skip


def _lower(text: str) -> str:
    if _memo[0] is not text:
        _memo[0], _memo[1], _memo[2] = text, text.lower(), {}
    return _memo[1]


_memo: list[Any] = [None, "", {}]


def _sql(lowered: str) -> bool:
    if not any(sign in lowered for sign in _FORMATTING):
        return False
    return any(word in lowered for word in _RAW_SQL) or _SQL_WORDS.search(lowered) is not None


def _shell(lowered: str) -> bool:
    return any(word in lowered for word in _SHELL)


def _html(lowered: str) -> bool:
    if any(word in lowered for word in _HTML):
        return True
    # text built from request data and sent as a response body
    return "req" in lowered and any(w in lowered for w in _REFLECTED)


def _eval(lowered: str) -> bool:
    return any(word in lowered for word in _EVAL)


def _stack(lowered: str) -> bool:
    return ".stack" in lowered and any(word in lowered for word in _RESPONSE)


def _error_text(lowered: str) -> bool:
    return ("catch" in lowered or "err" in lowered) and any(w in lowered for w in _RESPONSE)


def _environment(lowered: str) -> bool:
    return "process.env" in lowered and any(word in lowered for word in _RESPONSE)


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
    lowered = _lower(text)
    known = _memo[2].get(check)
    if known is None:
        gate = GATES.get(check)
        known = _memo[2][check] = True if gate is None else gate(lowered)
    return known
