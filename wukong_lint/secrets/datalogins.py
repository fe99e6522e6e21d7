"""Logins in data files: a password-named key with a literal value, in the same object (JSON
object, YAML mapping, INI section, XML element, or the keys of a .env / .properties file that
share a prefix such as `DB_` or `spring.datasource.`) as a host or URL key and a user key.
Such a value is a credential even when it is weak (`hunter22`): the object says what it is.
Placeholders, templates, type names, references, prose and a value equal to its key are not.

Only data files (by extension or name: JSON, YAML, XML, INI, TOML, .env, .properties);
source code has its own rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from wukong_lint.secrets.formats import Found
from wukong_lint.secrets.syntax import Pair, ini_pairs, json_pairs, xml_pairs, yaml_pairs
from wukong_lint.secrets.values import (
    group_prefix,
    is_host_key,
    is_live,
    is_password_key,
    is_user_key,
)

_READERS = {"json": json_pairs, "yaml": yaml_pairs, "xml": xml_pairs, "ini": ini_pairs}


# A file bigger than this is read only around its password keys: a login's keys sit
# together, and a big data file (a service model, a dump) with a few `password` keys would
# otherwise be tokenized whole, in Python, and held in memory as pairs.
WHOLE_FILE = 16 * 1024
AROUND = 2 * 1024
_OBJECT_START = re.compile(r'{[ \t]*"')


def find_data_logins(text: str, syntax: str, offsets: list[int] | None = None) -> Iterator[Found]:
    if len(text) <= WHOLE_FILE or not offsets:
        yield from _logins(text, syntax)
        return
    spans: list[list[int]] = []
    for offset in offsets:
        # whole lines around the hit, unless its lines are huge (one-line JSON)
        low, high = max(0, offset - AROUND), min(len(text), offset + AROUND)
        start = text.rfind("\n", max(0, low - AROUND), low) + 1 or low
        if start == low and low:  # inside a huge line: begin at an object, in step with quotes
            begin = _OBJECT_START.search(text, low, offset)
            start = begin.start() if begin else low
        end = text.find("\n", high, high + AROUND)
        end = high if end < 0 else end
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    for start, end in spans:
        for found in _logins(text[start:end], syntax):
            yield found._replace(start=found.start + start, end=found.end + start)


def _logins(text: str, syntax: str) -> Iterator[Found]:
    pairs = list(_READERS[syntax](text))
    if syntax == "ini":  # flat files: one section holds many logins told apart by prefix
        pairs = [p._replace(obj=(p.obj, group_prefix(p.key))) for p in pairs]
    by_object: dict[object, list[Pair]] = {}
    for pair in pairs:
        by_object.setdefault(pair.obj, []).append(pair)
    for pair in pairs:
        if not (pair.literal and is_password_key(pair.key) and is_live(pair.value, pair.key)):
            continue
        siblings = by_object[pair.obj]
        users = [p.value for p in siblings if p is not pair and is_user_key(p.key)]
        # a password equal to its user name (`app` / `app`) is a development default
        if users and pair.value not in users and any(is_host_key(p.key) for p in siblings):
            yield Found(pair.start, pair.end)
