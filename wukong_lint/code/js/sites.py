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
from typing import Any

from wukong_lint.code.js import reach as js_reach
from wukong_lint.code.js import values as V


def _words(names: frozenset[str] | set[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


# -- SQL -------------------------------------------------------------------------------------
_SQL_MEMBER_NAMES = V.SQL_METHODS | V.CONDITION_METHODS
_SQL_MEMBER = re.compile(r"\.\s*(" + _words(_SQL_MEMBER_NAMES) + r")(?![\w$])")
_SQL_NAMES = _SQL_MEMBER_NAMES | V.SQL_FUNCTIONS
_RECEIVER = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*(?:\?\s*)?\Z")

# -- responses -------------------------------------------------------------------------------
# constructors called bare or with `new`, and the methods of those called on their class
# (`Response.json(...)`: a response method like `res.json`)
_CONSTRUCTOR_NAMES = (
    frozenset(n for n in V.RESPONSE_CONSTRUCTORS if "." not in n) | V.RESPONSE_EXCEPTIONS
)
_CLASS_METHODS = frozenset(n.rsplit(".", 1)[1] for n in V.RESPONSE_CONSTRUCTORS if "." in n)
_RESPONSE_MEMBER = re.compile(
    r"\.\s*(" + _words(V.RESPONSE_METHODS | {"throw"} | _CLASS_METHODS) + r")(?![\w$])"
)
_HTML_MEMBER = frozenset({"send", "write", "end"})
# (the names all end so: found by their ends, fast, then read back to their starts)
_CONSTRUCTOR_ENDS = re.compile(r"(?:Exception|Response|HttpError|createError)(?![\w$])")
assert all(n.endswith(("Exception", "Response", "HttpError", "createError"))
           for n in _CONSTRUCTOR_NAMES)  # fmt: skip
_NEW = re.compile(r"new\s+([A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*)")
_BODY = re.compile(r"\.\s*body\s*(?:\+|-|\*\*|\*|/|%|<<|>>>|>>|&&|\|\||\?\?|&|\||\^)?=(?![=>])")

# -- local names ----------------------------------------------------------------------------
_RENAMED = re.compile(r"\s*(?:as\b|:)\s*([A-Za-z_$][\w$]*)")  # after `query`: ` as q`, `: q`
# (the rest of the line: `promisify(require("child_process").exec)` holds parentheses)
_PROMISIFY = re.compile(r"([A-Za-z_$][\w$]*)\s*=\s*[\w$.]*promisify\s*\(([^;\n]*)")
_MODULE = re.compile(
    r"(?:\bimport\s+(?:\*\s*as\s+)?|\b(?:const|let|var)\s+)([A-Za-z_$][\w$]*)\s*"
    r"(?:from|=\s*require\s*\()\s*['\"]([^'\"\n]*)['\"]"
)
_AUTOMATA: dict[frozenset[str], tuple[Any, list[str]]] = {}


def occurrences(text: str, names: frozenset[str]) -> list[tuple[str, int, int]]:
    """(name, start, end) of each of `names` standing as a name of its own in `text` (after a
    `.` too), found in one pass (an Aho-Corasick automaton, as the keyword prefilter's)."""
    memo = js_reach.state(text).memo
    key = ("at", names)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _occurrences(text, names)
    return found


def _occurrences(text: str, names: frozenset[str]) -> list[tuple[str, int, int]]:
    automaton = _AUTOMATA.get(names)
    if automaton is None:
        import ahocorasick_rs

        keys = sorted(names)
        automaton = _AUTOMATA[names] = (ahocorasick_rs.AhoCorasick(keys), keys)
    try:
        hits = automaton[0].find_matches_as_indexes(text, overlapping=True)
    except UnicodeEncodeError:  # lone surrogates: one regex pass instead
        pattern = re.compile("(?=(" + _words(names) + "))")
        hits = [(automaton[1].index(m.group(1)), m.start(), m.start() + len(m.group(1)))
                for m in pattern.finditer(text)]  # fmt: skip
    keys = automaton[1]
    size = len(text)
    found = []
    for number, start, end in hits:
        if end < size and (text[end].isalnum() or text[end] in "_$"):
            continue
        if js_reach.starts_name(text, start):
            found.append((keys[number], start, end))
    return found


def local_names(text: str, names: frozenset[str]) -> set[str]:
    """Names this text gives to one of `names` (`import { query as q }`, `{ query: q } =`,
    `q = promisify(db.query)`, `import q from "query"`)."""
    memo = js_reach.state(text).memo
    found = memo.get(names)
    if found is None:
        found = memo[names] = _local_names(text, names)
    return found


def _local_names(text: str, names: frozenset[str]) -> set[str]:
    found: set[str] = set()
    present = set()
    for name, _, end in occurrences(text, names):
        present.add(name)
        renamed = _RENAMED.match(text, end)
        if renamed is not None:
            found.add(renamed.group(1))
    for match in _PROMISIFY.finditer(text) if "promisify" in text else ():
        if any(word in names for word in js_reach.names(match.group(2))) or any(
            part in names for part in re.findall(r"[\w$]+", match.group(2))
        ):
            found.add(match.group(1))
    quoted = any(f"{n}'" in text or f'{n}"' in text for n in present)
    for match in _MODULE.finditer(text) if quoted else ():
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


def _argument_code(text: str, start: int | None, first_only: bool) -> str | None:
    """The code of the argument list at `start` ("" for no call or no argument), None when it
    cannot be read."""
    if start is None:
        return ""
    if start == _UNREADABLE:
        return None
    close = text.find(")", start, start + 120)
    if close >= 0 and _PLAIN.fullmatch(text, start, close):
        return text[start:close]  # `(item)`, `(err.message)`: nothing to read past
    read = js_reach.span(text, start, stop_comma=first_only, statement=False)
    return None if read is None else read[1]


# an argument list with no bracket, string, comment, comma or line break before its `)`
_PLAIN = re.compile(r"[^()\[\]{}'\"`/;,\n]*")


class _Sinks:
    """What a text gives its sinks of one family: the code of their arguments joined (one
    question to js_reach.py for them all: a value reaches one sink or another alike), or
    None when one of them cannot be read."""

    __slots__ = ("codes", "unreadable")

    def __init__(self) -> None:
        self.codes: list[str] = []
        self.unreadable = False

    def add(self, code: str | None) -> None:
        if code is None:
            self.unreadable = True
        elif code.strip():
            self.codes.append(code)

    def could(self, text: str, sort: str) -> bool:
        if self.unreadable:
            return True
        return bool(self.codes) and js_reach.could(text, "\n;".join(self.codes), sort)


# -- the questions ---------------------------------------------------------------------------
def query_formatted(text: str) -> bool:
    """Whether a query call (code_js's `sql` check) could be given formatted text."""
    memo = js_reach.state(text).memo
    found = memo.get("sql")
    if found is None:
        found = memo["sql"] = _query_sinks(text).could(text, "fmt")
    return found


def _query_sinks(text: str) -> _Sinks:
    sinks = _Sinks()
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
        sinks.add(_argument_code(text, _arguments_start(text, match.end()), True))
    # bare calls: query(...), and what the text calls a query function under another name
    for name, start, end in occurrences(text, _SQL_NAMES):
        if name in V.SQL_FUNCTIONS and js_reach.starts_name(text, start, dot=False):
            sinks.add(_argument_code(text, _arguments_start(text, end), True))
    aliases = local_names(text, _SQL_NAMES) - V.SQL_FUNCTIONS
    if aliases:
        pattern = re.compile(r"(?:" + _words(aliases) + r")(?![\w$])")
        for match in pattern.finditer(text):
            if js_reach.starts_name(text, match.start(), dot=False):
                sinks.add(_argument_code(text, _arguments_start(text, match.end()), True))
    return sinks


def response_holds(text: str, sort: str) -> bool:
    """Whether an HTTP response could be given a value of `sort`: "err" (an error, its text or
    stack), "env" (the environment) for every response; "req" (request data) for the bodies
    sent as HTML (`send`, `write`, `end`, `ctx.body =`)."""
    memo = js_reach.state(text).memo
    found = memo.get(("response", sort))
    if found is None and not js_reach.anywhere(text, sort):
        found = memo[("response", sort)] = False  # (no sink needs reading)
    if found is None:
        sinks = memo.get("responses")
        if sinks is None:
            sinks = memo["responses"] = _response_sinks(text)
        found = memo[("response", sort)] = sinks[sort == "req"].could(text, sort)
    return found


def _response_sinks(text: str) -> tuple[_Sinks, _Sinks]:
    """(every response, the responses whose body is sent as HTML)."""
    every, html = _Sinks(), _Sinks()
    for match in _RESPONSE_MEMBER.finditer(text):
        code = _argument_code(text, _arguments_start(text, match.end()), False)
        every.add(code)
        if match.group(1) in _HTML_MEMBER:
            html.add(code)
    for match in _BODY.finditer(text):
        read = js_reach.span(text, match.end(), stop_comma=False, statement=True)
        code = None if read is None else read[1]
        every.add(code)
        html.add(code)
    for match in _CONSTRUCTOR_ENDS.finditer(text):
        start = match.start()
        while start and (text[start - 1].isalnum() or text[start - 1] in "_$"):
            start -= 1
        if text[start : match.end()] not in _CONSTRUCTOR_NAMES:
            continue
        every.add(_argument_code(text, _arguments_start(text, match.end()), False))
    aliases = None
    for match in _NEW.finditer(text):
        if not js_reach.starts_name(text, match.start()):
            continue
        parts = [p.strip() for p in match.group(1).split(".")]
        if parts[-1] not in _CONSTRUCTOR_NAMES and parts[-1] not in _CLASS_METHODS:
            if aliases is None:
                aliases = local_names(text, _CONSTRUCTOR_NAMES)
            if parts[0] not in aliases:
                continue
        every.add(_argument_code(text, _arguments_start(text, match.end()), False))
    return every, html


# -- shell commands --------------------------------------------------------------------------
_EXEC_NAMES = V.SHELL_EXEC
_OPTION_NAMES = V.SHELL_OPTION | V.EXECA
_SHELL_NAMES = _EXEC_NAMES | _OPTION_NAMES
# receivers whose `.exec` is child_process's or shelljs's (js_sinks._shell), besides names
# bound to a module by an import or a require
_SHELL_RECEIVERS = frozenset({"child_process", "childProcess", "cp", "shelljs", "shell", "sh"})
_MODULE_BOUND = re.compile(r"([A-Za-z_$][\w$]*)\s*=[^;\n]*?require\s*\(")
_IMPORTED = re.compile(r"import\s+([^;'\"]*?)\s+from\b")
# what makes a spawn-like call run a shell: a `shell` option, or a shell's `-c` flag
_SHELL_SIGNS = re.compile(r"\bshell\b|['\"`](?:-c|/c|/C|-Command)['\"`]")


def command_variable(text: str) -> bool:
    """Whether a shell could be given a command that is not constant (code_js's `shell`
    check): `exec`/`execSync` of child_process or shelljs with a first argument holding a
    name or a `${`; `spawn`/`execFile`/execa... given a `shell` option or a shell's `-c`, with
    an argument holding one."""
    memo = js_reach.state(text).memo
    found = memo.get("shell")
    if found is None:
        found = memo["shell"] = _command_variable(text)
    return found


def _variable(code: str | None) -> bool:
    """Whether an argument's code could be other than constant (None: unreadable)."""
    if code is None:
        return True
    return "${" in code or any(n not in js_reach.KEYWORDS for n in js_reach.names(code))


def _module_names(text: str) -> set[str]:
    memo = js_reach.state(text).memo
    found = memo.get("modules")
    if found is None:
        found = memo["modules"] = {m.group(1) for m in _MODULE_BOUND.finditer(text)}
        for match in _IMPORTED.finditer(text) if "import" in text else ():
            found.update(js_reach.names(match.group(1)))
    return found


def _command_variable(text: str) -> bool:
    aliases = local_names(text, _SHELL_NAMES)
    for name, start, end in occurrences(text, _SHELL_NAMES):
        args = _arguments_start(text, end)
        if args is None:
            continue
        member = _dot_before(text, start)
        if name in _EXEC_NAMES:
            if member and not _shell_receiver(text, start):
                continue  # regex.exec(text), db.exec(sql), this.exec(...)
            if _variable(_argument_code(text, args, True)):
                return True
            continue
        if args == _UNREADABLE:
            return True
        read = js_reach.span(text, args, stop_comma=False, statement=False)
        if read is None:
            return True
        end, code = read
        if _SHELL_SIGNS.search(text, args, end) and _variable(code):
            return True
    if aliases:
        pattern = re.compile(r"(?:" + _words(aliases) + r")(?![\w$])")
        for match in pattern.finditer(text):
            if not js_reach.starts_name(text, match.start(), dot=False):
                continue
            code = _argument_code(text, _arguments_start(text, match.end()), False)
            if code is None or (code and _variable(code)):
                return True
    return False


def _dot_before(text: str, at: int) -> bool:
    back = at - 1
    while back >= 0 and text[back] in " \t\r\n":
        back -= 1
    return back >= 0 and text[back] == "." and text[back - 1 : back] != "."


def _shell_receiver(text: str, at: int) -> bool:
    """Whether the object before `.exec` at `at` could be child_process or shelljs: a call
    (`require("child_process").exec`), one of their usual names, or a name an import or a
    require binds; not a property chain's end (`this.cp`) nor another object (`regex`)."""
    back = at - 1
    while back >= 0 and text[back] in " \t\r\n":
        back -= 1
    if back >= 0 and text[back] == "?":
        back -= 1
    back -= 1  # the dot
    while back >= 0 and text[back] in " \t\r\n":
        back -= 1
    if back < 0:
        return True
    if text[back] in ")]":
        return True
    if text[back] in "/'\"`":
        return False  # a regex or string literal: /a(b)/.exec(text)
    end = back + 1
    while back >= 0 and (text[back].isalnum() or text[back] in "_$"):
        back -= 1
    receiver = text[back + 1 : end]
    if not receiver:
        return True
    if _dot_before(text, back + 1):
        # a.b.exec: a module only when the chain starts with shelljs (`shelljs.x.exec`)
        return "shelljs" in text[max(0, back - 200) : end] or receiver in _SHELL_RECEIVERS
    return receiver in _SHELL_RECEIVERS or receiver in _module_names(text)
