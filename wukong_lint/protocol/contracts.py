"""Avatar output contracts and Do/Don't (avatar-boundary), seed 004's avatar table.

- `contract`: an avatar's final output (the Task/Agent result, or its last message when it
  ran in the background) carries its role's sections, as JSON keys or as Markdown headings
  or labels, English or Chinese: 眼 files/findings/summary, 耳 goal/AC/constraints/questions,
  鼻 issues/summary/recommendation, 舌 tests/docs/results, 身 files_changed/summary/tests_run,
  意 design/decisions/tradeoffs. `missing`: a section is absent; `placeholder`: a section
  holds template text (TODO, `{问题描述}`, `___`); `untested`: 身 reports `tests_run` false.
- `spawn`: 眼/鼻 spawned in the foreground (BG 必须), 身/意 in the background (禁止), a second
  身/意 while one still runs (Max 1; fine when each has `isolation: "worktree"`), an avatar
  spawning an avatar.
- `role-paths`: a role writing outside its paths (舌 changing business code).
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit
from wukong_lint.model.events import SPAWN_TOOLS, event_paths
from wukong_lint.protocol.spawn_types import spawn_type

# The six roles and the names teams spawn them by (subagent_type, @mentions).
ROLES: dict[str, tuple[str, ...]] = {
    "eye": ("眼", "眼分身", "explorer", "explore"),
    "ear": ("耳", "耳分身", "analyst", "requirements-analyst"),
    "nose": ("鼻", "鼻分身", "reviewer", "code-reviewer"),
    "tongue": ("舌", "舌分身", "tester"),
    "body": ("身", "身分身", "斗战胜佛", "implementer", "impl"),
    "mind": ("意", "意分身", "architect"),
}
_ROLE_OF = {alias.lower(): role for role, names in ROLES.items() for alias in (role, *names)}
_ZH = {"eye": "眼", "ear": "耳", "nose": "鼻", "tongue": "舌", "body": "身", "mind": "意"}

# role -> section -> the labels that name it (seed 004's output contracts)
CONTRACTS: dict[str, dict[str, tuple[str, ...]]] = {
    "eye": {
        "files": ("files", "relevant files", "文件", "相关文件", "文件列表"),
        "findings": ("findings", "发现", "发现列表"),
        "summary": ("summary", "总结", "摘要"),
    },
    "ear": {
        "goal": ("goal", "目标", "核心目标"),
        "AC": ("AC", "acceptance criteria", "验收标准"),
        "constraints": ("constraints", "约束", "约束条件"),
        "questions": ("questions", "open questions", "问题", "澄清问题", "待澄清问题"),
    },
    "nose": {
        "issues": ("issues", "问题", "问题列表"),
        "summary": ("summary", "总结", "审查总结", "摘要"),
        "recommendation": ("recommendation", "recommendations", "建议", "改进建议"),
    },
    "tongue": {
        # (the upstream tongue agent's own headings: "Tests Created", "Docs Created")
        "tests": (
            "tests",
            "test files",
            "tests created",
            "tests added",
            "测试",
            "测试文件",
            "新增测试",
        ),
        "docs": ("docs", "documentation", "docs created", "docs updated", "文档", "新增文档"),
        "results": ("results", "test results", "结果", "测试结果"),
    },
    "body": {
        "files_changed": (
            "files_changed",
            "files changed",
            "changed files",
            "修改的文件",
            "变更文件",
            "修改文件",
        ),
        "summary": ("summary", "总结", "变更摘要", "摘要"),
        "tests_run": ("tests_run", "tests run", "测试已运行", "是否运行了测试", "运行测试"),
    },
    "mind": {
        "design": ("design", "设计", "设计方案"),
        "decisions": ("decisions", "决策", "决策记录"),
        "tradeoffs": ("tradeoffs", "trade-offs", "权衡", "权衡取舍"),
    },
}


_DECLARED: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}


def _declared(names: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """A contract from an agent definition's section names (kept: the label patterns are
    cached per contract)."""
    found = _DECLARED.get(names)
    if found is None:
        found = _DECLARED[names] = {n: (n,) for n in names}
    return found


def role_of(name: str | None) -> str | None:
    if not name:
        return None
    return _ROLE_OF.get(name.strip().lstrip("@").lower())


def _hit(unit: Unit, note: str) -> Hit:
    end = unit.text.find("\n")
    return Hit(0, end if end >= 0 else len(unit.text), 0, 0, note)


# -- reading an output -----------------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s_-]+")
_JSON_BLOCK = re.compile(r"```(?:json)?\s*\n(\{.*?\})\s*\n```", re.S)
_PLACEHOLDER = re.compile(
    r"(?i)^(?:todo|tbd|fixme|\.\.\.|…|_{2,}|x{3,}|待补充|待定|略|\?+|"
    r"\{[^{}\"':]*\}|<[^<>]+>|\[(?:\.\.\.|…|[^\[\]\"',/.\s]*\s[^\[\]\"',/.]*)\])$"
)
_NO = re.compile(r"(?i)^(?:false|no|否|未|没有|not run|skipped|0)\b|未运行|没有运行|not run")


def _json_output(text: str) -> dict[str, Any] | None:
    """The output as a JSON object: the whole text or a fenced block (keys lower-cased)."""
    stripped = text.strip()
    candidates = [stripped] if stripped.startswith("{") else []
    if "```" in text:
        candidates += [m.group(1) for m in _JSON_BLOCK.finditer(text[:200_000])]
    for candidate in candidates:
        try:
            value = _DECODER.raw_decode(candidate)[0]  # (text may follow the object)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            if len(value) == 1 and isinstance(next(iter(value.values())), dict):
                value = next(iter(value.values()))  # {"output": {...}}
            return {str(k).lower(): v for k, v in value.items()}
    return None


# (made once: making a decoder or an encoder costs more than reading a short output)
_DECODER = json.JSONDecoder()
_ENCODER = json.JSONEncoder(ensure_ascii=False)  # json.dumps(value, ensure_ascii=False)


def _label_pattern(labels: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(re.escape(label).replace("_", "[ _-]?").replace(r"\ ", "[ _-]?")
                     for label in labels)  # fmt: skip
    # a heading (`## Findings`), a label (`**Summary**:`, `- files_changed:`), a table row;
    # each quantifier is followed by a character it cannot match (linear on hostile lines)
    return re.compile(
        rf"(?im)^[ \t>|]*(?:#{{1,6}}[ \t]*|[-*+][ \t]+)?(?:(?:\*\*|__)[ \t]*)?(?:\d+\.[ \t]*)?"
        rf"(?:{names})[ \t]*(?:(?:\([^)\n]*\)|（[^）\n]*）)[ \t]*)?(?:(?:\*\*|__)[ \t]*)?"
        r"([:：|]|$)(.*)$"
    )


_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}
_NEXT_LABEL = re.compile(
    r"(?m)^[ \t]*(?:#{1,6}[ \t]|(?:\*\*|__)?[\w\u4e00-\u9fff ]{1,30}(?:\*\*|__)?[:：])"
)
_HEADING = re.compile(r"[ \t>|]*(#{1,6})[ \t]")
# the next heading of level 1..n (a section runs over its sub-headings)
_SAME_LEVEL = tuple(re.compile(rf"(?m)^[ \t]*#{{1,{n}}}[ \t]") for n in range(1, 7))


_LAST: list[Any] = [None, None, None]  # the last output, contract and sections: 3 rules ask
# Outputs seen before, by text and contract (the contracts are kept objects: CONTRACTS,
# `_declared`): avatars of one session often return the same text (measured on the bench's
# compliant session: most of its outputs repeat). Read-only results, shared.
_SEEN: dict[tuple[str, int], tuple[Any, dict[str, str | None]]] = {}
_SEEN_MAX = 512
_SEEN_TEXT = 8192  # characters: a longer output is read each time (the memo holds its keys)


def sections(text: str, contract: dict[str, tuple[str, ...]]) -> dict[str, str | None]:
    """Each section of `contract` -> its content (None: absent)."""
    if _LAST[0] is text and _LAST[1] is contract:
        return _LAST[2]  # type: ignore[no-any-return]
    key = (text, id(contract)) if len(text) <= _SEEN_TEXT else None
    seen = _SEEN.get(key) if key is not None else None
    if seen is not None and seen[0] is contract:  # (the same object, not a later one's id)
        found = seen[1]
    else:
        found = _sections(text, contract)
        if key is not None:
            if len(_SEEN) >= _SEEN_MAX:
                _SEEN.clear()
            _SEEN[key] = (contract, found)
    _LAST[:] = [text, contract, found]
    return found


def _sections(text: str, contract: dict[str, tuple[str, ...]]) -> dict[str, str | None]:
    data = _json_output(text)
    # keys by their letters only: "filesChanged", "files-changed", "Files Changed" all name
    # files_changed (JSON from agents is as often camelCase as snake_case)
    keys = {_SEPARATORS.sub("", k): k for k in data} if data is not None else {}
    found: dict[str, str | None] = {}
    for name, labels in contract.items():
        if data is not None:
            key = next(
                (keys[k] for k in (_SEPARATORS.sub("", lab.lower()) for lab in (name, *labels))
                 if k in keys),
                None,
            )  # fmt: skip
            if key is not None:
                value = data[key]
                found[name] = value if isinstance(value, str) else _ENCODER.encode(value)
                continue
        pattern = _PATTERNS.get(labels)
        if pattern is None:
            pattern = _PATTERNS[labels] = _label_pattern((name, *labels))
        match = pattern.search(text)
        if match is None:
            found[name] = None
            continue
        content = match.group(2).strip().strip("|").strip()
        if not content:  # a heading: what follows, up to the next heading or label
            rest = text[match.end() :]
            stop = _NEXT_LABEL.search(rest)
            content = (rest[: stop.start()] if stop else rest)[:2000].strip()
            heading = _HEADING.match(match.group(0))
            if not content and heading:
                # sub-headings or an intro label come first (`## Issues` / `### HIGH` / items,
                # the upstream agents' layout): the section is all under it, to the next
                # heading of its level
                stop = _SAME_LEVEL[len(heading.group(1)) - 1].search(rest)
                content = (rest[: stop.start()] if stop else rest)[:2000].strip()
        found[name] = content
    return found


def is_placeholder(content: str) -> bool:
    text = content.strip().strip("*`\"'").strip()
    # line by line, up to the first that holds an answer (most outputs: the first line)
    for line in text.splitlines():
        ln = line.strip()
        if not ln:
            continue
        ln = ln.lstrip("-*+ ").strip()
        if len(ln) > 200 or not _PLACEHOLDER.match(ln):
            return False
    return True  # (no line at all, or placeholders only)


# -- matchers ----------------------------------------------------------------------------------


def match_contract(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    facts = getattr(event, "protocol", None)
    if not facts or "avatar" not in facts:
        return
    role = role_of(facts["avatar"])
    declared = unit.event.ctx.contracts.get(str(facts["avatar"]).lstrip("@").lower())  # type: ignore[attr-defined]
    if declared:  # the agent's own definition (.claude/agents/*.md) says what it returns
        contract = _declared(declared)
    elif role is None:
        return
    else:
        contract = CONTRACTS[role]
    output = facts["output"] if facts["output"] is not None else unit.text
    found = sections(output, contract)
    check = rule.params["check"]
    if facts.get("recheck") and check != "untested":
        return  # (a result seen again for its test run: its sections were checked then)
    who = f"{_ZH[role]} {role}" if role else str(facts["avatar"])
    if check == "missing":
        gaps = [name for name, content in found.items() if content is None]
        if gaps:
            yield _hit(unit, f"{who} output lacks {', '.join(gaps)}: send it back to redo")
    elif check == "placeholder":
        empty = [n for n, c in found.items() if c is not None and is_placeholder(c)]
        if empty:
            yield _hit(unit, f"{who} output has placeholder {', '.join(empty)}")
    elif role == "body":
        tests_run = found.get("tests_run")
        if tests_run is not None and _NO.search(tests_run.strip()[:80]):
            if not facts.get("recheck"):  # (reported on the result already)
                yield _hit(unit, "身 reports done without running the tests: hand them to @舌")
        elif facts.get("tested") is False:
            yield _hit(unit, "身 ran no test command in its transcript: hand the tests to @舌")


match_contract.gate = lambda unit: "avatar" in (unit.event.protocol or ())  # type: ignore[attr-defined]
match_contract.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind in ("result", "contract")
    and event.tool in SPAWN_TOOLS
    and event.ctx.profile == "wukong"
)


def match_spawn(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    if event is None or event.kind != "call" or not isinstance(event.input, dict):
        return
    data = event.input
    check = rule.params["check"]
    role = role_of(spawn_type(data))
    if check == "nested":
        if not event.is_main:
            yield _hit(unit, f"{event.agent} spawned {data.get('subagent_type') or 'an agent'}")
        return
    if role is None or role not in rule.params["avatars"] or not event.is_main:
        return
    background = data.get("run_in_background") is True
    if check == "background-required" and not background:
        yield _hit(unit, f"{_ZH[role]} {role} runs in the background: run_in_background=true")
    elif check == "background-forbidden" and background:
        yield _hit(unit, f"{_ZH[role]} {role} runs in the foreground (expensive, blocking)")
    elif check == "max-one":
        facts = event.protocol or {}
        running = [
            (other, isolation)
            for other, isolation in facts.get("running", ())
            if role_of(other if isinstance(other, str) else None) in rule.params["avatars"]
        ]
        isolated = data.get("isolation") == "worktree"
        if running and not (isolated and all(i == "worktree" for _, i in running)):
            yield _hit(
                unit, f"{len(running) + 1} of 身/意 at once (Max 1) without isolation: worktree"
            )


match_spawn.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call" and event.tool in SPAWN_TOOLS and event.ctx.profile == "wukong"
)


def match_role_paths(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    if event is None or event.kind != "call" or event.is_main:
        return
    role = role_of(event.agent_type)
    if role is None or role not in rule.params["avatars"]:
        return
    allowed = rule.params["allowed"]
    for path in event_paths(event):
        norm = path.replace("\\", "/")
        if not any(fnmatch.fnmatchcase(norm, g) or fnmatch.fnmatchcase(norm, "*/" + g)
                   for g in allowed):  # fmt: skip
            yield _hit(unit, f"{_ZH[role]} {role} changed {path}: business code goes to @身")
            return


match_role_paths.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call"
    and not event.is_main
    and event.tool in (rule.params or {})["tools"]
    and event.ctx.profile == "wukong"
)
