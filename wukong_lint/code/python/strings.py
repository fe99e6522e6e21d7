"""What a string expression is, for the Python code checks (code_python.py): built by
formatting from non-literal parts, a constant (literals only, also through a variable of the
function bound only to literals), placeholders, a shell command whose values are all quoted,
and its literal text (to see SQL words). A mixin of code_python.Analyser, which keeps the
variables' marks (`lookup`) and resolves names (`qualname`)."""

from __future__ import annotations

import ast
from typing import Any

from wukong_lint.code.python.names import (
    QUOTERS,
    _is_const,
)


class StringFacts:
    scopes: list[Any]

    def lookup(self, name: str) -> set[str]:  # pragma: no cover - the analyser's
        raise NotImplementedError

    def qualname(self, node: ast.AST) -> str:  # pragma: no cover - the analyser's
        raise NotImplementedError

    def literal_text(self, node: ast.AST) -> str:
        """The literal pieces of a string expression (to see whether it is SQL)."""
        pieces = []
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                pieces.append(sub.value)
            elif isinstance(sub, ast.Name):
                for scope in reversed(self.scopes):
                    if sub.id in scope.literal:
                        pieces.append(scope.literal[sub.id])
                        break
        return " ".join(pieces)

    def leading_text(self, node: ast.AST | None) -> str:
        """The literal text a string expression starts with (its leftmost literal piece)."""
        for _ in range(50):
            if node is None:
                return ""
            if isinstance(node, ast.Constant):
                return node.value if isinstance(node.value, str) else ""
            if isinstance(node, ast.JoinedStr):
                first = node.values[0] if node.values else None
                return first.value if isinstance(first, ast.Constant) else ""
            if isinstance(node, ast.BinOp):
                node = node.left
            elif isinstance(node, (ast.List, ast.Tuple)):
                node = node.elts[0] if node.elts else None
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "join" and len(node.args) == 1:
                    node = node.args[0]  # the first of the pieces joined
                elif node.func.attr == "format":
                    node = node.func.value
                else:
                    return ""
            elif isinstance(node, ast.Name):
                for scope in reversed(self.scopes):
                    if node.id in scope.literal:
                        return scope.literal[node.id]
                return ""
            else:
                return ""
        return ""

    def stringish(self, node: ast.AST) -> bool:
        if isinstance(node, (ast.Constant)) and isinstance(node.value, str):
            return True
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.Name):
            return any(node.id in s.literal for s in self.scopes) or self.formatted(node)
        return self.formatted(node)

    def constant(self, node: ast.AST | None, depth: int = 0) -> bool:
        """A string nothing from outside reaches: a literal, a variable of the function bound
        only to literals, and `+`, `%`, `.format()`, f-strings, `textwrap.dedent` of those
        (also a list or tuple of them: an argument vector)."""
        if node is None or depth > 30:
            return False
        kind = type(node)
        if kind is ast.Constant:
            return isinstance(node.value, (str, bytes, int, float)) or node.value is None  # type: ignore[attr-defined]
        if kind is ast.Name:
            # (a name of this function, or of the module in module-level code: a module's
            # name seen from a function may be rebound elsewhere)
            taint = self.scopes[-1].taint.get(node.id)  # type: ignore[attr-defined]
            return taint is not None and "const" in taint and "formatted" not in taint
        if kind is ast.BinOp:
            return isinstance(node.op, (ast.Add, ast.Mod)) and (  # type: ignore[attr-defined]
                self.constant(node.left, depth + 1)  # type: ignore[attr-defined]
                and self.constant(node.right, depth + 1)  # type: ignore[attr-defined]
            )
        if kind is ast.IfExp:  # "DESC" if descending else "ASC"
            return self.constant(node.body, depth + 1) and self.constant(  # type: ignore[attr-defined]
                node.orelse,  # type: ignore[attr-defined]
                depth + 1,
            )
        if kind is ast.Tuple or kind is ast.List:  # (an argument vector; a long list is data)
            elements = node.elts  # type: ignore[attr-defined]
            return len(elements) <= 64 and all(self.constant(e, depth + 1) for e in elements)
        if kind is ast.JoinedStr:
            for value in node.values:  # type: ignore[attr-defined]
                if type(value) is ast.FormattedValue and not self.constant(value.value, depth + 1):
                    return False
            return True
        if kind is ast.Call:
            func = node.func  # type: ignore[attr-defined]
            last = func.id if type(func) is ast.Name else getattr(func, "attr", "")
            if last not in ("dedent", "cleandoc", "str", "format", "join", "compile"):
                return False
            values = [*node.args, *(k.value for k in node.keywords)]  # type: ignore[attr-defined]
            if last == "compile":  # compile("1 + 1", "<expr>", "eval"): its source
                return bool(node.args) and self.constant(node.args[0], depth + 1)  # type: ignore[attr-defined]
            if last in ("dedent", "cleandoc", "str"):  # textwrap.dedent("""...""")
                return bool(values) and all(self.constant(v, depth + 1) for v in values)
            if last in ("format", "join") and type(func) is ast.Attribute:
                return self.constant(func.value, depth + 1) and all(
                    self.constant(v, depth + 1) for v in values
                )
        return False

    def shell_quoted(self, node: ast.AST | None, depth: int = 0) -> bool:
        """A command whose values all went through `shlex.quote` (the rest literals): the
        shell reads each value as one word."""
        if node is None or depth > 30:
            return False
        if self.constant(node):
            return True
        if isinstance(node, ast.Call):
            name = self.qualname(node.func)
            if name in QUOTERS:
                return True
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join"):
                values = [*node.args, *(k.value for k in node.keywords)]
                return self.constant(node.func.value) and all(
                    self.shell_quoted(v, depth + 1) for v in values
                )
            return False
        if isinstance(node, ast.Name):
            return "quoted" in self.lookup(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
            return self.shell_quoted(node.left, depth + 1) and self.shell_quoted(
                node.right, depth + 1
            )
        if isinstance(node, (ast.Tuple, ast.List)):
            return all(self.shell_quoted(e, depth + 1) for e in node.elts)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self.shell_quoted(node.elt, depth + 1)
        if isinstance(node, ast.JoinedStr):
            return all(
                self.shell_quoted(v.value, depth + 1)
                for v in node.values
                if isinstance(v, ast.FormattedValue)
            )
        return False

    def placeholders(self, node: ast.AST | None) -> bool:
        """Text made of literals only, however repeated or joined: the placeholders of a
        parameterised IN list (`", ".join(["%s"] * len(ids))`, `"?" * n`), or a variable
        holding them."""
        if node is None:
            return False
        if _is_const(node) or (
            type(node) is ast.Constant and isinstance(node.value, (int, float))  # type: ignore[attr-defined]
        ):
            return True
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Mult):
                return self.placeholders(node.left) or self.placeholders(node.right)
            if isinstance(node.op, ast.Add):
                return self.placeholders(node.left) and self.placeholders(node.right)
            return isinstance(node.op, ast.Mod) and self.constant(node)
        if isinstance(node, ast.Tuple) and not node.elts:
            return True  # `"..." % ()`: nothing formatted in
        if isinstance(node, (ast.List, ast.Tuple)):
            return bool(node.elts) and all(self.placeholders(e) for e in node.elts)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return self.placeholders(node.elt)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return (
                node.func.attr == "join"
                and len(node.args) == 1
                and _is_const(node.func.value)
                and self.placeholders(node.args[0])
            ) or self.constant(node)
        if isinstance(node, ast.Name):
            taint = self.lookup(node.id)
            if "placeholders" in taint and "formatted" not in taint:
                return True
            return self.constant(node)
        # (last: an f-string of constants, textwrap.dedent of a literal...)
        return isinstance(node, (ast.JoinedStr, ast.Call)) and self.constant(node)

    def formatted(self, node: ast.AST | None) -> bool:
        """A string built from non-literal parts: f-string, +, % or .format()."""
        if node is None:
            return False
        if isinstance(node, ast.JoinedStr):
            return any(
                isinstance(v, ast.FormattedValue) and not self.placeholders(v.value)
                for v in node.values
            )
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                if self.formatted(node.left) or self.formatted(node.right):
                    return True
                return (self.stringish(node.left) or self.stringish(node.right)) and not (
                    self.placeholders(node.left) and self.placeholders(node.right)
                )
            if isinstance(node.op, ast.Mod):
                return self.stringish(node.left) and not self.placeholders(node.right)
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "format" and (node.args or node.keywords):
                values = [*node.args, *(k.value for k in node.keywords)]
                return self.stringish(node.func.value) and not all(
                    self.placeholders(v) for v in values
                )
            if node.func.attr == "join" and len(node.args) == 1:
                # " AND ".join(conditions) of pieces built by formatting
                return self.stringish(node.func.value) and self.formatted(node.args[0])
            return False
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return any(self.formatted(e) for e in node.elts)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self.formatted(node.elt)
        if isinstance(node, ast.Name):
            return "formatted" in self.lookup(node.id)
        return False
