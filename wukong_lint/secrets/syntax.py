"""Tolerant key/value readers for the syntaxes credential files are written in: JSON (with
comments, trailing commas, cut off), YAML (block mappings and lists), INI / .properties /
.env / TOML, XML (elements and attributes), HCL, and netrc's token stream.

None of them raises on bad input: they read what they can, token by token or line by line,
and skip the rest, so a malformed file is still scanned as text and never stops the run.
Each yields `Pair`s: the key, the value (unquoted), the value's span in the text (what a
finding points at and masks), whether it was a literal string, and the object it belongs to
(an opaque key shared by the pairs of one JSON object, YAML mapping, INI section, XML element)
so that checks can ask what else the same object holds (a host, a user name).
Standard library only: these run on the files the kind's cheap gate let through.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple


class Pair(NamedTuple):
    key: str
    value: str
    start: int  # span of the value in the text
    end: int
    obj: Any  # identifies the object (mapping, section, element) holding the pair
    literal: bool = True  # a string or bare scalar, not a mapping, list or reference


# -- JSON -------------------------------------------------------------------------------------

# A string that does not end on its line is one token up to the line's end (so a broken
# line is skipped in one pass, never rescanned from each quote in it).
_JSON_TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\[^\n])*(?:"|\\?(?=\n)|\\?\Z)|//[^\n]*|/\*.*?(?:\*/|\Z)|[{}\[\]:,]'
    r'|[^\s{}\[\]:,"/]+|/',
    re.S,
)


def _json_string(token: str) -> str:
    if "\\" not in token:
        return token[1:-1]
    try:
        value = json.loads(token)
    except ValueError:
        return token[1:-1]
    return value if isinstance(value, str) else token[1:-1]


def _unterminated(token: str) -> bool:
    """Whether a string token ending in `\\"` ends with an escaped quote (odd backslashes)."""
    body = token[1:-1]
    return (len(body) - len(body.rstrip("\\"))) % 2 == 1


def json_pairs(text: str) -> Iterator[Pair]:
    """`"key": value` pairs of every object, whether or not the document is valid JSON."""
    stack: list[int] = [-1]  # offsets of the open `{`/`[`; -1: top level
    key: str | None = None
    expect_value = False
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first == "/" and token[:2] in ("//", "/*"):
            continue
        if first in "{[":
            stack.append(match.start())
            key, expect_value = None, False
        elif first in "}]":
            if len(stack) > 1:
                stack.pop()
            key, expect_value = None, False
        elif first == ":":
            expect_value = key is not None
        elif first == ",":
            key, expect_value = None, False
        elif first == '"' and (
            len(token) < 2 or token[-1] != '"' or (token[-2] == "\\" and _unterminated(token))
        ):
            key, expect_value = None, False  # a string cut off at the end of its line
        elif expect_value and key is not None:
            if first == '"':
                value = _json_string(token)
                yield Pair(key, value, match.start() + 1, match.end() - 1, stack[-1], True)
            else:
                yield Pair(key, token, match.start(), match.end(), stack[-1], False)
            key, expect_value = None, False
        elif first == '"':
            key = _json_string(token)
        else:
            key = None


# -- YAML -------------------------------------------------------------------------------------

_YAML_LINE = re.compile(
    r"""(?P<indent>[ ]*)(?P<dash>-[ ]+)?
        (?:"(?P<dq>[^"\n]{1,200})"|'(?P<sq>[^'\n]{1,200})'|(?P<plain>[^\s#'"\-?:\[\]{}][^:\n#]{0,199}?|[\w.-]))
        [ \t]*:(?:[ \t]+(?P<value>.*))?$""",
    re.X,
)


_YAML_ENV_ITEM = re.compile(r"""([ ]*)-[ ]+["']?([A-Za-z_][\w.]{0,80})=([^"'\s]+)["']?[ \t]*$""")


def _yaml_scalar(raw: str, start: int) -> tuple[str, int, int, bool] | None:
    """(value, start, end, literal) of a scalar; None for block scalars and flow
    collections, which are not one literal."""
    if not raw:
        return None
    if raw[0] in "|>[{&*!" and not raw.startswith("!!str"):
        return None
    if raw[0] in "\"'":
        close = raw.find(raw[0], 1)
        if close < 0:
            return raw[1:], start + 1, start + len(raw), True
        return raw[1:close], start + 1, start + close, True
    cut = re.search(r"\s#", raw)
    value = raw[: cut.start()] if cut else raw
    value = value.rstrip()
    return value, start, start + len(value), True


def yaml_pairs(text: str) -> Iterator[Pair]:
    """`key: value` pairs of block mappings, each with the path of its parent mapping (a list
    item is a mapping of its own). Flow collections and block scalars are skipped."""
    stack: list[tuple[int, str]] = []  # (indent, key) of the open mappings
    item = 0
    offset = 0
    for line in text.split("\n"):
        line_start = offset
        offset += len(line) + 1
        stripped = line.strip()
        if not stripped or stripped[0] == "#" or stripped in ("---", "..."):
            continue
        match = _YAML_LINE.match(line.rstrip("\r"))
        if match is None:
            # `- KEY=value` items (a compose file's environment list): pairs of the list
            item_match = _YAML_ENV_ITEM.match(line.rstrip("\r"))
            if item_match is not None:
                indent = len(item_match.group(1))
                while stack and stack[-1][0] >= indent:
                    stack.pop()
                key, value = item_match.group(2), item_match.group(3)
                start = line_start + item_match.start(3)
                # flat names: one login's variables share a prefix (`DB_`), as in a .env
                cut = max(key.rfind("."), key.rfind("_"), key.rfind("-"))
                prefix = key[:cut].lower() if cut > 0 else ""
                parent = (*(k for _, k in stack), "=" + prefix)
                yield Pair(key, value, start, start + len(value), parent)
            continue
        indent = len(match.group("indent"))
        if match.group("dash"):  # a list item: a mapping of its own, under the dash's column
            item += 1
            marker = indent
            indent += len(match.group("dash"))
            while stack and stack[-1][0] >= marker:
                stack.pop()
            stack.append((marker, f"[{item}]"))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        key = match.group("dq") or match.group("sq") or match.group("plain") or ""
        key = key.strip()
        raw = (match.group("value") or "").rstrip()
        if not raw:
            stack.append((indent, key))
            continue
        scalar = _yaml_scalar(raw, line_start + match.start("value"))
        parent = tuple(k for _, k in stack)
        if scalar is None:
            start = line_start + match.start("value")
            yield Pair(key, raw, start, start + len(raw), parent, False)
            continue
        value, start, end, literal = scalar
        yield Pair(key, value, start, end, parent, literal)


# -- INI, .properties, .env, TOML -------------------------------------------------------------

_INI_LINE = re.compile(
    r"[ \t]*(?:export[ \t]+)?(?P<key>[\w.\-/@\"' ]{1,120}?)[ \t]*(?P<sep>[=:])"
    r"[ \t]*(?P<value>.*)$"
)


def _ini_value(raw: str, start: int) -> tuple[str, int, int]:
    if raw[:1] in ("'", '"'):
        close = raw.find(raw[0], 1)
        if close > 0:
            return raw[1:close], start + 1, start + close
        return raw[1:], start + 1, start + len(raw)
    cut = re.search(r"[ \t][#;]", raw)
    value = raw[: cut.start()].rstrip() if cut else raw
    return value, start, start + len(value)


_INLINE_PAIR = re.compile(
    r"""([\w.\-"']{1,80})[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^,}\s]+))"""
)


def ini_pairs(text: str) -> Iterator[Pair]:
    """`key = value` (or `key: value`, `KEY=value`, `export KEY=value`) pairs; `obj` is the
    current `[section]`."""
    section = ""
    offset = 0
    for line in text.split("\n"):
        line_start = offset
        offset += len(line) + 1
        stripped = line.strip()
        if not stripped or stripped[0] in "#;!":
            continue
        if stripped[0] == "[" and stripped.rstrip("\r").endswith("]"):
            section = stripped.strip("[] \r").strip()
            continue
        match = _INI_LINE.match(line)
        if match is None:
            continue
        key = match.group("key").strip().strip("\"'")
        raw = match.group("value").rstrip(" \t\r")
        if not raw:
            yield Pair(key, "", line_start + match.end(), line_start + match.end(), section)
            continue
        value_start = line_start + match.start("value")
        if raw[0] == "{" and raw[-1] == "}":  # a TOML inline table: an object of its own
            for inner in _INLINE_PAIR.finditer(raw):
                group = 2 if inner.group(2) is not None else 3 if inner.group(3) is not None else 4
                begin = value_start + inner.start(group)
                yield Pair(inner.group(1).strip("\"'"), inner.group(group), begin,
                           value_start + inner.end(group), (section, key))  # fmt: skip
            continue
        value, start, end = _ini_value(raw, value_start)
        yield Pair(key, value, start, end, section)


# -- XML --------------------------------------------------------------------------------------

_XML_TOKEN = re.compile(
    r"<!--.*?(?:-->|$)|<!\[CDATA\[.*?(?:\]\]>|$)|<[?!][^>]*>"
    r"|<(?P<close>/)?(?P<tag>[\w:.\-]+)(?P<attrs>(?:\s+[\w:.\-]+\s*=\s*(?:\"[^\"]{0,4096}\"|'[^']{0,4096}'))*)\s*(?P<self>/)?(?:>|(?m:$))",
    re.S,
)
_XML_ATTR = re.compile(r"([\w:.\-]+)\s*=\s*(?:\"([^\"]{0,4096})\"|'([^']{0,4096})')")
_XML_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&apos;": "'"}


def _unescape(value: str) -> str:
    if "&" not in value:
        return value
    return re.sub(r"&(?:lt|gt|amp|quot|apos);", lambda m: _XML_ENTITIES[m.group()], value)


def xml_pairs(text: str) -> Iterator[Pair]:
    """Attributes (`obj`: their element) and the text of leaf elements (`obj`: the parent
    element), plus `<add key="K" value="V"/>` read as the pair K = V (NuGet, .NET config)."""
    stack: list[int] = [-1]
    open_tag: tuple[str, int, int] | None = None  # a start tag whose text may follow
    for match in _XML_TOKEN.finditer(text):
        if match.group("tag") is None:
            continue
        tag = match.group("tag")
        if match.group("close"):
            if open_tag is not None and open_tag[0] == tag:
                raw_start, raw_end = open_tag[2], match.start()
                raw = text[raw_start:raw_end]
                if raw.strip() and "<" not in raw:
                    lead = len(raw) - len(raw.lstrip())
                    value = raw.strip()
                    parent = stack[-2] if len(stack) > 1 else -1
                    start = raw_start + lead
                    yield Pair(tag, _unescape(value), start, start + len(value), parent)
            open_tag = None
            if len(stack) > 1:
                stack.pop()
            continue
        element = match.start()
        attrs = {}
        attrs_start = match.start("attrs")
        for attr in _XML_ATTR.finditer(match.group("attrs")):
            group = 2 if attr.group(2) is not None else 3
            value = attr.group(group)
            start = attrs_start + attr.start(group)
            attrs[attr.group(1).lower()] = (value, start)
            yield Pair(attr.group(1), _unescape(value), start, start + len(value), element)
        if "key" in attrs and "value" in attrs:
            value, start = attrs["value"]
            yield Pair(attrs["key"][0], _unescape(value), start, start + len(value),
                       stack[-1])  # fmt: skip
        if match.group("self"):
            open_tag = None
            continue
        stack.append(element)
        open_tag = (tag, element, match.end())


# -- HCL (Terraform) --------------------------------------------------------------------------

_HCL_LINE = re.compile(r"[ \t]*(?P<key>[\w\-\"]+)[ \t]*=(?!=)[ \t]*(?P<value>.*)$")


def hcl_pairs(text: str) -> Iterator[Pair]:
    """`name = value` attributes; `obj` is the innermost open block. A quoted value without
    interpolation is a literal; references (`var.x`), calls and heredocs are not."""
    stack: list[int] = [-1]
    offset = 0
    for line in text.split("\n"):
        line_start = offset
        offset += len(line) + 1
        stripped = line.strip()
        if not stripped or stripped[0] == "#" or stripped.startswith("//"):
            continue
        match = _HCL_LINE.match(line)
        raw = match.group("value").rstrip(" \t\r") if match is not None else ""
        if match is not None and not raw.endswith("{"):
            start = line_start + match.start("value")
            key = match.group("key").strip('"')
            if raw.startswith('"'):
                close = raw.find('"', 1)
                value = raw[1:close] if close > 0 else raw[1:]
                literal = "${" not in value
                yield Pair(key, value, start + 1, start + 1 + len(value), stack[-1], literal)
            else:
                yield Pair(key, raw, start, start + len(raw), stack[-1], False)
            continue
        for char in stripped:
            if char == "{":
                stack.append(line_start)
            elif char == "}" and len(stack) > 1:
                stack.pop()


# -- netrc ------------------------------------------------------------------------------------

_NETRC_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\S+')


def netrc_pairs(text: str) -> Iterator[Pair]:
    """`machine`, `login`, `password`, `account` tokens and their values, on one line or
    many; `obj` is the machine entry. `macdef` bodies (up to a blank line) are skipped."""
    entry = -1
    tokens = _NETRC_TOKEN.finditer(text)
    for match in tokens:
        word = match.group()
        if word.startswith("#") and (match.start() == 0 or text[match.start() - 1] in "\n \t"):
            # a comment runs to the end of its line
            end = text.find("\n", match.start())
            if end < 0:
                return
            while True:
                nxt = next(tokens, None)
                if nxt is None:
                    return
                if nxt.start() > end:
                    match, word = nxt, nxt.group()
                    break
        lowered = word.lower()
        if lowered in ("machine", "default"):
            entry = match.start()
            if lowered == "default":
                continue
        if lowered == "macdef":
            blank = text.find("\n\n", match.end())
            if blank < 0:
                return
            while True:
                nxt = next(tokens, None)
                if nxt is None:
                    return
                if nxt.start() > blank:
                    match, lowered = nxt, nxt.group().lower()
                    break
            if lowered in ("machine", "default"):
                entry = match.start()
            if lowered == "default":
                continue
        if lowered in ("machine", "login", "password", "account", "port"):
            value = next(tokens, None)
            if value is None:
                return
            raw = value.group()
            start, end = value.span()
            if raw.startswith('"') and raw.endswith('"') and len(raw) >= 2:
                raw, start, end = raw[1:-1], start + 1, end - 1
            yield Pair(lowered, raw, start, end, entry)
