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
from wukong_lint.util.re_snapshot import compile_static  # (patterns of the protocol's data)

# a heading line and its text (numbering and closing #s are stripped in Python: a lazy
# group before an optional tail would backtrack on a hostile line)
_HEADING = re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+(\S.*)$")
_NUMBERED = re.compile(r"\d+[.)、][ \t]*")


def _norm(text: str) -> str:
    return re.sub(r"[\s_*`:：()（）]+", " ", text).strip().upper()


def headings(prompt: str) -> list[tuple[int, int, str]]:
    """(start, end of the heading line, its normalized title) of each heading of a prompt."""
    found = []
    for m in _HEADING.finditer(prompt):
        title = m.group(1).rstrip(" \t#")
        numbered = _NUMBERED.match(title)
        found.append((m.start(), m.end(), _norm(title[numbered.end() :] if numbered else title)))
    return found


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


def task_of(data: dict[str, Any]) -> str:
    """What a summons asks: its description and the prompt's TASK section (or its head)."""
    prompt = data.get("prompt")
    prompt = prompt if isinstance(prompt, str) else ""
    description = data.get("description")
    head = description if isinstance(description, str) else ""
    task = section(prompt, ("TASK", "任务")) if prompt else None
    return f"{head}\n{task if task is not None else prompt[:300]}"


def missing_sections(prompt: str, sections: list[dict[str, str]]) -> list[str]:
    titles = [title for _, _, title in headings(prompt)]
    return [
        s["name"]
        for s in sections
        if not any(_names(t, tuple(n for n in (s["name"], s["zh"]) if n)) for t in titles)
    ]


def sections_shown(prompt: str, sections: list[dict[str, str]]) -> bool:
    """Whether a prompt is written in the seven-section form (three of its sections). Most
    prompts have no heading naming a section at all: a substring test turns them away."""
    if "#" not in prompt or not any(s["name"] in prompt or (s["zh"] and s["zh"] in prompt)
                                    for s in sections[:2]):  # fmt: skip
        return False
    return len(sections) - len(missing_sections(prompt, sections)) >= 3


_LABEL = r"^[ \t>*+_-]*({labels})[ \t*_]*[:：]"
_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _label_pattern(labels: tuple[str, ...]) -> re.Pattern[str]:
    found = _PATTERNS.get(labels)
    if found is None:
        joined = "|".join(re.escape(label) for label in sorted(labels, key=len, reverse=True))
        found = _PATTERNS[labels] = compile_static(_LABEL.format(labels=joined), re.I | re.M)
    return found


def declared(texts: list[str], declaration: dict[str, Any]) -> tuple[frozenset[str], bool]:
    """(the labels of declaration parts found in the texts, whether a declaration header is
    there). Parts are named by their labels ("原因", "Reason") so that any form can be
    judged from them."""
    if not texts:
        return frozenset(), False
    text = "\n".join(texts)
    pattern, headers = _declaration_patterns(declaration)
    found = frozenset(m.group(1).lower() for m in pattern.finditer(text))
    return found, headers.search(text) is not None


_DECLARATIONS: list[Any] = [None, None]  # the version's declaration and its patterns


def _declaration_patterns(
    declaration: dict[str, Any],
) -> tuple[re.Pattern[str], re.Pattern[str]]:
    if _DECLARATIONS[0] is not declaration:
        labels = tuple(label for form in declaration["forms"] for ls in form["parts"].values()
                       for label in ls)  # fmt: skip
        headers = compile_static("|".join(re.escape(h) for h in declaration["header"]), re.I)
        _DECLARATIONS[:] = [declaration, (_label_pattern(labels), headers)]
    return _DECLARATIONS[1]  # type: ignore[no-any-return]


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


_LAST: list[Any] = [None, None]  # the last summons and (its version, the avatar it calls)


def _summoned(unit: Unit) -> tuple[Any, str | None]:
    """(the session's version, the avatar a summons calls): the three rules ask of each."""
    if _LAST[0] is not unit:
        from wukong_lint.protocol.spawn_types import spawn_type
        from wukong_lint.protocol.versions import version_of

        event = unit.event  # type: ignore[attr-defined]
        version = version_of(event.ctx)
        _LAST[:] = [unit, (version, version.role_of(spawn_type(event.input)))]
    return _LAST[1]  # type: ignore[no-any-return]


def match_summons(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    facts = getattr(event, "protocol", None)
    if event is None or not facts or "spawn" not in facts or not isinstance(event.input, dict):
        return
    version, role = _summoned(unit)
    summoning = version.summoning
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
