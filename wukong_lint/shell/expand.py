"""The words one shell word becomes, with what can be known statically expanded.

bash expands a word before it runs it: braces (`{rm,-rf,~}`), parameters (`$x`, `"${a[@]}"`,
`"$@"`, `${!x}`, `${x%/}`), command substitutions (`$(echo ~)`), then splits what unquoted
expansions gave on `IFS` (`IFS=,; x=rm,-rf,~; $x`). A command hidden in such expansions is
the command they give, so the walker judges that: `expand(node, walker)` returns the words a
word node becomes, given the variables the line set so far (`walker.env`, arrays included,
see `get_array`) and what a command substitution prints (`walker.printed_by`).

What cannot be known keeps its source text (`$TARGET`, `$(cat f)`, `${a[@]}` of an unknown
array): the path reasoning still tells `$HOME/x` from `$TMPDIR/x`, and a program word still
holding `$` or a backtick is a program the line does not name (see `unresolved`).
"""

from __future__ import annotations

import fnmatch
import re
from typing import Any

from wukong_lint.shell.words import EXPANSIONS, unescape
from wukong_lint.shell.words import _unescape_double as unescape_double
from wukong_lint.shell.words import word as plain_word

ARRAY = "[]"  # suffix of an env key holding an array's elements, joined by NUL (bash drops NUL)
POSITIONAL = "@" + ARRAY  # the positional parameters, once `set --` or a call gives them
MAX_FIELDS = 256  # words one word may become
MAX_VALUE = 4096  # characters of a value kept
_DEFAULT_IFS = " \t\n"
# shells named by variables the line does not set: `curl ... | "$SHELL"`, `$BASH -c ...`
SHELL_VARIABLES = {"SHELL": "/bin/sh", "BASH": "/bin/bash", "ZSH_NAME": "zsh",
                   "BASH_SOURCE": "bash"}  # fmt: skip
_BRACED = re.compile(
    r"\$\{(?P<pre>[#!]?)(?P<name>[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])"
    r"(?:\[(?P<index>[^\]]*)\])?(?P<op>.*)\}$",
    re.S,
)
_SIMPLE = re.compile(r"\$(?P<name>[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-])$")
_SLICE = re.compile(r":\s*(-?\s*\d+)(?::\s*(-?\s*\d+))?$")
_EXPANDED = EXPANSIONS | {"command_substitution"}
_SPECIAL = frozenset(["@", "*", "#", "0"])  # (what `$X` may be even when not set)
_PLAIN_KINDS = frozenset(["word", "string", "raw_string", "ansi_c_string", "number"])
_SEQUENCE = re.compile(r"\{(-?\d{1,6}|[A-Za-z])\.\.(-?\d{1,6}|[A-Za-z])\}$")


def get_array(env: dict[str, str], name: str) -> list[str] | None:
    """The elements of an array the line assigned (`a=(x y)`, `read -a`, `set --`)."""
    found = env.get(name + ARRAY)
    if found is None:
        return None
    return found.split("\0") if found else []


def set_array(env: dict[str, str], name: str, items: list[str]) -> None:
    items = [item.replace("\0", "") for item in items[:MAX_FIELDS]]
    env[name + ARRAY] = "\0".join(items)[:MAX_VALUE]
    if name == "@":
        for number in range(1, 10):
            env.pop(str(number), None)
        for number, item in enumerate(items[:9], 1):
            env[str(number)] = item
        env["#"] = str(len(items))
        env["@"] = env["*"] = " ".join(items)[:MAX_VALUE]
    elif items:
        env[name] = items[0]  # `$a` is the first element
    else:
        env.pop(name, None)


def forget(env: dict[str, str], name: str) -> None:
    """The variable's value is no longer known (assigned something the line does not show)."""
    env.pop(name, None)
    env.pop(name + ARRAY, None)


def unresolved(word: str) -> bool:
    """Does an expanded word still hold an expansion the line does not give?"""
    return "$" in word or "`" in word or word.startswith(("<(", ">("))


class _Fields:
    """The words being built from the parts of one word."""

    __slots__ = ("current", "done", "started")

    def __init__(self) -> None:
        self.done: list[str] = []
        self.current = ""
        self.started = False

    def text(self, text: str) -> None:
        self.current += text
        self.started = True

    def split(self, text: str, ifs: str) -> None:
        """An unquoted expansion's value: split on IFS, joined to the text around it."""
        if not ifs:
            self.text(text)
            return
        white = "".join(c for c in ifs if c in _DEFAULT_IFS)
        other = "".join(c for c in ifs if c not in _DEFAULT_IFS)
        parts = _splitter(white, other).split(text)
        for index, part in enumerate(parts):
            if index:
                self.end()
            if part:
                self.text(part)

    def end(self) -> None:
        if self.started:
            self.done.append(self.current)
        self.current = ""
        self.started = False

    def fields(self) -> list[str]:
        self.end()
        return self.done[:MAX_FIELDS]


_SPLITTERS: dict[tuple[str, str], re.Pattern[str]] = {}


def _splitter(white: str, other: str) -> re.Pattern[str]:
    key = (white, other)
    found = _SPLITTERS.get(key)
    if found is None:
        spaces = f"[{re.escape(white)}]"
        if not white:
            pattern = f"[{re.escape(other)}]"
        elif other:  # `a , b`: a separator with the blanks around it, one split
            pattern = f"{spaces}*[{re.escape(other)}]{spaces}*|{spaces}+"
        else:
            pattern = f"{spaces}+"
        found = _SPLITTERS[key] = re.compile(pattern)
    return found


def expand(node: Any, walker: Any) -> list[str]:
    """The words a word node becomes (see the module docstring)."""
    kind = node.type
    if kind in _PLAIN_KINDS:  # (the usual cases first: as written; a node's text is costly)
        raw = node.text
        if kind == "word":
            if b"{" not in raw:
                return [unescape(raw.decode("utf-8", "replace"))]
        elif kind == "string":
            if b"$" not in raw and b"`" not in raw and raw[-1:] == b'"' and len(raw) >= 2:
                return [unescape_double(raw[1:-1].decode("utf-8", "replace"))]
        elif kind == "raw_string":
            return [raw[1:-1].decode("utf-8", "replace")]
        else:
            return [plain_word(node)]
    elif kind == "simple_expansion":  # `$X` the line did not set: as written
        text = node.text.decode("utf-8", "replace")
        name = text[1:]
        if name not in walker.env and name not in SHELL_VARIABLES and name not in _SPECIAL:
            return [text]
    fields = _Fields()
    braces = _parts(node, walker, fields, quoted=False)
    found = fields.fields()
    if braces:
        from wukong_lint.shell.path_reasoning import expand_braces

        found = [one for word in found for one in expand_braces(word)][:MAX_FIELDS]
    return found


def expand_one(node: Any, walker: Any) -> str:
    """The one word a node gives where bash does not split (a here-string, an assignment)."""
    kind = node.type
    if (kind == "word" and b"{" not in node.text) or kind in ("raw_string", "number"):
        return plain_word(node)  # (most values: as written)
    fields = _Fields()
    _parts(node, walker, fields, quoted=True)
    return " ".join(fields.fields())


def _ifs(walker: Any) -> str:
    found = walker.env.get("IFS")
    return _DEFAULT_IFS if found is None else found


def _parts(node: Any, walker: Any, fields: _Fields, quoted: bool) -> bool:
    """Add the parts of `node` to `fields`; True when an unquoted brace may expand."""
    kind = node.type
    if kind == "word":
        text = unescape(node.text.decode("utf-8", "replace"))
        fields.text(text)
        return not quoted and "{" in text  # (`~/{a,b}`: its braces are parts of their own)
    if kind == "concatenation":
        braces = False
        for child in node.children:
            braces = _parts(child, walker, fields, quoted) or braces
        return braces
    if kind == "string":
        _string(node, walker, fields)
        return False
    if kind in EXPANSIONS or kind == "command_substitution":
        values = _value(node, walker, quoted)
        if values is None:
            fields.text(node.text.decode("utf-8", "replace"))
        elif quoted:
            for index, value in enumerate(values):
                if index:
                    fields.end()
                fields.text(value)
        else:
            for index, value in enumerate(values):
                if index:
                    fields.end()
                fields.split(value, _ifs(walker))
        return False
    if kind == "brace_expression" and not quoted:
        text = node.text.decode("utf-8", "replace")
        sequence = _sequence(text)
        if sequence is None:
            fields.text(text)
        else:
            for index, value in enumerate(sequence):
                if index:
                    fields.end()
                fields.text(value)
        return False
    fields.text(plain_word(node, walker.env))
    return False


def _string(node: Any, walker: Any, fields: _Fields) -> None:
    """A double-quoted string: its text, its expansions unsplit (`"$@"` and `"${a[@]}"` are
    still one word per element, and no word at all when there is none)."""
    raw = node.text
    text = raw.decode("utf-8", "replace")
    if not (text.endswith('"') and len(text) >= 2) or text.startswith('$"'):
        fields.text(plain_word(node, walker.env))
        return
    base = node.start_byte
    pos = 1
    started = fields.started
    for child in node.children:
        if child.type in _EXPANDED:
            before = raw[pos : child.start_byte - base].decode("utf-8", "replace")
            if before:
                fields.text(unescape_double(before))
            _parts(child, walker, fields, quoted=True)
            pos = child.end_byte - base
    tail = raw[pos:-1].decode("utf-8", "replace")
    if tail or raw == b'""':
        fields.text(unescape_double(tail))
    elif not fields.started and not started and not _all_elements(node):
        fields.started = True  # (`"$x"` of an empty value is still a word)


def _all_elements(node: Any) -> bool:
    """Is a string only `"$@"` / `"${a[@]}"` expansions (no word when they are empty)?"""
    named = [c for c in node.children if c.is_named and c.type != "string_content"]
    return bool(named) and all(
        c.type in EXPANSIONS and ("[@]" in (t := c.text.decode("utf-8", "replace")) or t in
                                  ("$@", "${@}"))
        for c in named
    )  # fmt: skip


def _sequence(text: str) -> list[str] | None:
    match = _SEQUENCE.match(text)
    if match is None:
        return None
    first, last = match.groups()
    if first.lstrip("-").isdigit() != last.lstrip("-").isdigit():
        return None
    if first.lstrip("-").isdigit():
        a, b = int(first), int(last)
        step = 1 if b >= a else -1
        if abs(b - a) > 64:
            return None
        return [str(n) for n in range(a, b + step, step)]
    a, b = ord(first), ord(last)
    step = 1 if b >= a else -1
    return [chr(n) for n in range(a, b + step, step)]


# -- parameters ----------------------------------------------------------------------------


def _value(node: Any, walker: Any, quoted: bool) -> list[str] | None:
    """The values of an expansion (several for `"$@"`, `"${a[@]}"`), or None if unknown."""
    text = node.text.decode("utf-8", "replace")
    if node.type == "command_substitution":
        printed = walker.printed_by(text)
        if printed is None:
            return None
        return [printed.rstrip("\n")[:MAX_VALUE]]
    env: dict[str, str] = walker.env
    if node.type == "simple_expansion":
        match = _SIMPLE.match(text)
        if match is None:
            return None
        return _lookup(match.group("name"), None, env, walker, quoted)
    match = _BRACED.match(text)
    if match is None:
        return None
    pre, name, index, op = match.group("pre", "name", "index", "op")
    if pre == "!" and not op and index is None:  # ${!x}: the variable x names
        target = env.get(name)
        if target is None or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", target):
            return None
        found = _lookup(target, None, env, walker, quoted)
        return found if found is not None else ["$" + target]
    if pre:
        if pre == "#" and not op:
            values = _lookup(name, index, env, walker, True)
            if values is None:
                return None
            if index in ("@", "*") or name in ("@", "*"):
                return [str(len(_lookup(name, index, env, walker, False) or []))]
            return [str(len(values[0]) if values else 0)]
        return None
    whole = index in ("@", "*") or name in ("@", "*")
    sliced = _SLICE.match(op) if whole and op else None
    if sliced is not None:  # "${a[@]:1:2}", "${@:2}": some of the elements
        items = _lookup(name, "@" if index is not None else None, env, walker, False)
        if items is None:
            return None
        start = int(sliced.group(1).replace(" ", ""))
        if name in ("@", "*") and index is None:
            items = [env.get("0", "bash"), *items]  # ("${@:1}" counts from $1: $0 first)
        length = sliced.group(2)
        items = items[start:] if start >= 0 else items[len(items) + start :]
        if length is not None:
            items = items[: int(length.replace(" ", ""))]
        if (index == "*" or name == "*") and quoted:
            return [_ifs(walker)[:1].join(items)]
        return items
    values = _lookup(name, index, env, walker, quoted)
    if not op:
        return values
    return _operate(values, op, name, env)


def _lookup(
    name: str, index: str | None, env: dict[str, str], walker: Any, quoted: bool
) -> list[str] | None:
    if name in ("@", "*"):
        items = get_array(env, "@")
        if items is None:
            return None
        return [" ".join(items)] if name == "*" and quoted else items
    if index is not None:
        items = get_array(env, name)
        if items is None:
            value = env.get(name)
            if value is None:
                return None
            items = [value]
        if index in ("@", "*"):
            if index == "*" and quoted:
                sep = _ifs(walker)[:1]
                return [sep.join(items)]
            return list(items)
        if index.strip().lstrip("-").isdigit():
            at = int(index)
            return [items[at]] if -len(items) <= at < len(items) else [""]
        return None
    if name == "0":
        return [env.get("0", "bash")]
    value = env.get(name)
    if value is None and name.isdigit() and POSITIONAL in env:
        return [""]  # (`set --` told them all: one not given is empty)
    if value is None and name in SHELL_VARIABLES:
        return [SHELL_VARIABLES[name]]
    return None if value is None else [value]


def _operate(values: list[str] | None, op: str, name: str, env: dict[str, str]) -> list[str] | None:
    """`${x:-default}`, `${x%/}`, `${x/a/b}`, `${x:1:2}`, `${x^^}` of known values."""
    if op[:2] in (":-", ":=") or op[:1] in ("-", "="):
        default = _literal_default(op[2:] if op[:1] == ":" else op[1:])
        if values is None:
            # not set on the line: the value the line gives for when it is not set at all
            # (`${OUT:-dist}`, `${PYTHON:-python3}`; set, it is the caller's input)
            if default and "$" not in default and "`" not in default:
                if "=" in op[:2]:  # `: ${x:=rm}`: x is set from here on
                    env[name] = default
                return [default]
            return None
        if op[:1] == ":" and not any(values):
            if "=" in op[:2] and "$" not in default and "`" not in default:
                env[name] = default
            return [default]
        return values
    if values is None:
        return None
    if op[:2] == ":+" or op[:1] == "+":
        alternative = op[2:] if op[:1] == ":" else op[1:]
        return [_literal_default(alternative)] if any(values) else [""]
    if op[:2] == ":?" or op[:1] == "?":
        return values
    if op[:2] in ("##", "%%") or op[:1] in ("#", "%"):
        longest = op[:2] in ("##", "%%")
        pattern = op[2:] if longest else op[1:]
        return [_strip(v, _literal_default(pattern), op[0] == "#", longest) for v in values]
    if op[:1] == "/":
        body = op[1:]
        mode = body[:1] if body[:1] in ("/", "#", "%") else ""
        body = body[1:] if mode else body
        pattern, _, replacement = body.partition("/")
        return [_replace(v, _literal_default(pattern), replacement, mode) for v in values]
    if op in ("^^", ",,", "^", ","):
        change = str.upper if op[0] == "^" else str.lower
        return [change(v) if len(op) == 2 else change(v[:1]) + v[1:] for v in values]
    if op.startswith("@"):
        return values
    sliced = _SLICE.match(op)
    if sliced:
        start = int(sliced.group(1).replace(" ", ""))
        length = sliced.group(2)
        out = []
        for value in values:
            piece = value[start:] if start >= 0 else value[len(value) + start :]
            if length is not None:
                count = int(length.replace(" ", ""))
                piece = piece[:count]  # (a negative length counts from the end)
            out.append(piece)
        return out
    return None


def _literal_default(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _strip(value: str, pattern: str, front: bool, longest: bool) -> str:
    sizes = range(len(value) + 1)
    order = list(reversed(sizes)) if longest else list(sizes)
    for size in order:
        piece = value[:size] if front else value[len(value) - size :]
        if fnmatch.fnmatchcase(piece, pattern):
            return value[size:] if front else value[: len(value) - size]
    return value


def _replace(value: str, pattern: str, replacement: str, mode: str) -> str:
    if not pattern:
        return value
    regex = fnmatch.translate(pattern)[4:-3]  # (the pattern, without \A(?s: ... )\Z)
    try:
        if mode == "#":
            return re.sub("^(?:" + regex + ")", lambda _: replacement, value, count=1)
        if mode == "%":
            return re.sub("(?:" + regex + ")$", lambda _: replacement, value, count=1)
        return re.sub(regex, lambda _: replacement, value, count=0 if mode == "/" else 1)
    except re.error:
        return value
