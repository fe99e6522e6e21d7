"""CHECKPOINTs written as keyed records rather than numbered questions: YAML-like lines
(`explore: yes`, `code_change: 40 lines`, `independent_files: 2`) or a JSON object
(`{"Q1": "yes", "decision": "@eye"}`, `{"explore": true, ...}`), rewritten as the `Qn: answer`
lines checkpoint.py reads. Only text under a CHECKPOINT marker is rewritten, and only keys
that name one of the five questions (a `files:` list elsewhere in a message is not Q4)."""

from __future__ import annotations

import json
import re

_KEYS = (
    (0, r"q0[\w-]*|skills?(?:[_ -]?match(?:ed)?)?|技能(?:匹配)?"),
    (1, r"q1[\w-]*|explor(?:e|ation)|research|explore[_ -]?research|探索(?:/?研究)?"),
    (2, r"q2[\w-]*|code(?:[_ -]?(?:change|changes|edit|lines))?|lines|代码(?:修改)?"),
    (3, r"q3[\w-]*|design|architecture|design[_ -]?architecture|设计(?:/?架构)?"),
    (4, r"q4[\w-]*|(?:independent[_ -]?)?files|file[_ -]?count|parallel|独立文件数?"),
)
_KEY = re.compile(
    r"(?im)^[ \t>*\-]*[\"']?(?:" + "|".join(f"(?P<q{n}>{rx})" for n, rx in _KEYS) + r")[\"']?"
    r"[ \t]*[:=：][ \t]*(.*)$"
)
_OBJECT = re.compile(r"\{[^{}]{10,2000}\}")
_MARKER = re.compile(r"(?i)checkpoint|检查点")
# line breaks of str.splitlines() other than "\n" (a multiline regex's ^ and $ see only "\n")
_OTHER_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def _answer(value: object) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list):
        return str(len(value))
    return str(value).replace("\n", " ")


def keyed_questions(text: str) -> str:
    """`text` with the keyed answers of its CHECKPOINT added as `Qn: answer` lines (and a
    JSON record's decision as a `decision:` line); the text itself when it has no marker or no
    keyed answer."""
    marker = _MARKER.search(text)
    if marker is None:
        return text
    body = text[marker.start() :]
    pairs: list[str] = []  # key: value lines of the JSON records under the marker
    for found in _OBJECT.finditer(body):
        try:
            record = json.loads(found.group(0))
        except ValueError:
            continue
        if isinstance(record, dict):
            pairs += [f"{key}: {_answer(value)}" for key, value in record.items()]
    if not pairs and _OTHER_BREAKS.search(body) is None and _KEY.search(body) is None:
        # (the common case, the numbered form: no keyed line. With "\n" the only line break,
        # the lines of splitlines() are the lines ^...$ of the multiline _KEY sees in `body`,
        # so no line would match in the loop below either)
        return text
    added = []
    for line in [*pairs, *body.splitlines()]:
        match = _KEY.match(line)
        question = next((n for n in range(5) if match and match.group(f"q{n}")), None)
        if match is not None and question is not None:
            added.append(f"Q{question}: {match.groups()[-1]}")
        elif line.lower().startswith("decision:") and line in pairs:
            added.append(line)
    if not added:
        return text
    return text + "\n" + "\n".join(added)
