"""The calls the JS/TS analysis reports (code_js.py walks the tree and knows the values): a
query, a shell command, HTML, code or a response, each checked against what its argument is
known to be. Also Vue's `v-html`, read from the template text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.code.js import values as V
from wukong_lint.code.js.values import CONST, STRING

# analysis.py's Analyser, which calls into this module: named, not imported (no cycle)
Analyser = Any


def _arguments(node: Any) -> list[Any]:
    args = node.child_by_field_name("arguments")
    if args is None or args.type == "template_string":
        return []
    return [c for c in args.named_children if c.type != "comment"]


def _tail(name: str) -> str:
    """The last two parts of a dotted name (`next/server.NextResponse.json` of an imported
    NextResponse is "NextResponse.json")."""
    return ".".join(name.rsplit(".", 2)[-2:])


def check_call(analyser: Analyser, node: Any) -> None:
    function = node.child_by_field_name("function")
    if function is None:
        return
    # (the last name first, cheaply: most calls are no sink and need no more)
    kind = function.type
    if kind == "member_expression":
        prop = function.child_by_field_name("property")
        callee = analyser.text(prop) if prop is not None else ""
    elif kind == "identifier":
        callee = analyser.text(function)
        callee = analyser.aliases.get(callee, callee).rsplit(".", 1)[-1]
    else:
        callee = ""
    if callee and callee not in _SINK_NAMES:
        return
    name = analyser.qualname(function)
    last = name.rsplit(".", 1)[-1]
    args = _arguments(node)
    member = function.type == "member_expression"
    _sql(analyser, node, function, name, last, args, member)
    _shell(analyser, node, function, name, last, args, member)
    _html(analyser, node, function, name, last, args, member)
    _code(analyser, node, name, last, args)
    _response(analyser, node, function, name, last, args, member)


_SINK_NAMES = (
    V.SQL_METHODS | V.CONDITION_METHODS | V.SQL_FUNCTIONS | V.SHELL_EXEC | V.SHELL_OPTION
    | V.EXECA | V.JQUERY_HTML | V.TRUST_CALLS | V.VM_CALLS | V.TIMERS | V.RESPONSE_METHODS
    | {"insertAdjacentHTML", "write", "writeln", "eval", "Function", "throw", "json",
       "Response", "NextResponse", "HttpResponse"}
)  # fmt: skip


def check_new(analyser: Analyser, node: Any) -> None:
    constructor = node.child_by_field_name("constructor")
    if constructor is None:
        return
    name = analyser.qualname(constructor)
    last = name.rsplit(".", 1)[-1]
    args = _arguments(node)
    _code(analyser, node, name, last, args)
    if _tail(name) in V.RESPONSE_CONSTRUCTORS and args:
        analyser.leaks(analyser.value(args[0]), node)
    elif last in V.RESPONSE_EXCEPTIONS and args:
        # throw new HttpException(err.message, 500): the framework sends the text
        for arg in args:
            flags = analyser.value(arg)[0]
            analyser.leaks((flags - {V.ERR, V.ENV}, ""), node)


# -- SQL -------------------------------------------------------------------------------------
def _sql(analyser: Analyser, node: Any, function: Any, name: str, last: str, args: list[Any],
         member: bool) -> None:  # fmt: skip
    if not args:
        return
    if member and last in V.CONDITION_METHODS:  # TypeORM .where(`name = '${name}'`)
        flags, literal = analyser.value(args[0])
        if V.FMT in flags and V.SAFE not in flags and V.CONDITION.search(literal):
            analyser.report("sql", node)
        return
    if member:
        if last not in V.SQL_METHODS:
            return
        receiver = analyser.root_name(function.child_by_field_name("object"))
        if receiver in V.NOT_SQL_RECEIVERS and last not in V.RAW_SQL_METHODS:
            return
    elif last not in V.SQL_FUNCTIONS or analyser.aliases.get(last, last).startswith(
        V.SHELL_MODULES
    ):
        return
    query = args[0]
    if query.type == "object":  # pg: query({ text, values })
        for pair in query.named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            if key is not None and analyser.text(key).strip("\"'") in ("text", "sql", "query"):
                query = pair.child_by_field_name("value")
                break
        else:
            return
    flags, literal = analyser.value(query)
    if V.FMT not in flags or V.SAFE in flags:
        return
    if last not in V.RAW_SQL_METHODS and not V.SQL_WORDS.search(literal):
        return
    analyser.report("sql", node)


# -- shell -----------------------------------------------------------------------------------
def _module_of(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name else ""


_SHELL_NAMES = frozenset(s.rsplit("/", 1)[-1] for s in V.SHELLS)


def _shell_option(analyser: Analyser, args: list[Any]) -> bool:
    """Whether an options object among the arguments turns a shell on (`shell: true`, or a
    shell chosen by a value)."""
    for arg in args:
        if arg.type != "object":
            continue
        for pair in arg.named_children:
            if pair.type == "shorthand_property_identifier" and analyser.text(pair) == "shell":
                return True
            if pair.type != "pair":
                continue
            key = pair.child_by_field_name("key")
            if key is None or analyser.text(key).strip("\"'") != "shell":
                continue
            value = pair.child_by_field_name("value")
            return value is not None and analyser.text(value) not in ("false", "undefined", "0")
    return False


def _shell(analyser: Analyser, node: Any, function: Any, name: str, last: str,
           args: list[Any], member: bool) -> None:  # fmt: skip
    if not args:
        return
    module = _module_of(name)
    child_process = module in V.SHELL_MODULES or module in ("childProcess", "cp")
    if last in V.SHELL_EXEC:
        shelljs = module in ("shelljs", "shell", "sh") or name.startswith("shelljs")
        if member and not (child_process or shelljs):
            return  # regex.exec(text), db.exec(sql)
        if not member and module and module not in V.SHELL_MODULES:
            return  # exec imported from another module (@actions/exec runs no shell)
        if not member and not module and analyser.lookup(last) is not None:
            return  # a parameter, variable or function of the file's own named exec
        if not V.fixed(analyser.value(args[0])[0]):
            analyser.report("shell", node)
        return
    if last in V.SHELL_OPTION and (child_process or not member) and len(args) > 1:
        # spawn("sh", ["-c", command]): the shell is the program
        program = analyser.value(args[0])
        if args[1].type == "array" and CONST in program[0] and STRING in program[0]:
            words = [c for c in args[1].named_children if c.type != "comment"]
            shell = program[1].strip().rsplit("/", 1)[-1] in _SHELL_NAMES
            flag = next((i for i, w in enumerate(words) if analyser.text(w).strip("\"'`")
                         in ("-c", "/c", "-Command", "/C")), None)  # fmt: skip
            if (
                shell
                and flag is not None
                and any(not V.fixed(analyser.value(w)[0]) for w in words[flag + 1 :])
            ):
                analyser.report("shell", node)
                return
    is_execa = last in V.EXECA and (
        name.startswith("execa") or module == "execa" or last.startswith("execa")
    )
    spawn_like = last in V.SHELL_OPTION and (child_process or not member or "spawn" in module)
    if (is_execa or spawn_like) and _shell_option(analyser, args):
        values = []
        for arg in args:
            if arg.type == "object":
                continue
            if arg.type == "array":
                values.extend(c for c in arg.named_children if c.type != "comment")
            else:
                values.append(arg)
        if any(not V.fixed(analyser.value(v)[0]) for v in values):
            analyser.report("shell", node)


# -- HTML ------------------------------------------------------------------------------------
def _html(analyser: Analyser, node: Any, function: Any, name: str, last: str, args: list[Any],
          member: bool) -> None:  # fmt: skip
    if not args:
        return
    value = None
    if last in V.TRUST_CALLS:
        value = args[0]
    elif not member:
        return
    elif last == "insertAdjacentHTML" and len(args) > 1:
        value = args[1]
    elif last in ("write", "writeln") and name.rsplit(".", 2)[-2:-1] == ["document"]:
        value = args[0]
    elif last in V.JQUERY_HTML:
        receiver = function.child_by_field_name("object")
        if receiver is None or receiver.type != "call_expression":
            return
        callee = receiver.child_by_field_name("function")
        if callee is None or analyser.text(callee) not in ("$", "jQuery"):
            return
        value = args[0]
        if last != "html":  # .append(x): HTML only when the value is markup
            flags, literal = analyser.value(value)
            if V.FMT not in flags or "<" not in literal:
                return
    if value is not None and not V.fixed(analyser.value(value)[0]):
        analyser.report("html", node)


# -- code ------------------------------------------------------------------------------------
def _code(analyser: Analyser, node: Any, name: str, last: str, args: list[Any]) -> None:
    if not args:
        return
    if name in ("eval", "window.eval", "globalThis.eval", "global.eval", "self.eval"):
        if not V.fixed(analyser.value(args[0])[0]):
            analyser.report("eval", node)
        return
    if name in ("Function", "window.Function", "globalThis.Function"):
        if any(not V.fixed(analyser.value(a)[0]) for a in args):
            analyser.report("eval", node)
        return
    if last in V.VM_CALLS and (name.startswith("vm.") or _module_of(name) == "vm"):
        if not V.fixed(analyser.value(args[0])[0]):
            analyser.report("eval", node)
        return
    if last in V.TIMERS and name in (last, f"window.{last}", f"global.{last}"):
        flags = analyser.value(args[0])[0]
        if (V.STRING in flags or V.REQ in flags) and not V.fixed(flags):
            analyser.report("eval", node)


# -- responses -------------------------------------------------------------------------------
def _response(analyser: Analyser, node: Any, function: Any, name: str, last: str,
              args: list[Any], member: bool) -> None:  # fmt: skip
    if not args:
        return
    if _tail(name) in V.RESPONSE_CONSTRUCTORS:
        analyser.leaks(analyser.value(args[0]), node)
        return
    if not member:
        return
    if last == "throw" and analyser.root_name(function) in ("ctx", "context"):
        for arg in args:  # ctx.throw(500, err.message)
            analyser.leaks(analyser.value(arg), node)
        return
    if last not in V.RESPONSE_METHODS:
        return
    root = analyser.root_name(function.child_by_field_name("object"))
    if root not in V.RESPONSE_OBJECTS:
        return
    values = args[1:2] if last == "render" else args
    for arg in values:
        value = analyser.value(arg)
        analyser.leaks(value, node)
        if last in ("send", "write", "end") and V.reflected_html(value):
            analyser.report("html", node)


# -- Vue -------------------------------------------------------------------------------------
_V_HTML = re.compile(r"""\bv-html\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_CONSTANT_EXPRESSION = re.compile(r"""\s*(?:'[^']*'|"[^"]*"|`[^`$]*`)\s*\Z""")


def vue_html(text: str) -> Iterator[tuple[str, int, int]]:
    """`v-html` bound to anything but a string literal or a sanitizer's result."""
    for match in _V_HTML.finditer(text):
        expression = match.group(1) if match.group(1) is not None else match.group(2)
        if _CONSTANT_EXPRESSION.match(expression):
            continue
        callee = expression.split("(", 1)[0].strip().rsplit(".", 1)[-1]
        if "(" in expression and V.SANITIZER.search(callee):
            continue
        line = text.count("\n", 0, match.start()) + 1
        line_start = text.rfind("\n", 0, match.start()) + 1
        column = len(text[line_start : match.start()].encode("utf-8", "surrogatepass"))
        yield ("html", line, column)
