"""The sinks of the JS/TS analysis as a text shows them, for the gates of js_gates.py: query
calls and their first argument, HTTP responses and what they are given. Each is asked, with
js_reach.py, whether a value the check reports could reach it; a file where no sink could
receive one is not parsed.

A sink is found by its name as code_js.py and js_sinks.py know it (`.query(`, `.json(`,
`new HttpException(`, `ctx.body =`), also under a local name given by an import, a
destructuring or promisify (`import { query as q }`). Whatever cannot be read (type arguments
that do not close, an argument list that does not end) counts as a sink that could receive
the value.
"""

from __future__ import annotations

import re

from wukong_lint.checks import js_reach
from wukong_lint.checks import js_values as V


def _words(names: frozenset[str] | set[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


# -- SQL -------------------------------------------------------------------------------------
_SQL_MEMBER_NAMES = V.SQL_METHODS | V.CONDITION_METHODS
_SQL_MEMBER = re.compile(r"\.\s*(" + _words(_SQL_MEMBER_NAMES) + r")(?![\w$])")
_SQL_NAMES = _SQL_MEMBER_NAMES | V.SQL_FUNCTIONS
_RECEIVER = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*(?:\?\s*)?\Z")

# -- responses -------------------------------------------------------------------------------
_RESPONSE_MEMBER = re.compile(r"\.\s*(" + _words(V.RESPONSE_METHODS | {"throw"}) + r")(?![\w$])")
_HTML_MEMBER = frozenset({"send", "write", "end"})
_CONSTRUCTOR_NAMES = (
    frozenset(name.rsplit(".", 1)[-1] for name in V.RESPONSE_CONSTRUCTORS) | V.RESPONSE_EXCEPTIONS
)
_CONSTRUCTOR = re.compile(r"(?<![\w$])(" + _words(_CONSTRUCTOR_NAMES) + r")(?![\w$])")
_NEW = re.compile(r"\bnew\s+([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)")
_BODY = re.compile(r"\.\s*body\s*(?:\+|-|\*\*|\*|/|%|<<|>>>|>>|&&|\|\||\?\?|&|\||\^)?=(?![=>])")

# -- local names ----------------------------------------------------------------------------
_RENAME = r"(?<![\w$])(?:{names})\s*(?:\bas\b|:)\s*([A-Za-z_$][\w$]*)"
_PROMISIFY = re.compile(r"([A-Za-z_$][\w$]*)\s*=\s*[\w$.]*promisify\s*\(\s*([^()]*)\)")
_MODULE = re.compile(
    r"(?:\bimport\s+(?:\*\s*as\s+)?|\b(?:const|let|var)\s+)([A-Za-z_$][\w$]*)\s*"
    r"(?:from|=\s*require\s*\()\s*['\"]([^'\"\n]*)['\"]"
)
_RENAMES: dict[frozenset[str], re.Pattern[str]] = {}


def local_names(text: str, names: frozenset[str]) -> set[str]:
    """Names this text gives to one of `names` (`import { query as q }`, `{ query: q } =`,
    `q = promisify(db.query)`, `import q from "query"`)."""
    pattern = _RENAMES.get(names)
    if pattern is None:
        pattern = _RENAMES[names] = re.compile(_RENAME.format(names=_words(names)))
    found = {m.group(1) for m in pattern.finditer(text)}
    for match in _PROMISIFY.finditer(text):
        if any(word in names for word in js_reach.names(match.group(2))) or any(
            part in names for part in re.findall(r"[\w$]+", match.group(2))
        ):
            found.add(match.group(1))
    for match in _MODULE.finditer(text):
        if match.group(2).rsplit(".", 1)[-1] in names:
            found.add(match.group(1))
    return found


# -- reading a call ----------------------------------------------------------------------------
_UNREADABLE = -1


def _arguments_start(text: str, at: int) -> int | None:
    """After a callee's name ending at `at`: where its argument list starts (after `(`), None
    when no call follows, _UNREADABLE when type arguments cannot be read."""
    n = len(text)
    i = at
    while i < n and text[i] in " \t\r\n":
        i += 1
    if text.startswith("?.", i):
        i += 2
        while i < n and text[i] in " \t\r\n":
            i += 1
    if i < n and text[i] == "<":  # type arguments: query<Row[]>(...)
        depth = 0
        end = min(n, i + 400)
        while i < end:
            c = text[i]
            if c == "<":
                depth += 1
            elif c == ">" and text[i - 1] != "=":
                depth -= 1
                if depth == 0:
                    break
            elif c in ";":
                return None
            i += 1
        else:
            return _UNREADABLE
        i += 1
        while i < n and text[i] in " \t\r\n":
            i += 1
    if i < n and text[i] == "(":
        return i + 1
    return None


def _reaches(text: str, start: int | None, sort: str, first_only: bool) -> bool:
    """Whether the argument list at `start` could hold a value of `sort`."""
    if start is None:
        return False
    if start == _UNREADABLE:
        return True
    read = js_reach.span(text, start, stop_comma=first_only, statement=False)
    if read is None:
        return True
    code = read[1]
    return bool(code.strip()) and js_reach.could(text, code, sort)


# -- the questions ---------------------------------------------------------------------------
def query_formatted(text: str) -> bool:
    """Whether a query call (code_js's `sql` check) could be given formatted text."""
    for match in _SQL_MEMBER.finditer(text):
        name = match.group(1)
        if name in V.SQL_METHODS and name not in V.RAW_SQL_METHODS:
            receiver = _RECEIVER.search(text, max(0, match.start() - 60), match.start())
            if receiver is not None and receiver.group(1) in V.NOT_SQL_RECEIVERS:
                back = receiver.start() - 1
                while back >= 0 and text[back] in " \t\r\n":
                    back -= 1
                if back < 0 or text[back] != ".":
                    continue  # router.get(...), res.json(...): no database call
        if _reaches(text, _arguments_start(text, match.end()), "fmt", True):
            return True
    bare = set(V.SQL_FUNCTIONS) | local_names(text, _SQL_NAMES)
    pattern = re.compile(r"(?<![\w$.])(" + _words(bare) + r")(?![\w$])")
    for match in pattern.finditer(text):
        if _reaches(text, _arguments_start(text, match.end()), "fmt", True):
            return True
    return False


def response_holds(text: str, sort: str) -> bool:
    """Whether an HTTP response could be given a value of `sort`: "err" (an error, its text or
    stack), "env" (the environment) for every response; "req" (request data) for the bodies
    sent as HTML (`send`, `write`, `end`, `ctx.body =`)."""
    html = sort == "req"
    for match in _RESPONSE_MEMBER.finditer(text):
        if html and match.group(1) not in _HTML_MEMBER:
            continue
        if _reaches(text, _arguments_start(text, match.end()), sort, False):
            return True
    for match in _BODY.finditer(text):
        read = js_reach.span(text, match.end(), stop_comma=False, statement=True)
        if read is None or js_reach.could(text, read[1], sort):
            return True
    if html:
        return False
    for match in _CONSTRUCTOR.finditer(text):
        if _reaches(text, _arguments_start(text, match.end()), sort, False):
            return True
    aliases = None
    for match in _NEW.finditer(text):
        parts = [p.strip() for p in match.group(1).split(".")]
        if parts[-1] not in _CONSTRUCTOR_NAMES:
            if aliases is None:
                aliases = local_names(text, _CONSTRUCTOR_NAMES)
            if parts[0] not in aliases:
                continue
        if _reaches(text, _arguments_start(text, match.end()), sort, False):
            return True
    return False
