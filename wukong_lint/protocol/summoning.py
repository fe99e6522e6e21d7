"""The summoning protocol (skills/summoning.md; rule kind `summons`, body-boundary): before it
summons one of the avatars the main agent declares it in four parts (分身 / 原因 / 技能 /
预期, or the /wukong command's 六根 / Avatar / Reason / Expected Outcome / Background); the
delegated prompt has seven sections (TASK, EXPECTED OUTCOME, REQUIRED SKILLS, REQUIRED TOOLS,
MUST DO, MUST NOT DO, CONTEXT); history injected into it stays within its cap (T1 300, T2 400
characters). The names, parts and caps are the version's (`summoning` in its data).

Upstream calls a missing part BLOCKING; here it is medium, and by default judged once the
session shows it uses the protocol (a declaration or a sectioned prompt somewhere before):
a team that never adopted summoning.md is not held to it (`require: always` holds every
summons to it). The planner and agents outside the six are not summoned this way.

The declarations come from the transcript reader (protocol/turn_facts.py): the parts found
in the main agent's texts since the last summons returned (`declared`), and whether the
session has shown the protocol (`shown`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit
from wukong_lint.model.events import SPAWN_TOOLS

_HEADING = re.compile(r"(?m)^[ \t]*#{1,6}[ \t]*(?:\d+[.)、][ \t]*)?(.+?)[ \t#]*$")


def _norm(text: str) -> str:
    return re.sub(r"[\s_*`:：()（）]+", " ", text).strip().upper()


def headings(prompt: str) -> list[tuple[int, int, str]]:
    """(start, end of the heading line, its normalized title) of each heading of a prompt."""
    return [(m.start(), m.end(), _norm(m.group(1))) for m in _HEADING.finditer(prompt)]


def _names(title: str, names: tuple[str, ...]) -> bool:
    """Whether a heading's title is one of `names` ("## 1. TASK (任务)", "## 任务")."""
    for name in names:
        wanted = _norm(name)
        if title == wanted or title.startswith(wanted + " ") or title.endswith(" " + wanted):
            return True
    return False


def section(prompt: str, names: tuple[str, ...]) -> str | None:
    """The text of the prompt's section titled one of `names` (None: no such section)."""
    found = headings(prompt)
    for k, (_, end, title) in enumerate(found):
        if _names(title, names):
            stop = found[k + 1][0] if k + 1 < len(found) else len(prompt)
            return prompt[end:stop].strip()
    return None


def missing_sections(prompt: str, sections: list[dict[str, str]]) -> list[str]:
    titles = [title for _, _, title in headings(prompt)]
    return [
        s["name"]
        for s in sections
        if not any(_names(t, tuple(n for n in (s["name"], s["zh"]) if n)) for t in titles)
    ]


def sections_shown(prompt: str, sections: list[dict[str, str]]) -> bool:
    """Whether a prompt is written in the seven-section form (three of its sections)."""
    return len(sections) - len(missing_sections(prompt, sections)) >= 3


_LABEL = r"^[ \t>*\-+]*(?:\*\*|__)?[ \t]*({labels})[ \t]*(?:\*\*|__)?[ \t]*[:：]"
_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _label_pattern(labels: tuple[str, ...]) -> re.Pattern[str]:
    found = _PATTERNS.get(labels)
    if found is None:
        joined = "|".join(re.escape(label) for label in sorted(labels, key=len, reverse=True))
        found = _PATTERNS[labels] = re.compile(_LABEL.format(labels=joined), re.I | re.M)
    return found


def declared(texts: list[str], declaration: dict[str, Any]) -> tuple[frozenset[str], bool]:
    """(the labels of declaration parts found in the texts, whether a declaration header is
    there). Parts are named by their labels ("原因", "Reason") so that any form can be
    judged from them."""
    text = "\n".join(texts)
    labels = tuple(label for form in declaration["forms"] for ls in form["parts"].values()
                   for label in ls)  # fmt: skip
    pattern = _label_pattern(labels)
    found = frozenset(m.group(1).lower() for m in pattern.finditer(text))
    header = any(h.lower() in text.lower() for h in declaration["header"])
    return found, header


def declaration_gaps(found: frozenset[str], declaration: dict[str, Any]) -> list[str]:
    """The parts the closest declaration form lacks (empty: a complete declaration)."""
    best: list[str] | None = None
    for form in declaration["forms"]:
        gaps = [labels[0] for labels in form["parts"].values()
                if not any(label.lower() in found for label in labels)]  # fmt: skip
        if best is None or len(gaps) < len(best):
            best = gaps
    return best or []


def over_cap(prompt: str, history: list[dict[str, Any]]) -> list[str]:
    """Injected history blocks over their cap: "T1 412 > 300" for each."""
    over = []
    for tier in history:
        at = prompt.find(tier["heading"])
        if at < 0:
            continue
        start = prompt.find("\n", at)
        if start < 0:
            continue
        body = prompt[start + 1 :]
        stop = re.search(r"(?m)^[ \t]*(?:---+|#{1,6}[ \t])", body)
        size = len((body[: stop.start()] if stop else body).strip())
        if size > tier["cap"]:
            over.append(f"{tier['tier']} {size} > {tier['cap']}")
    return over


def _hit(unit: Unit, note: str) -> Hit:
    end = unit.text.find("\n")
    return Hit(0, end if end >= 0 else len(unit.text), 0, 0, note)


def match_summons(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    facts = getattr(event, "protocol", None)
    if event is None or not facts or "spawn" not in facts or not isinstance(event.input, dict):
        return
    from wukong_lint.protocol.detect import judged_version
    from wukong_lint.protocol.spawn_types import spawn_type

    version = judged_version(event.ctx, None)
    summoning = version.summoning
    role = version.role_of(spawn_type(event.input))
    if role is None or role not in summoning["avatars"]:
        return
    check = rule.params["check"]
    if rule.params["require"] == "shown" and not facts.get("shown") and check != "history-cap":
        return
    prompt = event.input.get("prompt")
    prompt = prompt if isinstance(prompt, str) else ""
    if check == "declaration":
        gaps = declaration_gaps(facts.get("declared") or frozenset(), summoning["declaration"])
        if gaps:
            yield _hit(unit, f"{role} summoned without the declaration's {', '.join(gaps)}")
    elif check == "prompt-sections":
        gaps = missing_sections(prompt, summoning["prompt"]["sections"])
        if gaps:
            yield _hit(unit, f"the prompt for {role} lacks {', '.join(gaps)}")
    elif check == "history-cap":
        over = over_cap(prompt, summoning["history"])
        if over:
            yield _hit(unit, f"history injected for {role} over its cap: {', '.join(over)}")


match_summons.gate = lambda unit: "spawn" in (unit.event.protocol or ())  # type: ignore[attr-defined]
match_summons.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call"
    and event.is_main
    and event.tool in SPAWN_TOOLS
    and event.ctx.profile == "wukong"
)
