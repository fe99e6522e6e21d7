"""Parsing JavaScript and TypeScript for the `javascript` rule kind (code_js.py).

The grammars (tree-sitter-javascript, tree-sitter-typescript) are loaded on first use, one
parser per language, and only their compiled extension: a `check --staged` that stages no
JS/TS file holding a trigger word never imports them. Which grammar reads a file follows from
its name: `.ts .mts .cts` TypeScript, `.tsx` TSX, everything else JavaScript (whose grammar
reads JSX too, so JSX in a `.js` file parses). A `.vue` file is parsed as the code of its
`<script>` blocks, with every other character blanked so that lines and columns stay those of
the file.

A text too big to analyse in reasonable time as a tree (a minified bundle: one 2 MB line) is
not parsed: code_js.py checks it with line patterns (js_lines.py) instead. tree-sitter
recovers from syntax errors by itself (ERROR nodes around what it could not read), so invalid
code is analysed as far as it parses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

# Past these sizes a text is generated or minified code, not code a person wrote: the walk of
# its tree in Python would take seconds. Checked with line patterns instead.
MAX_TREE_BYTES = 512_000
MAX_AVERAGE_LINE = 400  # characters per line, for texts over MINIFIED_FROM
MINIFIED_FROM = 20_000

_PARSERS: dict[str, Any] = {}
_SCRIPT = re.compile(r"(<script\b[^>]*>)(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)
_TS_LANG = re.compile(r"""\blang\s*=\s*["'](ts|tsx|typescript)["']""", re.IGNORECASE)


def language_of(path: str) -> str:
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith((".ts", ".mts", ".cts")):
        return "typescript"
    if name.endswith(".tsx"):
        return "tsx"
    if name.endswith(".vue"):
        return "vue"
    return "javascript"


def too_big(text: str) -> bool:
    """A text to check with line patterns: huge, or minified (very long lines on average)."""
    size = len(text)
    if size > MAX_TREE_BYTES:
        return True
    if size < MINIFIED_FROM:
        return False
    return size / (text.count("\n") + 1) > MAX_AVERAGE_LINE


def parser(language: str) -> Any:
    found = _PARSERS.get(language)
    if found is None:
        import tree_sitter

        from wukong_lint.util.extensions import load_extension

        package = "tree_sitter_javascript" if language == "javascript" else "tree_sitter_typescript"
        # the grammar's extension alone: the package's __init__ imports importlib.resources
        binding = load_extension(package, "_binding")
        if binding is None:  # pragma: no cover - an unusual installation
            import importlib

            binding = importlib.import_module(package)
        entry = {
            "javascript": "language",
            "typescript": "language_typescript",
            "tsx": "language_tsx",
        }[language]
        found = _PARSERS[language] = tree_sitter.Parser(
            tree_sitter.Language(getattr(binding, entry)())
        )
    return found


def vue_script(text: str) -> tuple[str, str]:
    """The code of a Vue single-file component's `<script>` blocks, at their own places in a
    text of the same length and lines (everything else blanked), and its language."""
    blank = re.sub(r"[^\n]", " ", text)
    pieces = list(blank)
    language = "javascript"
    for match in _SCRIPT.finditer(text):
        if _TS_LANG.search(match.group(1)):
            language = "typescript"
        start, end = match.span(2)
        pieces[start:end] = text[start:end]
    return "".join(pieces), language


def parse(path: str, text: str) -> tuple[Any, bytes] | None:
    """The syntax tree of a JS/TS text and the bytes it was parsed from; None for a text with
    no code (a Vue file without a script)."""
    language = language_of(path)
    if language == "vue":
        text, language = vue_script(text)
        if not text.strip():
            return None
    data = text.encode("utf-8", "surrogatepass")
    return parser(language).parse(data), data


# -- reading nodes ---------------------------------------------------------------------
def first_arg(args: Any) -> Any:
    if args is None:
        return None
    for child in args.named_children:
        if child.type != "comment":
            return child
    return None


def module_name(quoted: str) -> str:
    name = quoted.strip("\"'`")
    return name[5:] if name.startswith("node:") else name


def descendants(node: Any, kinds: tuple[str, ...]) -> Iterator[Any]:
    stack = list(node.named_children)
    while stack:
        current = stack.pop()
        if current.type in kinds:
            yield current
            if current.type != "identifier":
                continue
        stack.extend(current.named_children)


def bound_names(analyser: Any, pattern: Any) -> list[str]:
    if pattern is None:
        return []
    if pattern.type in ("identifier", "shorthand_property_identifier_pattern"):
        return [analyser.text(pattern)]
    return [
        analyser.text(n)
        for n in descendants(pattern, ("identifier", "shorthand_property_identifier_pattern"))
    ]


def pattern_names(analyser: Any, child: Any) -> tuple[str, str]:
    """(local name, field) of one element of an object pattern (`{ exec: run }`)."""
    if child.type == "shorthand_property_identifier_pattern":
        name = analyser.text(child)
        return name, name
    if child.type == "pair_pattern":
        key = child.child_by_field_name("key")
        value = child.child_by_field_name("value")
        if key is not None and value is not None and value.type == "identifier":
            return analyser.text(value), analyser.text(key)
    if child.type == "object_assignment_pattern":
        left = child.child_by_field_name("left")
        if left is not None:
            name = analyser.text(left)
            return name, name
    return "", ""


def parameter_names(analyser: Any, parameters: Any) -> list[str]:
    if parameters is None:
        return []
    if parameters.type == "identifier":
        return [analyser.text(parameters)]
    names = []
    for child in parameters.named_children:
        target = child.child_by_field_name("pattern") if child.type.endswith("parameter") else child
        if target is not None and target.type == "identifier":
            names.append(analyser.text(target))
        else:
            names.extend(bound_names(analyser, target))
    return names
