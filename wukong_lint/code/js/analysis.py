"""The `javascript` rule kind: injection and information-leak checks on JS/TS syntax trees.

One walk of a file's tree (tree-sitter, js_syntax.py) computes the hits of every check: SQL
built by formatting and run (`sql`), shell commands built at run time (`shell`), HTML set from
a non-constant value (`html`), code run from a string (`eval`), and error details or the
environment sent in an HTTP response (`stack-trace`, `error-text`, `environment`). Inside a
function, a variable keeps what its value was known to be (constant, formatted, cleaned by a
sanitizer, an error, its text...), so a query built one line above and run below is seen,
and a name bound only to literals is a constant. Each rule reports one check; the analysis of
a text is cached, so the rules of this kind parse a file once.

Files are parsed only when a cheap look at their text (js_gates.py) shows a check could
report something; huge or minified texts are checked with line patterns (js_lines.py).
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Iterator
from typing import Any, NamedTuple

from wukong_lint.code.js import syntax as S
from wukong_lint.code.js import values as V
from wukong_lint.code.js.gates import possible
from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit

_FUNCTIONS = frozenset(
    {"function_declaration", "function_expression", "function", "arrow_function",
     "method_definition", "generator_function_declaration", "generator_function"}
)  # fmt: skip
_PASS_THROUGH = frozenset(
    {"parenthesized_expression", "await_expression", "as_expression", "non_null_expression",
     "satisfies_expression", "type_assertion", "jsx_expression", "spread_element"}
)  # fmt: skip
_LITERALS = frozenset(
    {"number", "true", "false", "null", "undefined", "regex"}
)  # fmt: skip
# words of which one must be in a function's text for anything in it to be reported
TRIGGERS = (
    b"query", b"execute", b"raw", b".all", b".get", b".run", b".exec", b".each", b".prepare",
    b"exec", b"spawn", b"shell", b"execa", b"innerhtml", b"outerhtml", b"insertadjacenthtml",
    b"document.write", b"dangerouslysetinnerhtml", b"srcdoc", b".html(", b".append(", b".prepend(",
    b".after(", b".before(", b"replacewith", b"eval", b"new function", b"vm.",
    b"runin", b"compilefunction", b"script", b"settimeout", b"setinterval", b"setimmediate",
    b"send", b"json", b"end(", b"write", b"render", b"body", b"response", b"throw", b"where",
    b"having", b"bypasssecuritytrust", b"exception", b".any(", b".one(", b".none(", b".many(",
    b"ornone(", b".result(", b".multi(",
)  # fmt: skip

Value = tuple[frozenset, str]  # (flags, literal text)
_UNKNOWN: Value = (frozenset(), "")
_CONST: Value = (frozenset({V.CONST}), "")


def _const(text: str = "") -> Value:
    return (frozenset({V.CONST, V.STRING}), text)


class _Scope:
    __slots__ = ("debug", "values")

    def __init__(self) -> None:
        self.values: dict[str, Value] = {}
        self.debug = False  # inside `if (process.env.NODE_ENV === "development")`


class Analyser:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.hits: list[tuple[str, int, int]] = []  # (check, line, byte column)
        self.scopes = [_Scope()]
        self.aliases: dict[str, str] = {}  # local name -> module path ("child_process.exec")
        self.trigger_spots: list[int] | None = None

    # -- helpers ---------------------------------------------------------------------------
    def text(self, node: Any) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def report(self, check: str, node: Any) -> None:
        if self.scopes[-1].debug and check in ("stack-trace", "error-text", "environment"):
            return
        row, column = node.start_point
        self.hits.append((check, row + 1, column))

    def lookup(self, name: str) -> Value | None:
        for scope in reversed(self.scopes):
            found = scope.values.get(name)
            if found is not None:
                return found
        return None

    def bind(self, name: str, value: Value) -> None:
        self.scopes[-1].values[name] = value

    def qualname(self, node: Any, depth: int = 0) -> str:
        """The dotted name of a callee, import aliases resolved (`cp.exec` of
        `import * as cp from "child_process"` is "child_process.exec")."""
        if node is None or depth > 20:
            return ""
        kind = node.type
        if kind in ("identifier", "property_identifier", "private_property_identifier"):
            name = self.text(node)
            return self.aliases.get(name, name) if kind == "identifier" else name
        if kind == "member_expression":
            head = self.qualname(node.child_by_field_name("object"), depth + 1)
            prop = node.child_by_field_name("property")
            tail = self.text(prop) if prop is not None else ""
            return f"{head}.{tail}" if head else tail
        if kind == "call_expression":
            function = node.child_by_field_name("function")
            callee = self.text(function) if function is not None else ""
            args = node.child_by_field_name("arguments")
            first = S.first_arg(args)
            if callee == "require" and first is not None and first.type == "string":
                return S.module_name(self.text(first))
            if callee.rsplit(".", 1)[-1] == "promisify" and first is not None:
                return self.qualname(first, depth + 1)
            return ""
        if kind in _PASS_THROUGH:
            inner = node.named_children
            return self.qualname(inner[0], depth + 1) if inner else ""
        if kind == "this":
            return "this"
        return ""

    def root_name(self, node: Any) -> str:
        """The object a call chain starts from (`res` of `res.status(500).json`)."""
        for _ in range(30):
            if node is None:
                return ""
            kind = node.type
            if kind == "identifier":
                return self.text(node)
            if kind == "member_expression":
                obj = node.child_by_field_name("object")
                if obj is not None and obj.type == "identifier" and self.text(obj) == "ctx":
                    prop = node.child_by_field_name("property")
                    if prop is not None and self.text(prop) == "res":
                        return "ctx.res"
                node = obj
            elif kind == "call_expression":
                node = node.child_by_field_name("function")
            elif kind in _PASS_THROUGH:
                node = node.named_children[0] if node.named_children else None
            else:
                return ""
        return ""

    # -- values ----------------------------------------------------------------------------
    def value(self, node: Any, depth: int = 0) -> Value:
        """What an expression is known to be: its flags and literal text."""
        if node is None or depth > 60:
            return _UNKNOWN
        kind = node.type
        if kind == "string":
            return _const(self.text(node)[1:-1])
        if kind in _LITERALS:
            return _CONST
        if kind == "template_string":
            return self.template(node, depth)
        if kind == "identifier":
            name = self.text(node)
            found = self.lookup(name)
            if found is not None:
                return found
            return _CONST if name in ("undefined", "NaN", "Infinity", "__dirname") else _UNKNOWN
        if kind in _PASS_THROUGH:
            inner = node.named_children
            return self.value(inner[0], depth + 1) if inner else _UNKNOWN
        if kind == "binary_expression":
            return self.binary(node, depth)
        if kind == "ternary_expression":
            condition = node.child_by_field_name("condition")
            alternative = self.value(node.child_by_field_name("alternative"), depth + 1)
            consequence = self.value(node.child_by_field_name("consequence"), depth + 1)
            debug = V.debug_branch(self.text(condition)) if condition is not None else None
            if debug is not None:  # the other branch is shown only on a developer's machine
                return alternative if debug else consequence
            return V.union(consequence, alternative)
        if kind == "member_expression":
            return self.member(node, depth)
        if kind == "subscript_expression":
            obj = self.value(node.child_by_field_name("object"), depth + 1)
            return (frozenset(obj[0] & {V.CONST, V.SAFE, V.REQ}), "")
        if kind == "call_expression":
            return self.call_value(node, depth)
        if kind == "new_expression":
            return _UNKNOWN
        if kind in _FUNCTIONS:
            return (frozenset({V.FUNC}), "")
        if kind == "object":
            return self.object_value(node, depth)
        if kind == "array":
            elements = node.named_children
            if len(elements) > 64:  # data, not a query or a command: not walked
                return _UNKNOWN
            return V.combine([self.value(c, depth + 1) for c in elements], "")
        if kind in ("unary_expression", "update_expression"):
            return (frozenset({V.CONST, V.SAFE}), "")  # !x, typeof x, -x, i++: no text
        if kind == "assignment_expression":
            return self.value(node.child_by_field_name("right"), depth + 1)
        if kind == "sequence_expression":
            children = node.named_children
            return self.value(children[-1], depth + 1) if children else _UNKNOWN
        return _UNKNOWN

    def template(self, node: Any, depth: int) -> Value:
        pieces: list[str] = []
        parts: list[Value] = []
        for child in node.named_children:
            if child.type == "template_substitution":
                inner = child.named_children
                parts.append(self.value(inner[0], depth + 1) if inner else _CONST)
                pieces.append(" ")
            else:
                pieces.append(self.text(child))
        literal = "".join(pieces)
        flags = {V.STRING}
        if all(V.CONST in f or V.SAFE in f for f, _ in parts):
            flags.add(V.CONST)
        else:
            flags.add(V.FMT)
        for part_flags, part_text in parts:
            flags |= V.as_text(part_flags & V.CARRIED)
            if V.CONST in part_flags and part_text:
                literal += " " + part_text
        return (frozenset(flags), literal)

    def binary(self, node: Any, depth: int) -> Value:
        operator = node.child_by_field_name("operator")
        op = self.text(operator) if operator is not None else ""
        left = self.value(node.child_by_field_name("left"), depth + 1)
        right = self.value(node.child_by_field_name("right"), depth + 1)
        if op == "+":
            literal = (left[1] + " " + right[1]).strip()
            leaks = (left[0] | right[0]) & V.CARRIED
            stringy = V.STRING in left[0] or V.STRING in right[0]
            if V.fixed(left[0]) and V.fixed(right[0]):
                flags = {V.CONST} | ({V.STRING} if stringy else set())
            elif V.FMT in left[0] or V.FMT in right[0] or stringy:
                flags = {V.FMT, V.STRING}
            else:
                flags = set()
            if stringy:
                leaks = V.as_text(leaks)
            return (frozenset(flags | leaks), literal)
        if op in ("||", "??", "&&"):
            return V.union(left, right)
        return (frozenset({V.CONST, V.SAFE}), "")  # comparisons, arithmetic: no text

    def member(self, node: Any, depth: int) -> Value:
        name = self.qualname(node)
        if name == "process.env":
            return (frozenset({V.ENV}), "")
        prop = node.child_by_field_name("property")
        attribute = self.text(prop) if prop is not None else ""
        obj_node = node.child_by_field_name("object")
        obj = self.value(obj_node, depth + 1)
        if obj_node is not None and obj_node.type == "identifier":
            head = self.text(obj_node)
            if (head in V.REQUEST_OBJECTS and self.lookup(head) in (None, _UNKNOWN)) or (
                head in ("ctx", "context") and attribute in V.KOA_REQUEST
            ):
                return (frozenset({V.REQ}), "")
        if V.REQ in obj[0]:
            # req.query.q, req.params.id, req.headers.x: text the client chose (req.body
            # and req.query as a whole are objects, sent back as JSON)
            return (frozenset({V.REQ, V.REQ_TEXT}), "")
        if V.ERR in obj[0]:
            if attribute == "stack":
                return (frozenset({V.STACK}), "")
            if attribute in V.ERROR_TEXT:
                return (frozenset({V.ERRTEXT}), "")
            return _UNKNOWN
        if attribute == "length":
            return (frozenset({V.CONST, V.SAFE}), "")
        if V.CONST in obj[0] and V.STRING not in obj[0]:
            return _CONST  # a field of an object of constants
        return _UNKNOWN

    def call_value(self, node: Any, depth: int) -> Value:
        function = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        name = self.qualname(function)
        last = name.rsplit(".", 1)[-1]
        if args is not None and args.type == "template_string":  # a tagged template
            if name in V.SQL_TAGS or last in ("sql", "SQL"):
                return (frozenset({V.SAFE}), "")
            if name in V.FORMAT_TAGS or last in V.FORMAT_TAGS:
                return self.template(args, depth)
            return (frozenset({V.SAFE}), "")  # the tag function handles the values
        arguments = [
            c for c in (args.named_children if args is not None else ()) if c.type != "comment"
        ]
        if (
            last in V.NUMERIC_CALLS
            or name.startswith("Math.")
            or (name in ("Array.isArray", "Object.keys"))
        ):
            return (frozenset({V.CONST, V.SAFE}), "")
        if V.SANITIZER.search(last) and last not in ("unsafe", "unsafeHTML"):
            return (frozenset({V.SAFE}), "")
        if name in ("String", "JSON.stringify", "util.inspect", "inspect") and arguments:
            inner = self.value(arguments[0], depth + 1)
            carried = V.as_text(inner[0] & V.CARRIED) | (inner[0] & {V.CONST, V.SAFE, V.FMT})
            return (frozenset(carried | {V.STRING}), inner[1])
        if last == "format" and (name.startswith("util") or name == "format") and arguments:
            parts = [self.value(a, depth + 1) for a in arguments]
            first, rest = parts[0], parts[1:]
            flags = {V.STRING}
            if all(V.fixed(f) for f, _ in parts):
                flags.add(V.CONST)
            elif V.STRING in first[0] or rest:
                flags.add(V.FMT)
            for f, _ in parts:
                flags |= V.as_text(f & V.CARRIED)
            return (frozenset(flags), first[1])
        if function is not None and function.type == "member_expression":
            receiver = self.value(function.child_by_field_name("object"), depth + 1)
            if V.ERR in receiver[0] and last in ("toString", "message"):
                return (frozenset({V.ERRTEXT}), "")
            if last in ("map", "fill") and arguments:
                mapped = self.value(arguments[0], depth + 1)
                if last == "fill" and V.fixed(mapped[0]):
                    return (frozenset({V.SAFE}), "")
                if last == "map" and arguments[0].type == "arrow_function":
                    body = arguments[0].child_by_field_name("body")
                    if body is not None and V.fixed(self.value(body, depth + 1)[0]):
                        return (frozenset({V.SAFE}), "")  # ids.map(() => "?"): placeholders
                return _UNKNOWN
            if last in V.STRING_METHODS:
                parts = [self.value(a, depth + 1) for a in arguments]
                combined = V.combine([receiver, *parts], receiver[1])
                if last == "join" and V.fixed(receiver[0]):
                    return (frozenset({V.CONST, V.SAFE, V.STRING}), receiver[1])
                if V.CONST not in combined[0] and receiver[0] & {V.STRING, V.FMT}:
                    # "SELECT ... ".concat(id), ["WHERE id =", id].join(" "): text built
                    # from a value
                    return (combined[0] | {V.FMT, V.STRING}, combined[1])
                return combined
        return _UNKNOWN

    def object_value(self, node: Any, depth: int) -> Value:
        parts: list[Value] = []
        flags: set[str] = set()
        children = node.named_children
        if len(children) > 64:  # a table of data: not walked
            return _UNKNOWN
        for child in children:
            if child.type == "pair":
                key = child.child_by_field_name("key")
                value = self.value(child.child_by_field_name("value"), depth + 1)
                key_text = self.text(key).strip("\"'") if key is not None else ""
                if key_text == "__html" and not V.fixed(value[0]):
                    flags.add(V.HTML_DYN)
                parts.append(value)
            elif child.type == "shorthand_property_identifier":
                found = self.lookup(self.text(child))
                parts.append(found if found is not None else _UNKNOWN)
            elif child.type == "spread_element":
                parts.append(self.value(child, depth + 1))
        combined = V.combine(parts, "")
        flags |= combined[0] - {V.STRING, V.FMT}
        return (frozenset(flags), "")

    # -- walking ---------------------------------------------------------------------------
    def walk(self, node: Any) -> None:
        """Visit statements in order, so that a variable is known where it is used."""
        stack = [node]
        while stack:
            current = stack.pop()
            kind = current.type
            handler = _HANDLERS.get(kind)
            if handler is not None and handler(self, current):
                continue  # the handler walked the children itself
            stack.extend(reversed(current.named_children))

    def quiet(self, start: int, end: int) -> bool:
        """Whether data[start:end] holds no trigger word (nothing there can be a hit)."""
        spots = self.trigger_spots
        if spots is None:  # where the trigger words stand: found once, in C
            lowered = self.data.lower()
            found = []
            for word in TRIGGERS:
                at = lowered.find(word)
                while at >= 0:
                    found.append(at)
                    at = lowered.find(word, at + 1)
            spots = self.trigger_spots = sorted(found)
        index = bisect.bisect_left(spots, start)
        return index == len(spots) or spots[index] + 1 > end

    def function(self, node: Any) -> bool:
        if node.type in ("function_declaration", "generator_function_declaration"):
            name = node.child_by_field_name("name")
            if name is not None:  # (a function of the file's own: `exec` is not child_process's)
                self.bind(self.text(name), (frozenset({V.FUNC}), ""))
        # a function whose text holds no trigger word cannot hold a hit: not walked
        if self.quiet(node.start_byte, node.end_byte):
            return True
        scope = _Scope()
        scope.debug = self.scopes[-1].debug
        parameters = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        for name in S.parameter_names(self, parameters):
            if name in V.ERROR_NAMES:
                scope.values[name] = (frozenset({V.ERR}), "")
            else:
                scope.values[name] = _UNKNOWN
        self.scopes.append(scope)
        try:
            body = node.child_by_field_name("body")
            if body is not None:  # (an arrow function's expression body is walked the same)
                self.walk(body)
        finally:
            self.scopes.pop()
        return True

    def declarator(self, node: Any) -> bool:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if value is not None:
            self.walk(value)
        if name is None:
            return True
        if name.type == "identifier":
            local = self.text(name)
            module = self.qualname(value) if value is not None else ""
            if module and value is not None and value.type == "call_expression":
                self.aliases[local] = module  # const cp = require("child_process")
            self.bind(local, self.value(value) if value is not None else _UNKNOWN)
        elif name.type == "object_pattern" and value is not None:
            module = self.qualname(value)
            for child in name.named_children:
                local, field = S.pattern_names(self, child)
                if local:
                    if module:  # const { exec } = require("child_process")
                        self.aliases[local] = f"{module}.{field}"
                    self.bind(local, _UNKNOWN)
        else:
            for local in S.bound_names(self, name):
                self.bind(local, _UNKNOWN)
        return True

    def import_statement(self, node: Any) -> bool:
        source = node.child_by_field_name("source")
        if source is None:
            return True
        module = S.module_name(self.text(source))
        for child in S.descendants(node, ("import_specifier", "namespace_import", "identifier")):
            if child.type == "import_specifier":
                name = child.child_by_field_name("name")
                alias = child.child_by_field_name("alias") or name
                if name is not None and alias is not None:
                    self.aliases[self.text(alias)] = f"{module}.{self.text(name)}"
            elif child.type == "namespace_import":
                for ident in child.named_children:
                    self.aliases[self.text(ident)] = module
            elif child.parent is not None and child.parent.type == "import_clause":
                self.aliases[self.text(child)] = module  # import cp from "child_process"
        return True

    def assignment(self, node: Any) -> bool:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if right is not None:
            self.walk(right)
        if left is None or right is None:
            return True
        value = self.value(right)
        augmented = node.type == "augmented_assignment_expression"
        if left.type == "identifier":
            name = self.text(left)
            if augmented:
                old = self.lookup(name) or _UNKNOWN
                if V.fixed(old[0]) and V.fixed(value[0]):
                    value = (frozenset({V.CONST, V.STRING} & (old[0] | {V.CONST})),
                             old[1] + value[1])  # fmt: skip
                else:
                    value = (frozenset({V.FMT, V.STRING} | V.as_text((old[0] | value[0])
                                                                    & V.CARRIED)),
                             old[1] + " " + value[1])  # fmt: skip
            self.bind(name, value)
        elif left.type == "member_expression":
            prop = left.child_by_field_name("property")
            attribute = self.text(prop) if prop is not None else ""
            if attribute in V.HTML_PROPERTIES and not V.fixed(value[0]):
                self.report("html", node)
            target = self.qualname(left)
            if target in V.RESPONSE_ASSIGN or (
                attribute == "body" and self.root_name(left) in ("ctx", "context")
            ):
                self.leaks(value, node)
                if V.reflected_html(value):
                    self.report("html", node)
        return True

    def if_statement(self, node: Any) -> bool:
        condition = node.child_by_field_name("condition")
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        if condition is not None:
            self.walk(condition)
        debug = V.debug_branch(self.text(condition)) if condition is not None else None
        debug_branch = None if debug is None else (consequence if debug else alternative)
        scope = self.scopes[-1]
        for branch in (consequence, alternative):
            if branch is None:
                continue
            was = scope.debug
            if branch is debug_branch or (debug_branch is not None and branch == debug_branch):
                scope.debug = True
            self.walk(branch)
            scope.debug = was
        return True

    def catch_clause(self, node: Any) -> bool:
        parameter = node.child_by_field_name("parameter")
        if parameter is not None and parameter.type == "identifier":
            self.bind(self.text(parameter), (frozenset({V.ERR}), ""))
        body = node.child_by_field_name("body")
        if body is not None:
            self.walk(body)
        return True

    def jsx_attribute(self, node: Any) -> bool:
        children = node.named_children
        if children and self.text(children[0]) == "dangerouslySetInnerHTML":
            value = children[1] if len(children) > 1 else None
            if value is not None and self.html_object_unsafe(value):
                self.report("html", node)
        return False

    def pair(self, node: Any) -> bool:
        key = node.child_by_field_name("key")
        if key is not None and self.text(key).strip("\"'") == "dangerouslySetInnerHTML":
            value = node.child_by_field_name("value")
            if value is not None and self.html_object_unsafe(value):
                self.report("html", node)
        return False

    def html_object_unsafe(self, node: Any) -> bool:
        """Whether the value of a dangerouslySetInnerHTML holds HTML not known to be safe."""
        while node is not None and node.type in _PASS_THROUGH:
            node = node.named_children[0] if node.named_children else None
        if node is None:
            return False
        if node.type == "object":
            return V.HTML_DYN in self.value(node)[0]
        flags = self.value(node)[0]
        return V.HTML_DYN in flags or not (flags & {V.CONST, V.SAFE})

    def leaks(self, value: Value, node: Any) -> None:
        flags = value[0]
        if V.STACK in flags:
            self.report("stack-trace", node)
        if flags & {V.ERR, V.ERRTEXT}:
            self.report("error-text", node)
        if V.ENV in flags:
            self.report("environment", node)

    def call(self, node: Any) -> bool:
        from wukong_lint.code.js.sinks import check_call

        check_call(self, node)
        return False

    def new(self, node: Any) -> bool:
        from wukong_lint.code.js.sinks import check_new

        check_new(self, node)
        return False


_HANDLERS: dict[str, Any] = {
    **{kind: Analyser.function for kind in _FUNCTIONS},
    "variable_declarator": Analyser.declarator,
    "import_statement": Analyser.import_statement,
    "assignment_expression": Analyser.assignment,
    "augmented_assignment_expression": Analyser.assignment,
    "if_statement": Analyser.if_statement,
    "catch_clause": Analyser.catch_clause,
    "jsx_attribute": Analyser.jsx_attribute,
    "pair": Analyser.pair,
    "call_expression": Analyser.call,
    "new_expression": Analyser.new,
}


class Analysis(NamedTuple):
    hits: dict[str, list[tuple[int, int]]] | None  # check -> (line, byte column); None: lines
    starts: list[int]


_cache: list[Any] = [None, None]  # (text, Analysis)


def analyse(path: str, text: str) -> Analysis:
    """The hits of every check on a JS/TS text (cached for the last text)."""
    if _cache[0] is text:
        return _cache[1]
    from wukong_lint.code.js import syntax as js_syntax

    hits: dict[str, list[tuple[int, int]]] | None = None
    if not js_syntax.too_big(text):
        parsed = js_syntax.parse(path, text)
        analyser = None
        if parsed is not None:
            tree, data = parsed
            analyser = Analyser(data)
            with contextlib.suppress(RecursionError):  # nested too deep: the hits found so far
                analyser.walk(tree.root_node)
        found = analyser.hits if analyser is not None else []
        if path.lower().endswith(".vue"):
            from wukong_lint.code.js.sinks import vue_html

            found = found + list(vue_html(text))
        first: dict[tuple[str, int], int] = {}
        for check, line, column in found:
            key = (check, line)
            if key not in first or column < first[key]:
                first[key] = column
        hits = {}
        for (check, line), column in sorted(first.items()):
            hits.setdefault(check, []).append((line, column))
    # (line starts only where there is something to report)
    analysis = Analysis(hits, _line_starts(text) if hits else [])
    _cache[0], _cache[1] = text, analysis
    return analysis


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def prepare(unit: Unit, batch: list[tuple[CompiledRule, list[int] | None]]) -> None:
    """Analyse a text once for all the rules of this kind that will run on it."""
    if any(possible(_check(rule), unit.text) for rule, _ in batch):
        analyse(unit.path, unit.text)


def _check(rule: CompiledRule) -> str:
    return str((rule.params or {}).get("check", ""))


def match_js(rule: CompiledRule, unit: Unit, offsets: list[int] | None) -> Iterator[Hit]:
    check = _check(rule)
    text = unit.text
    if not possible(check, text):
        return
    analysis = analyse(unit.path, text)
    if analysis.hits is None:
        from wukong_lint.code.js.lines import fallback_hits

        yield from fallback_hits(check, text)
        return
    starts = analysis.starts
    for line, column in analysis.hits.get(check, ()):
        if not 0 < line <= len(starts):
            continue
        start = starts[line - 1]
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        prefix = text[start:end].encode("utf-8", "surrogatepass")[:column]
        at = start + len(prefix.decode("utf-8", "ignore"))
        yield Hit(at, end, at, end)


match_js.prepare = prepare  # type: ignore[attr-defined]
