"""The `python` rule kind: injection and information-leak checks on the syntax tree.

One pass of `ast` over a file (the `Analyser` here) computes the hits of every check (SQL
built by formatting and run, shell commands, eval, unescaped HTML, exception text /
tracebacks / the environment / request-chosen file contents in HTTP responses, debug
switches); each rule reports one check. matcher.py runs it for the rules: the analysis of a
text is cached, so the rules of this kind parse a file once, and a file that does not parse
(a fragment, Python 2) is checked with line patterns instead (lines.py).

No pydantic here: the rule model lives in schema.py.
"""

from __future__ import annotations

import ast
import re
from typing import Any

# the cheap tests of whether a rule can report in a text (run before this module is imported)
from wukong_lint.code.python.names import (
    _OWN_MARKS,
    _SEQUENCES,
    BUILTIN_EXCEPTIONS,
    ERROR_HANDLER_DECORATORS,
    EXC,
    EXCEPTION_PARAMS,
    EXCEPTION_TEXT,
    FETCH_CALLS,
    FILE_LOADERS,
    GENERIC_SQL_CALLS,
    HTML_RESPONSES,
    LEAKS,
    NEUTRAL_CALLS,
    NOT_PRODUCTION,
    NOT_SQL_MODULES,
    OWN_EXC,
    RAW_SQL_APIS,
    READ_METHODS,
    RESPONSE_CALLS,
    ROUTE_DECORATORS,
    RUN_RECEIVER,
    SAFE_MARKERS,
    SANITIZERS,
    SETTING_SQL,
    SHELL_CALLS,
    SQL_FUNCTIONS,
    SQL_METHODS,
    SQL_WORDS,
    STREAMING_RESPONSES,
    SUBPROCESS_CALLS,
    TO_TEXT,
    TRACEBACK_CALLS,
    TRIGGERS,
    VALIDATORS,
    VERSION_ATTRIBUTES,
    VERSION_CALLS,
    VIEW_METHODS,
    _dotted,
    _is_const,
    _last,
    _plain_literal,
)
from wukong_lint.code.python.strings import StringFacts


def _mentions_debug(test: ast.AST) -> bool:
    """A condition on a debug switch (`settings.DEBUG`, `app.debug`, `DEBUG`)."""
    return any(
        (isinstance(n, ast.Name) and n.id.lower() == "debug")
        or (isinstance(n, ast.Attribute) and n.attr.lower() == "debug")
        or (isinstance(n, ast.Constant) and n.value == "DEBUG")  # app.config["DEBUG"]
        for n in ast.walk(test)
    )


def _target_id(targets: list[ast.AST]) -> str:
    return targets[0].id if len(targets) == 1 and isinstance(targets[0], ast.Name) else ""


def _target_names(target: ast.AST) -> list[ast.Name]:
    """The variables an assignment binds (`a, *b = ...`); not `obj.attr` or `items[0]`, whose
    object is not replaced by the value."""
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for element in target.elts for n in _target_names(element)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []


# methods of views, viewsets and middleware that answer a request (besides VIEW_METHODS)
VIEW_LIKE = frozenset(
    {"list", "retrieve", "create", "update", "partial_update", "destroy", "__call__",
     "process_request", "process_view", "process_exception", "process_response", "handle"}
)  # fmt: skip


def _view_like(name: str) -> bool:
    return name in VIEW_METHODS or name in VIEW_LIKE or name.endswith("_view")


class _Scope:
    def __init__(self, handler: bool, params: set[str]) -> None:
        self.handler = handler
        # name -> taint kinds ("formatted", "request", "filehandle", leaks...)
        self.taint: dict[str, set[str]] = {p: {"request"} for p in params}
        # name -> the literal text assigned to it (string constants, for SQL words)
        self.literal: dict[str, str] = {}
        # inside `if settings.DEBUG:` or after `if not DEBUG: raise`: error details are meant
        # for developers there
        self.debug_only = False
        # names bound to something not constant in this scope (a parameter, a call...): not
        # constants, whatever they are bound to later (branches are not told apart)
        self.varied: set[str] = set()


class Analyser(StringFacts, ast.NodeVisitor):
    def __init__(
        self, path: str, text: str = "", debug_words: bool = True, quoting: bool = True
    ) -> None:
        # whether the module says "debug" at all: if not, no condition is a debug switch
        self.debug_words = debug_words
        # whether it says "quote" or "shlex" at all: if not, no value is shell-quoted
        self.quoting = quoting
        self.path = path
        self.lowered = text.lower()
        self.starts = _line_starts(text) if text else []
        self.aliases: dict[str, str] = {}
        self.hits: list[tuple[str, int, int]] = []  # (check, line, byte column)
        self.scopes = [_Scope(False, set())]
        # classes and functions the module defines itself (a library's own Markup class)
        self.defined: set[str] = set()
        self.classes: list[str] = []  # the classes whose body is being visited

    # -- dispatch (ast.NodeVisitor's, without a getattr per node) ----------------------------
    _methods: dict[type, Any] = {}  # noqa: RUF012  (shared by design: a dispatch cache)

    def visit(self, node: ast.AST) -> None:
        kind = type(node)
        method = self._methods.get(kind)
        if method is None:
            method = self._methods[kind] = getattr(
                type(self), "visit_" + kind.__name__, type(self).generic_visit
            )
        method(self, node)

    def generic_visit(self, node: ast.AST) -> None:
        visit = self.visit
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        visit(item)
            elif isinstance(value, ast.AST):
                visit(value)

    def _leaf(self, node: ast.AST) -> None:
        pass

    def quiet(self, node: ast.AST) -> bool:
        """A function or class whose text holds no trigger: nothing in it can be a hit."""
        starts = self.starts
        first, last = node.lineno, getattr(node, "end_lineno", None)  # type: ignore[attr-defined]
        for decorator in getattr(node, "decorator_list", ()):  # (`@app.route(...)` counts)
            first = min(first, decorator.lineno)
        if not starts or last is None or first < 1:
            return False
        start = starts[first - 1] if first <= len(starts) else len(self.lowered)
        end = starts[last] if last < len(starts) else len(self.lowered)
        segment = self.lowered[start:end]
        return not any(trigger in segment for trigger in TRIGGERS)

    # -- helpers ---------------------------------------------------------------------------
    def report(self, check: str, node: ast.AST) -> None:
        self.hits.append((check, node.lineno, node.col_offset))  # type: ignore[attr-defined]

    def qualname(self, node: ast.AST) -> str:
        dotted = _dotted(node)
        if dotted is None:
            return _last(node)
        head, _, rest = dotted.partition(".")
        resolved = self.aliases.get(head, head)
        return f"{resolved}.{rest}" if rest else resolved

    @property
    def scope(self) -> _Scope:
        return self.scopes[-1]

    def lookup(self, name: str) -> set[str]:
        for scope in reversed(self.scopes):
            if name in scope.taint:
                return scope.taint[name]
        return set()

    def kinds(self, node: ast.AST | None) -> set[str]:
        """What an expression carries: request input, leaks, open files from request paths."""
        if node is None:
            return set()
        kind = type(node)
        if kind is ast.Constant:  # most leaves: nothing to carry, no children to look at
            return set()
        if kind is ast.Name:
            found = self.lookup(node.id)  # type: ignore[attr-defined]
            if not found and node.id == "request":  # type: ignore[attr-defined]
                return {"request"}  # Flask's global request
            if node.id == "__version__":  # type: ignore[attr-defined]
                return {"version"}
            # (what a name's value is, constant or quoted, is not carried into other values)
            return set(found) - _OWN_MARKS
        if kind in _SEQUENCES:
            carried: set[str] = set()
            for element in node.elts:  # type: ignore[attr-defined]
                if type(element) is not ast.Constant:
                    carried |= self.kinds(element)
            return carried
        if isinstance(node, ast.Attribute):
            if node.attr in ("__name__", "__class__", "__qualname__"):
                return set()
            qualified = self.qualname(node)
            if qualified == "os.environ":
                return {"environment"}
            if (
                isinstance(node.value, ast.Name) and node.value.id == "request"
            ) or qualified.startswith("flask.request."):  # flask.request.args, in full
                return {"request"}
            if node.attr == "__version__" or qualified in VERSION_ATTRIBUTES:
                return {"version"}
            inner = self.kinds(node.value) - {"environment"}
            if EXC in inner:
                inner.discard(EXC)
                # (`e.message` of the project's own exception is a message written for users)
                if node.attr in EXCEPTION_TEXT and OWN_EXC not in inner:
                    inner.add("exception-text")
            inner.discard(OWN_EXC)
            return inner
        if isinstance(node, ast.IfExp) and "debug" in ast.unparse(node.test).lower():
            return self.kinds(node.orelse)  # shown only in debug mode
        if isinstance(node, ast.FormattedValue):
            return self._as_text(self.kinds(node.value))
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
            return self._as_text(self.kinds(node.left) | self.kinds(node.right))
        if isinstance(node, ast.Subscript):
            if self.qualname(node.value) == "os.environ":
                return set()  # one variable, not the environment
            return self.kinds(node.value) | self.kinds(node.slice)
        if isinstance(node, ast.Call):
            name = self.qualname(node.func)
            last = name.rsplit(".", 1)[-1]
            if name in TRACEBACK_CALLS:
                return {"traceback"}
            if name == "sys.exc_info":
                return {EXC}
            if name in VERSION_CALLS or name.startswith("platform."):
                return {"version"}
            if last in NEUTRAL_CALLS or last in SANITIZERS:
                return set()
            args = [*node.args, *(k.value for k in node.keywords)]
            if isinstance(node.func, ast.Attribute):
                receiver = node.func.value
                if self.qualname(receiver) == "os.environ":
                    if node.func.attr in ("copy", "items", "keys", "values"):
                        return {"environment"}
                    return set()
                if node.func.attr in READ_METHODS:
                    # a file opened from a request-chosen path; not an upload the request
                    # carries (`request.files["csv"].read()`), which is the client's own data
                    inner = self.kinds(receiver)
                    if "filehandle" in inner:
                        return (inner - {"filehandle", "request"}) | {"file-contents"}
                    return inner
                found = self.kinds(receiver)
            else:
                found = set()
            for arg in args:
                found |= self.kinds(arg)
            if "filehandle" in found and (name in FILE_LOADERS or last in STREAMING_RESPONSES):
                # json.load(f), FileResponse(f), StreamingHttpResponse(open(path)): the
                # contents of a file the request chose
                return (found - {"filehandle", "request"}) | {"file-contents"}
            if last in ("open", "Path", "FileResponse", "send_file") and "request" in found:
                found = (found - {"request"}) | {"filehandle"}
            if last in ("send_file", "FileResponse"):
                found.discard("filehandle")
            if EXC in found:  # an exception object passed on is not its text, unless formatted
                found = self._as_text(found) if last in TO_TEXT else found - {EXC}
            return found
        found = set()
        for name in node._fields:  # ast.iter_child_nodes, without its generator frames
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST) and type(item) is not ast.Constant:
                        found |= self.kinds(item)
            elif isinstance(value, ast.AST) and type(value) is not ast.Constant:
                found |= self.kinds(value)
        return found

    @staticmethod
    def _as_text(kinds: set[str]) -> set[str]:
        if EXC in kinds:
            return (kinds - {EXC}) | {"exception-text"}
        return kinds

    def leaks(self, node: ast.AST | None) -> set[str]:
        return self.kinds(node) & set(LEAKS)

    # -- visitors --------------------------------------------------------------------------
    def visit_Module(self, node: ast.Module) -> None:
        self.defined.update(
            n.name
            for n in node.body
            if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        )
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.aliases[alias.asname or alias.name.split(".")[0]] = (
                alias.name if alias.asname else alias.name.split(".")[0]
            )

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if node.module:
                self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, in_view: bool) -> None:
        if self.quiet(node):
            return
        params = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
        handler = in_view and node.name in VIEW_METHODS
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if _last(target) in ROUTE_DECORATORS:
                handler = True
        if params and params[0] in ("request", "req"):
            handler = True
        elif params[1:2] == ["request"] and _view_like(node.name):
            # a method taking the request outside a view class: views, middleware hooks
            # (`changelist_view`, `process_exception`), not helpers that get it passed along
            handler = True
        request_params = {p for p in params if p not in ("self", "cls")} if handler else set()
        for decorator in node.decorator_list:
            self.visit(decorator)
        scope = _Scope(handler, request_params)
        for param in params:  # (a parameter hides a module constant of the same name)
            scope.taint.setdefault(param, set())
        scope.varied.update(params)  # (bound by the caller: never a constant)
        error_handler = node.name == "process_exception" or any(
            _last(d.func if isinstance(d, ast.Call) else d) in ERROR_HANDLER_DECORATORS
            for d in node.decorator_list
        )
        for param in request_params & EXCEPTION_PARAMS if error_handler else ():
            # the exception an error handler or a middleware hook is given
            scope.taint[param] = {EXC}
        self.scopes.append(scope)
        for statement in node.body:
            self.visit(statement)
        self.scopes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node, getattr(node, "_in_view", False))

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node, getattr(node, "_in_view", False))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self.quiet(node):
            return
        is_view = any(re.search(r"View|Resource|Handler|Endpoint", _last(b)) for b in node.bases)
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                statement._in_view = is_view  # type: ignore[union-attr]
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def _assign(self, targets: list[ast.AST], value: ast.AST, augment: bool = False) -> None:
        kinds = self.kinds(value)
        if self.formatted(value) or (augment and not self.placeholders(value)):
            kinds.add("formatted")
        elif not _is_const(value) and self.placeholders(value):
            kinds.add("placeholders")
        constant = "formatted" not in kinds and self.constant(value)
        bound = [n for target in targets for n in _target_names(target)]
        names = [n.id for n in bound]
        varied = self.scope.varied
        if constant and not any(name in varied for name in names):
            # bound only to literals so far in this function (`sql += " ORDER BY name"` of a
            # constant keeps it constant)
            kinds.add("const")
        else:
            varied.update(names)
            if not constant and self.quoting and self.shell_quoted(value):
                kinds.add("quoted")
        literal = value.value if isinstance(value, ast.Constant) else None
        if isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) <= 64:
            # pieces of a query, joined later (a long list is data, not a query: not walked)
            literal = self.literal_text(value)
        elif "formatted" in kinds:  # its literal pieces, the leading one first
            literal = (self.leading_text(value) + " " + self.literal_text(value)).strip()
        scope = self.scope
        for name in bound:
            if augment:
                known = scope.taint.setdefault(name.id, set())
                if "const" not in kinds:
                    known.discard("const")
                known.update(kinds)
                if name.id in scope.literal and isinstance(literal, str):
                    scope.literal[name.id] += literal
                continue
            scope.taint[name.id] = set(kinds)
            if isinstance(literal, str):
                scope.literal[name.id] = literal
            else:
                scope.literal.pop(name.id, None)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        self._assign(node.targets, node.value)
        if (
            isinstance(node.value, ast.Constant)
            and node.value.value is True
            and len(self.scopes) == 1
            and any(isinstance(t, ast.Name) and t.id == "DEBUG" for t in node.targets)
            # a config class for tests or development (`class TestingConfig: DEBUG = True`)
            and not any(NOT_PRODUCTION.search(name) for name in self.classes)
        ):
            self.report("debug-setting", node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            self._assign([node.target], node.value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        self._assign([node.target], node.value, augment=True)

    # -- validation of request input: `if name in ALLOWED:` and `if not re.fullmatch(..., name):
    # raise ...` make `name` a value the program chose, not request input
    @staticmethod
    def _checked(test: ast.AST) -> tuple[set[str], bool]:
        """Names a condition validates, and whether they are valid when it is true."""
        positive = True
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, positive = test.operand, False
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            if isinstance(test.left, ast.Name) and isinstance(test.ops[0], (ast.In, ast.NotIn)):
                inside = isinstance(test.ops[0], ast.In)
                return {test.left.id}, inside == positive
            return set(), positive
        if isinstance(test, ast.Call):
            name = _last(test.func)
            if name in VALIDATORS:
                args = test.args[1:2] if name in ("match", "fullmatch") else test.args[:1]
                if name.startswith("is") and isinstance(test.func, ast.Attribute):
                    args = [test.func.value]  # name.isdigit()
                return {a.id for a in args if isinstance(a, ast.Name)}, positive
        return set(), positive

    def _trust(self, names: set[str]) -> dict[str, set[str] | None]:
        """Drop the request mark of `names` in this scope; what they held before."""
        saved: dict[str, set[str] | None] = {}
        for name in names:
            taint = self.lookup(name)
            if "request" in taint:
                saved[name] = self.scope.taint.get(name)
                self.scope.taint[name] = taint - {"request"}
        return saved

    def _restore(self, saved: dict[str, set[str] | None]) -> None:
        for name, taint in saved.items():
            if taint is None:
                self.scope.taint.pop(name, None)
            else:
                self.scope.taint[name] = taint

    def visit_If(self, node: ast.If) -> None:
        self.visit(node.test)
        names, when_true = self._checked(node.test)
        saved = self._trust(names) if names and when_true else {}
        negated = isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not)
        debug = self.debug_words and _mentions_debug(node.test)
        was_debug = self.scope.debug_only
        if debug and not negated:
            self.scope.debug_only = True
        for statement in node.body:
            self.visit(statement)
        self.scope.debug_only = was_debug
        self._restore(saved)
        saved = self._trust(names) if names and not when_true else {}
        for statement in node.orelse:
            self.visit(statement)
        self._restore(saved)
        # `if not valid(name): raise / return / abort(...)`: valid from here on
        last = node.body[-1] if node.body else None
        leaves = isinstance(last, (ast.Raise, ast.Return)) or (
            isinstance(last, ast.Expr)
            and isinstance(last.value, ast.Call)
            and _last(last.value.func) == "abort"
        )
        if names and not when_true and leaves and not node.orelse:
            self._trust(names)
        if debug and negated and leaves and not node.orelse:
            self.scope.debug_only = True  # `if not settings.DEBUG: raise`

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self._assign([item.optional_vars], item.context_expr)
        for statement in node.body:
            self.visit(statement)

    visit_AsyncWith = visit_With  # type: ignore[assignment]

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.iter)
        self._assign([node.target], node.iter)
        for statement in (*node.body, *node.orelse):
            self.visit(statement)

    visit_AsyncFor = visit_For  # type: ignore[assignment]

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        saved = None
        if node.name:
            saved = self.scope.taint.get(node.name)
            caught = getattr(node.type, "elts", [node.type]) if node.type is not None else []
            own = bool(caught) and not any(_last(c) in BUILTIN_EXCEPTIONS for c in caught)
            self.scope.taint[node.name] = {EXC, OWN_EXC} if own else {EXC}
        for statement in node.body:
            self.visit(statement)
        if node.name:
            if saved is None:
                self.scope.taint.pop(node.name, None)
            else:
                self.scope.taint[node.name] = saved

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            self.visit(node.value)
            if self.scope.handler and not self.scope.debug_only:
                for leak in self.leaks(node.value):
                    self.report(leak, node)
            if self.scope.handler and self.reflected(node.value, markup_only=True):
                self.report("reflected-html", node)

    def reflected(self, node: ast.AST | None, markup_only: bool) -> bool:
        """Text built from request data without escaping, sent as HTML: `f"<p>{q}</p>"`.
        A value returned from a handler counts only when its literal text holds markup (a
        framework may send a returned string as JSON); an HTML response's text always."""
        if node is None or not self.formatted(node) or "request" not in self.kinds(node):
            return False
        return not markup_only or "<" in self.literal_text(node)

    @staticmethod
    def _raw_sql_parts(last: str, node: ast.Call, keywords: dict[str, ast.AST]) -> list[ast.AST]:
        """The SQL-bearing arguments of `.extra()` (select, where, tables) or `RawSQL()`."""
        if last == "RawSQL":
            return [a for a in node.args[:1] if not isinstance(a, ast.Starred)] + [
                a.value for a in node.args if isinstance(a, ast.Starred)
            ] + [keywords[k] for k in ("sql",) if k in keywords]  # fmt: skip
        parts = [a for i, a in enumerate(node.args) if i in (0, 1, 3)]
        parts += [keywords[k] for k in ("select", "where", "tables") if k in keywords]
        return [p for p in parts if not (isinstance(p, ast.Constant) and p.value is None)]

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        name = self.qualname(node.func)
        last = name.rsplit(".", 1)[-1]
        first = node.args[0] if node.args else None
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        # pieces of a query collected in a list: conditions.append(f"name = '{name}'")
        if (
            last in ("append", "extend", "insert")
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.args
            and self.formatted(node.args[-1])
        ):
            target = node.func.value.id
            self.scope.taint.setdefault(target, set()).add("formatted")
            if target in self.scope.literal:
                self.scope.literal[target] += " " + self.literal_text(node.args[-1])
        # SQL built by formatting, then run
        # (`run` is a query on a connection only: conn.run(sql), not thread.run())
        method = isinstance(node.func, ast.Attribute)
        query_call = (method and last in SQL_METHODS) or last in SQL_FUNCTIONS
        if query_call and last == "run":
            query_call = method and bool(RUN_RECEIVER.match(_last(node.func.value)))  # type: ignore[attr-defined]
        if query_call:
            candidates = [first] if first is not None else []
            names = ("sql", "query", "statement", "where")
            candidates += [keywords[k] for k in names if k in keywords]
            if last in RAW_SQL_APIS:
                # Django's raw-SQL escape hatches take literal SQL and `params`: anything else
                # (a variable, a call, `*args`, formatting) is SQL text chosen at run time
                candidates = self._raw_sql_parts(last, node, keywords)
                if any(not _plain_literal(c) for c in candidates):
                    self.report("sql", node)
                candidates = []
            for candidate in candidates:
                if self.formatted(candidate):
                    text = self.literal_text(candidate)
                    if last in GENERIC_SQL_CALLS and text and not SQL_WORDS.search(text):
                        continue
                    if last in FETCH_CALLS and (
                        not SQL_WORDS.search(text) or name.startswith(NOT_SQL_MODULES)
                    ):
                        continue
                    if last == "text" and not (
                        name.startswith("sqlalchemy") or SQL_WORDS.search(text)
                    ):  # st.text(f"..."), ax.text(...): SQLAlchemy's text() only
                        continue
                    if SETTING_SQL.match(self.leading_text(candidate)) and (
                        "request" not in self.kinds(candidate)
                    ):
                        continue
                    self.report("sql", node)
                    break
        # shell commands
        shell_cmd = None
        is_shell = False
        if name in SHELL_CALLS:
            is_shell, shell_cmd = True, first if first is not None else keywords.get("cmd")
        elif name in SUBPROCESS_CALLS or (last in ("Popen",) and "shell" in keywords):
            shell = keywords.get("shell")
            if shell is not None and not (isinstance(shell, ast.Constant) and not shell.value):
                is_shell = True
                shell_cmd = first if first is not None else keywords.get("args")
        if is_shell:
            # (a literal command, or one whose values are all shlex.quote'd: at most the low
            # shell-constant finding)
            quoted = self.constant(shell_cmd) or self.shell_quoted(shell_cmd)
            self.report("shell-constant" if quoted else "shell", node)
        # eval / exec
        is_eval = isinstance(node.func, ast.Name) and node.func.id in ("eval", "exec")
        if is_eval and first is not None and not self.constant(first):
            self.report("eval", node)
        # HTML marked safe / unescaped templates
        # (not in the module that defines the marker: the escaping library itself)
        if (
            last in SAFE_MARKERS
            and first is not None
            and not self.constant(first)
            and last not in self.defined
        ):
            self.report("mark-safe", node)
        if last == "Environment" and (name.startswith("jinja2") or "autoescape" in keywords):
            autoescape = keywords.get("autoescape")
            unseen = (  # set from a variable or a call: not known to be on
                name.startswith("jinja2")
                and autoescape is not None
                and not isinstance(autoescape, ast.Constant)
                and not (
                    isinstance(autoescape, ast.Call)
                    and _last(autoescape.func) == "select_autoescape"
                )
            )
            if (
                (autoescape is None and name.startswith("jinja2"))
                or unseen
                or (isinstance(autoescape, ast.Constant) and not autoescape.value)
            ):
                self.report("jinja2-autoescape", node)
        if (
            last == "render_template_string"
            and first is not None
            and (self.formatted(first) or "request" in self.kinds(first))
        ):  # a template built from values, or one the request chooses (template injection)
            self.report("template-string", node)
        # debug servers
        if last == "run" and isinstance(node.func, ast.Attribute):
            debug = keywords.get("debug")
            if isinstance(debug, ast.Constant) and debug.value is True:
                self.report("debug-server", node)
        # request data sent back as HTML, unescaped
        content = first if first is not None else keywords.get("content")
        if last in HTML_RESPONSES and content is not None and self.reflected(content, False):
            self.report("reflected-html", node)
        # leaks into HTTP responses
        if last in RESPONSE_CALLS and not self.scope.debug_only:
            values = [*node.args, *keywords.values()]
            if last == "HTTPException":
                values = [v for v in (keywords.get("detail"), *node.args[1:2]) if v is not None]
            for value in values:
                for leak in self.leaks(value):
                    self.report(leak, node)


# nodes with nothing to check below them
for _leaf in (
    ast.Load, ast.Store, ast.Del, ast.Name, ast.Constant, ast.Pass, ast.Break, ast.Continue,
    ast.Global, ast.Nonlocal, ast.alias, *ast.operator.__subclasses__(),
    *ast.unaryop.__subclasses__(), *ast.cmpop.__subclasses__(), *ast.boolop.__subclasses__(),
):  # fmt: skip
    Analyser._methods[_leaf] = Analyser._leaf


_NEWLINE = re.compile("\n")


def _line_starts(text: str) -> list[int]:
    return [0, *[m.end() for m in _NEWLINE.finditer(text)]]
