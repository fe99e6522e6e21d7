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

_DECLARED: dict[tuple[tuple[str, bool], ...], dict[str, tuple[str, ...]]] = {}


def _declared(fields: tuple[tuple[str, bool], ...], known: dict[str, tuple[str, ...]]
              ) -> dict[str, tuple[str, ...]]:  # fmt: skip
    """A contract from an agent definition's fields, each with the labels the version knows
    for a field of that name (kept: the label patterns are cached per contract)."""
    found = _DECLARED.get(fields)
    if found is None:
        by_name = {name.lower(): labels for name, labels in known.items()}
        found = _DECLARED[fields] = {name: by_name.get(name.lower(), (name,)) for name, _ in fields}
        if len(_DECLARED) > 256:
            _DECLARED.clear()
    return found


def __getattr__(name: str) -> Any:
    """`CONTRACTS`: the default version's contracts by avatar (for the tests and tools that
    read them; the checks read the session's version)."""
    if name == "CONTRACTS":
        from wukong_lint.protocol.versions import DEFAULT, get

        return {a.name: a.contract for a in get(DEFAULT).avatars.values() if a.contract}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _who(version: Any, role: str | None, name: Any) -> str:
    avatar = version.avatars.get(role) if role else None
    return f"{avatar.zh} {role}" if avatar is not None else str(name)


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


def contract_of(ctx: Any, avatar: Any) -> tuple[Any, str | None, dict[str, tuple[str, ...]],
                                                frozenset[str]] | None:  # fmt: skip
    """(the version, the avatar's role, its contract's sections with their labels, the
    required ones) for an agent type: its definition on disk says the fields when it
    declares some, else the version's avatar. None: no contract to hold it to (an agent
    outside the protocol, the planner, whose output is a plan). Several rules ask of each
    output: the last answer is kept, for the same context, version and agent type."""
    key = (ctx.version, avatar)
    if _CONTRACT_OF[0] is ctx and _CONTRACT_OF[1] == key:
        return _CONTRACT_OF[2]  # type: ignore[no-any-return]
    found = _contract_of(ctx, avatar)
    _CONTRACT_OF[:] = [ctx, key, found]
    return found


_CONTRACT_OF: list[Any] = [None, None, None]


def _contract_of(ctx: Any, avatar: Any) -> Any:
    from wukong_lint.protocol.versions import version_of

    version = version_of(ctx)
    role = version.role_of(avatar if isinstance(avatar, str) else None)
    known = version.avatars.get(role) if role else None
    declared = ctx.contracts.get(str(avatar).lstrip("@").lower())
    if declared:  # the agent's own definition (.claude/agents/*.md) says what it returns
        contract = _declared(declared, known.contract if known is not None else {})
        return version, role, contract, frozenset(name for name, need in declared if need)
    if known is None or known.output != "contract" or not known.contract:
        return None
    return version, role, known.contract, known.required


def unreadable(output: str) -> bool:
    """Whether an output looks like JSON (a `{` start or a ```json block) that does not
    parse: a shape the contract check cannot read (unrecognised-output), not a missing
    contract."""
    if _UNREADABLE[0] is output:
        return bool(_UNREADABLE[1])
    stripped = output.lstrip()
    looks = stripped.startswith("{") or "```json" in output[:20000]
    found = looks and _json_output(output) is None
    _UNREADABLE[:] = [output, found]
    return found


_UNREADABLE: list[Any] = [None, False]  # the last output asked of and its answer


def match_contract(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    facts = getattr(event, "protocol", None)
    if not facts or "avatar" not in facts:
        return
    found_contract = contract_of(unit.event.ctx, facts["avatar"])  # type: ignore[attr-defined]
    if found_contract is None:
        return
    version, role, contract, required = found_contract
    output = facts["output"] if facts["output"] is not None else unit.text
    check = rule.params["check"]
    if facts.get("recheck") and check != "untested":
        return  # (a result seen again for its test run: its sections were checked then)
    if unreadable(output):
        return  # (avatar-boundary.unrecognised-output names it)
    found = sections(output, contract)
    who = _who(version, role, facts["avatar"])
    if check == "missing":
        gaps = [name for name, content in found.items() if content is None and name in required]
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


def _background(version: Any, role: str, meta: dict[str, Any] | None) -> str:
    """What the avatar's background rule is: its definition's, else the version's."""
    if meta and meta.get("background_rule"):
        return str(meta["background_rule"])
    return str(version.avatars[role].background)


def _limit(version: Any, role: str, meta: dict[str, Any] | None) -> int | None:
    if meta and meta.get("max") is not None:
        return int(meta["max"])
    return version.avatars[role].max


def _one_at_a_time(version: Any, kind: Any) -> bool:
    role = version.role_of(kind if isinstance(kind, str) else None)
    return role is not None and version.avatars[role].max == 1


def match_spawn(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    if event is None or event.kind != "call" or not isinstance(event.input, dict):
        return
    data = event.input
    check = rule.params["check"]
    if check == "nested":
        if not event.is_main:
            yield _hit(unit, f"{event.agent} spawned {data.get('subagent_type') or 'an agent'}")
        return
    from wukong_lint.protocol.versions import version_of

    version = version_of(event.ctx)
    kind = spawn_type(data)
    role = version.role_of(kind)
    if check == "unrecognised":
        if event.is_main and (event.protocol or {}).get("new_kind") and role is None:
            name = str(kind).strip().lstrip("@").lower() if kind else ""
            if (
                name
                and name not in version.generic
                and name not in version.support
                and (name not in event.ctx.agent_defs)
            ):
                note = f"an agent of a type {version.id} does not know: {kind!r}"
                yield _hit(unit, note + " (its tools, background and output were not checked)")
        return
    if role is None or not event.is_main:
        return
    wanted = rule.params["avatars"]
    if wanted and role not in wanted:
        return
    meta = event.ctx.agent_meta.get(str(kind).lstrip("@").lower())
    who = _who(version, role, kind)
    # `background: true` in its definition: Claude Code runs it in the background anyway
    background = data.get("run_in_background") is True or bool(meta and meta.get("background"))
    rule_of_role = _background(version, role, meta)
    if check == "background-required":
        if rule_of_role == "required" and not background:
            yield _hit(unit, f"{who} runs in the background: run_in_background=true")
    elif check == "background-forbidden":
        if rule_of_role == "forbidden" and data.get("run_in_background") is True:
            yield _hit(unit, f"{who} runs in the foreground (expensive, blocking)")
    elif check == "max-one":
        if _limit(version, role, meta) != 1:
            return
        facts = event.protocol or {}
        running = [(other, isolation) for other, isolation in facts.get("running", ())
                   if _one_at_a_time(version, other)]  # fmt: skip
        isolated = data.get("isolation") == "worktree"
        if running and not (isolated and all(i == "worktree" for _, i in running)):
            names = "/".join(a.zh for a in version.avatars.values() if a.max == 1)
            yield _hit(unit, f"{len(running) + 1} of {names} at once (Max 1) without "
                             "isolation: worktree")  # fmt: skip
    elif check == "max-concurrent":
        limit = _limit(version, role, meta)
        if limit is None or limit < 2:
            return
        facts = event.protocol or {}
        running = [
            other
            for other, _ in facts.get("running", ())
            if isinstance(other, str) and version.role_of(other) == role
        ]
        if len(running) + 1 > limit:
            yield _hit(unit, f"{len(running) + 1} of {who} at once (Max {limit})")


match_spawn.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call" and event.tool in SPAWN_TOOLS and event.ctx.profile == "wukong"
)


def _spawn_memo_key(unit: Unit) -> tuple[Any, ...] | None:
    """Everything the spawn rules' hits on a summons depend on besides its event signature
    and their params: the input's type (and the avatar its prompt's skill names),
    background and isolation, the summonses still running, whether the type is new to the
    session, the version, who summons, and where the call's first line ends. A session
    summons the same avatars the same way many times: the six rules answer once a key."""
    event = unit.event  # type: ignore[attr-defined]
    data = event.input
    if not isinstance(data, dict):
        return None
    facts = event.protocol or {}
    end = unit.text.find("\n")
    key = (
        end if end >= 0 else len(unit.text),
        event.is_main,
        None if event.is_main else event.agent,
        spawn_type(data),
        data.get("subagent_type"),
        data.get("run_in_background") is True,
        data.get("isolation"),
        facts.get("running"),
        facts.get("new_kind"),
        event.ctx.version,
    )
    try:
        hash(key)
    except TypeError:  # (an input value that is a list or an object)
        return None
    return key


match_spawn.memo_key = _spawn_memo_key  # type: ignore[attr-defined]


def match_role_paths(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    if event is None or event.kind != "call" or event.is_main:
        return
    from wukong_lint.protocol.versions import version_of

    version = version_of(event.ctx)
    role = version.role_of(event.agent_type)
    if role is None or role not in rule.params["avatars"]:
        return
    allowed = rule.params["allowed"]
    for path in event_paths(event):
        norm = path.replace("\\", "/")
        if not any(fnmatch.fnmatchcase(norm, g) or fnmatch.fnmatchcase(norm, "*/" + g)
                   for g in allowed):  # fmt: skip
            who = _who(version, role, event.agent_type)
            yield _hit(unit, f"{who} changed {path}: business code goes to @身")
            return


match_role_paths.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call"
    and not event.is_main
    and event.tool in (rule.params or {})["tools"]
    and event.ctx.profile == "wukong"
)
