"""The `credential-file` rule kind: credentials in files of a known format (.netrc, .pgpass,
.npmrc, Docker's config.json, FileZilla's XML, Kubernetes Secrets ...) and logins in data
files, found by reading each format rather than by grepping words.

    kind: credential-file
    format: netrc              # a parser of secrets/formats.py, or data-login
    example_path: .netrc       # the file name the rule's examples are read as

Cheap before anything is read: the kind's `gate` looks at the file's name (and, for a PuTTY
key or a Kubernetes Secret, its first bytes or one substring search) and lets through only
files some format claims, so ordinary files cost a dictionary lookup. The logins rule declares
keywords (`pass`, `pwd`) and runs only on data files that hold one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Severity, Unit
from wukong_lint.secrets.file_names import data_syntax, formats_of

# what follows `pass` / `pwd` when it ends a key whose value is a literal: `word": "x`,
# `wd=x`, `word>x` (an XML element), `word="x` (an attribute); not `word": {` (a schema)
_KEY_VALUE = re.compile(
    r"""(?i)(?:word|wd|phrase)?(?:[._-]?[a-z0-9]{1,3})?["']?[ \t]*"""
    r"""(?:>[ \t]*[^<\s]|[:=][ \t]*(?:["'][^"'\s]|[^\s{\[\]"'|>&*!]))"""
)

# the formats of the last unit asked about: every rule of the kind asks for the same unit
_last: list[Any] = [None, ()]


def _formats(unit: Unit) -> tuple[str, ...]:
    if _last[0] is not unit:
        _last[0], _last[1] = unit, formats_of(unit.path, unit.text)
    return _last[1]  # type: ignore[no-any-return]


def gate(unit: Unit) -> bool:
    return bool(_formats(unit))


def match_credential_file(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    fmt = (rule.params or {}).get("format", "")
    # the parsers are imported on the first file a format claims, never for other files
    if fmt == "data-login":
        syntax = data_syntax(unit.path)
        if syntax is None or _formats(unit):
            return  # a file some credential format claims is read by that format's rule
        if offsets is not None:
            # only where `pass` / `pwd` ends a key with a literal value (not `passed` in
            # prose, not a schema's `"Password": {`): the rest of the file is not read
            text = unit.text
            offsets = [o for o in offsets if _KEY_VALUE.match(text, o + 1)]
            if not offsets:
                return
        from wukong_lint.secrets.datalogins import find_data_logins

        found = find_data_logins(unit.text, syntax, offsets)
    elif fmt in _formats(unit):
        if fmt == "keystore" and not unit.text and not unit.size:
            return  # an empty file with a keystore's name holds nothing
        from wukong_lint.secrets.formats import FORMATS

        found = FORMATS[fmt](unit.text)
    else:
        return
    for item in found:
        if item.placeholder:  # still a credential in a credential file: reported, low
            note = f"{item.note}; a well-known placeholder value" if item.note else (
                "a well-known placeholder value")  # fmt: skip
            yield Hit(item.start, item.end, item.start, item.end, note, Severity.LOW)
        else:
            yield Hit(item.start, item.end, item.start, item.end, item.note)


match_credential_file.gate = gate  # type: ignore[attr-defined]
