"""What an avatar's final output claims (avatar-boundary): the evidence gate and the planner's
plan, as the session's protocol version says.

- `evidence` / `speculation`: a speculation phrase (应该可以, 我觉得, probably, should be
  fine ...: upstream's L0 patterns) where evidence belongs, in the output's summary,
  findings, content or claims (the fields upstream's on_subagent_stop.py reads), or in the
  whole output when it has none of them: high, as upstream refuses it.
- `evidence` / `level`: an output below its track's evidence level (fix / feature /
  refactor L2, direct L1; the track is the one the L0 router or the planner chose, else the
  version's default), in versions whose hook enforces it: medium. The level is the one the
  output states (`Level: L2`), else upstream's reading: test results or end-to-end L3, a
  command's output or another healthy pattern L2, references only L1.
- `avatar-output` / `planner`: the planner answers one JSON object with the version's keys,
  types and values, phases of the exact node ids, an empty plan only for the tracks allowed.
- `avatar-output` / `unrecognised`: an output that looks like JSON but does not parse: one
  low note naming it (its contract could not be read, so it is not reported as missing).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit
from wukong_lint.model.events import SPAWN_TOOLS

_FENCED = re.compile(r"```.*?(?:```|\Z)", re.S)
# (each quantifier is followed by a character it cannot match: linear on hostile lines)
_STATED = re.compile(
    r"(?im)^[ \t>*+|-]*(?:evidence[ \t_-]*)?(?:level|证据等级|等级)[ \t*]*[:：|][ \t*]*(L[0-3])\b"
)
_READ_FIELDS = ("summary", "content", "findings", "claims")
_FIELD_LABELS = {"summary": ("summary", "总结", "摘要"), "content": ("content", "内容"),
                 "findings": ("findings", "发现"), "claims": ("claims", "结论")}  # fmt: skip
_L3_KEYS = ("test_results", "tests_passed", "pytest_output")
_L3_WORDS = re.compile(r"(?i)端到端|end-to-end")


def _hit(unit: Unit, note: str) -> Hit:
    end = unit.text.find("\n")
    return Hit(0, end if end >= 0 else len(unit.text), 0, 0, note)


def _read(output: str, version: Any) -> tuple[str, dict[str, Any] | None, Any]:
    """(the text the gate reads, the output as a JSON object if it is one, the speculation
    phrase found in it); the last output's answer is kept (both evidence rules ask)."""
    if _READ[0] is output and _READ[1] is version:
        return _READ[2]  # type: ignore[no-any-return]
    text, data = _read_output(output)
    speculation = version.speculation.search(text) if version.speculation is not None else None
    found = (text, data, speculation)
    _READ[:] = [output, version, found]
    return found


_READ: list[Any] = [None, None, None]


def _read_output(output: str) -> tuple[str, dict[str, Any] | None]:
    from wukong_lint.protocol.contracts import _json_output, sections

    data = _json_output(output)
    if data is not None:
        parts = []
        for key in _READ_FIELDS:
            value = data.get(key)
            if value is not None:
                text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                parts.append(text)
        return "\n".join(parts), data
    found = sections(output, _FIELD_LABELS)
    parts = [c for c in found.values() if c]
    return ("\n".join(parts) if parts else _FENCED.sub(" ", output)), None


def _level(output: str, text: str, data: dict[str, Any] | None, version: Any) -> str:
    stated = _STATED.search(output)
    if stated is not None:
        return stated.group(1).upper()
    if (data is not None and any(k in data for k in _L3_KEYS)) or _L3_WORDS.search(output):
        return "L3"
    if (data is not None and data.get("commands_executed")) or (
        version.healthy is not None and version.healthy.search(output)
    ):
        return "L2"
    return "L1"


def match_evidence(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    facts = getattr(event, "protocol", None)
    if not facts or "avatar" not in facts or facts.get("recheck"):
        return
    from wukong_lint.protocol.contracts import contract_of, unreadable
    from wukong_lint.protocol.versions import level_rank

    found = contract_of(unit.event.ctx, facts["avatar"])  # type: ignore[attr-defined]
    if found is None:
        return
    version, role, _, _ = found
    output = facts["output"] if facts["output"] is not None else unit.text
    if unreadable(output):
        return
    text, data, speculation = _read(output, version)
    who = f"{version.avatars[role].zh} {role}" if role in version.avatars else str(facts["avatar"])
    if rule.params["check"] == "speculation":
        if speculation is not None:
            yield _hit(unit, f"{who} says “{speculation.group(0)}” where evidence belongs "
                             "(L0: speculation): send it back for path:line, a command's "
                             "output or a test run")  # fmt: skip
        return
    if speculation is not None or not version.level_gate:
        return
    if role not in version.summoning["avatars"]:
        return
    track = facts.get("track")
    wanted = version.threshold(track if isinstance(track, str) else None)
    level = _level(output, text, data, version)
    if level_rank(level) < level_rank(wanted):
        on = f"the {track} track" if track else "its track"
        yield _hit(unit, f"{who} gives {level} evidence, {on} needs {wanted}: ask for "
                         "local verification (a command's output, a test run)")  # fmt: skip


def _gate(unit: Unit) -> bool:
    return "avatar" in (unit.event.protocol or ())  # type: ignore[attr-defined]


def _accepts(rule: CompiledRule, event: Any) -> bool:
    return (
        event.kind in ("result", "contract")
        and event.tool in SPAWN_TOOLS
        and event.ctx.profile == "wukong"
    )


match_evidence.gate = _gate  # type: ignore[attr-defined]
match_evidence.accepts = _accepts  # type: ignore[attr-defined]


# -- the planner's plan ----------------------------------------------------------------------

_TYPES = {"string": (str,), "number": (int, float), "integer": (int,), "array": (list,),
          "boolean": (bool,)}  # fmt: skip


def _typed(value: Any, kind: str) -> bool:
    if kind != "boolean" and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[kind])


def _plan(output: str) -> tuple[Any, str]:
    """(the plan, what is wrong with its wrapping: "" when the output is one JSON object)."""
    stripped = output.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*\n(.*?)\n\s*```", stripped, re.S)
    body = fenced.group(1).strip() if fenced else stripped
    decoder = json.JSONDecoder()
    if body.startswith("{"):
        try:
            value, end = decoder.raw_decode(body)
        except (ValueError, RecursionError):
            return None, "not valid JSON"
        if body[end:].strip():
            return value, "text after the JSON (JSON only)"
        return value, ""
    start = body.find("{")
    if start < 0:
        return None, "no JSON plan"
    try:
        value = decoder.raw_decode(body[start:])[0]
    except (ValueError, RecursionError):
        return None, "no JSON plan"
    return value, "prose around the JSON (JSON only)"


def plan_problems(output: str, planner: dict[str, Any]) -> list[str]:
    """What is wrong with a planner's output, against the version's `planner` schema."""
    plan, wrapping = _plan(output)
    problems = [wrapping] if wrapping else []
    if not isinstance(plan, dict):
        return problems or ["not a JSON object"]
    for key, spec in planner["keys"].items():
        if key not in plan:
            problems.append(f"no {key}")
            continue
        value = plan[key]
        if not _typed(value, spec["type"]):
            problems.append(f"{key} is not a {spec['type']}")
        elif spec.get("enum") and value not in spec["enum"]:
            problems.append(f"{key} {value!r} is not one of {', '.join(spec['enum'])}")
        elif spec.get("min") is not None and value < spec["min"]:
            problems.append(f"{key} below {spec['min']}")
        elif spec.get("max") is not None and value > spec["max"]:
            problems.append(f"{key} above {spec['max']}")
    phases = plan.get("phases")
    if isinstance(phases, list):
        if not phases and plan.get("track") not in planner["empty_phases"]:
            problems.append(f"no phases for the {plan.get('track')} track")
        nodes = planner["nodes"]
        for number, phase in enumerate(phases):
            if not isinstance(phase, dict):
                problems.append(f"phase {number} is not an object")
                continue
            for key, kind in planner["phase_keys"].items():
                if key not in phase or not _typed(phase[key], kind):
                    problems.append(f"phase {number} without a {kind} {key}")
            for node in phase.get("nodes") or ():
                if node not in nodes:
                    near = difflib.get_close_matches(str(node), list(nodes), n=1)
                    hint = f" (the id is {near[0]})" if near else ""
                    problems.append(f"unknown node id {node!r}{hint}")
    return list(dict.fromkeys(problems))


def match_avatar_output(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    facts = getattr(event, "protocol", None)
    if not facts or "avatar" not in facts or facts.get("recheck"):
        return
    from wukong_lint.protocol.versions import version_of

    output = facts["output"] if facts["output"] is not None else unit.text
    ctx = unit.event.ctx  # type: ignore[attr-defined]
    version = version_of(ctx)
    if rule.params["check"] == "planner":
        planner = version.planner
        if planner is None or version.role_of(facts["avatar"]) != planner["avatar"]:
            return
        problems = plan_problems(output, planner)
        if problems:
            yield _hit(unit, "the planner's plan: " + "; ".join(problems[:6]))
        return
    from wukong_lint.protocol.contracts import contract_of, unreadable

    if contract_of(ctx, facts["avatar"]) is not None and unreadable(output):
        head = output.strip().splitlines()[0][:60] if output.strip() else ""
        yield _hit(unit, f"{facts['avatar']}'s output looks like JSON but does not parse "
                         f"({head!r}): its contract could not be checked")  # fmt: skip


match_avatar_output.gate = _gate  # type: ignore[attr-defined]
match_avatar_output.accepts = _accepts  # type: ignore[attr-defined]
