"""Context (category `context`): how full the agent's context window is and what it keeps.

- `context-usage`: the tokens in use (from the transcript's API `usage`: Claude Code's
  assistant records, Codex `token_count` events) against the model's window (the event's own
  when the transcript gives it, else the rule's `window`, 200 000): reported once when the
  usage first reaches the rule's `threshold` percent since the last compaction, only by the
  highest level reached (70 % warn, 85 % DCP due, 95 % archive and restart; seeds 000, 004).
- `repeated-call`: the same tool call (tool and input) made more often in one turn than
  dynamic context pruning keeps (Glob 3, Grep 3, Read 5, Bash 3, WebSearch 2, WebFetch 2;
  Task, TodoWrite, Edit, Write, lsp_rename are protected): once per turn.
- `react-history`: ReAct histories (seed 002): a tool output kept over the A3 limits, fields
  A3 says to drop (`text`, `stats`, `context`), a step without `Thought:`, an `@file`
  reminder of more than 5 files without "(and N more…)".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit


def _hit(unit: Unit, note: str) -> Hit:
    end = unit.text.find("\n")
    return Hit(0, end if end >= 0 else len(unit.text), 0, 0, note)


def _facts(unit: Unit) -> dict[str, Any] | None:
    return getattr(getattr(unit, "event", None), "protocol", None)


def match_context_usage(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    facts = _facts(unit)
    usage = facts.get("usage") if facts else None
    if usage is None:
        return
    before, used, window = usage
    window = window or rule.params["window"]
    low = window * rule.params["threshold"] / 100
    high = window * rule.params["below"] / 100
    if before < low <= used < high:
        percent = 100 * used / window
        yield _hit(unit, f"{used:,} of {window:,} tokens ({percent:.0f} %)")


match_context_usage.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "context" and event.ctx.profile == "wukong"
)


def _usage_gate(rules: list[CompiledRule]) -> Any:
    """The gate of these usage rules: a rise of the context that crosses none of their
    thresholds (most rises: a session reports its usage every message) is turned away
    before any rule runs. Exact: it is `match_context_usage`'s own test, for each rule."""
    levels = tuple((r.params["window"], r.params["threshold"], r.params["below"]) for r in rules)

    def gate(unit: Unit) -> bool:
        facts = _facts(unit)
        usage = facts.get("usage") if facts else None
        if usage is None:
            return False
        before, used, known = usage
        for window, threshold, below in levels:
            window = known or window
            # (the matcher's arithmetic, in its order: the same floats at a boundary)
            if before < window * threshold / 100 <= used < window * below / 100:
                return True
        return False

    return gate


match_context_usage.gate_for = _usage_gate  # type: ignore[attr-defined]


def match_repeated_call(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    facts = _facts(unit)
    repeat = facts.get("repeat") if facts else None
    if repeat is None:
        return
    keep = rule.params["keep"]
    tool = unit.event.tool  # type: ignore[attr-defined]
    limit = keep.get(tool)
    count, maxes = repeat
    if limit is None or count != limit + 1:
        return
    if any(m > keep[t] for t, m in maxes if t in keep):
        return  # this turn has been reported already
    yield _hit(
        unit, f"{tool} called {count} times with the same input this turn, DCP keeps {limit}"
    )


match_repeated_call.gate = lambda unit: "repeat" in (unit.event.protocol or ())  # type: ignore[attr-defined]
match_repeated_call.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call"
    and event.tool in (rule.params or {})["keep"]
    and event.ctx.profile == "wukong"
)


# -- ReAct histories (seed 002 A2, A3, A7) ------------------------------------------------------

_MATCH_LINE = re.compile(r"(?m)^\S[^\n]*:\d+:")
_MENTION = re.compile(r"The user mentioned @([a-zA-Z0-9/._-]+)")
_MORE = re.compile(r"(?i)\(and \d+ more|（还有 ?\d+ ?个|and \d+ more")


def _stderr(body: Any) -> str | None:
    if not isinstance(body, dict):
        return None
    for key, value in body.items():
        if isinstance(value, str) and str(key).lower().startswith("stderr"):
            return value
    return None


def _oversize(tool: str, content: Any, params: dict[str, Any]) -> str | None:
    """Why a tool output kept in the history is over seed 002's A3 limits (None: it is not)."""
    raw = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    body = content.get("data") if isinstance(content, dict) else content
    text = body if isinstance(body, str) else ""
    name = tool.lower()
    if name in ("read", "read_file", "view"):
        if isinstance(body, dict) and isinstance(body.get("content"), str):
            text = body["content"]
        lines = text.count("\n") + 1 if text else 0
        if lines > params["max_read_lines"]:
            return f"Read output of {lines} lines kept (A3: {params['max_read_lines']})"
    if name == "grep":
        matches = len(_MATCH_LINE.findall(text))
        if isinstance(body, dict) and isinstance(body.get("matches"), list):
            matches = len(body["matches"])
        if matches > params["max_grep_matches"]:
            return f"Grep output of {matches} matches kept (A3: {params['max_grep_matches']})"
    # (the tail kept under any stderr key: "stderr", "stderr_tail" (A3's 摘要 + stderr 尾部))
    stderr = _stderr(body) if name in ("bash", "shell", "terminal") else None
    if stderr is not None:
        lines = stderr.rstrip("\n").count("\n") + 1
        if lines > params["max_stderr_lines"]:
            return f"Bash stderr of {lines} lines kept (A3: last {params['max_stderr_lines']})"
    if len(raw) > params["max_chars"]:
        return f"tool output of {len(raw):,} characters kept (limit {params['max_chars']:,})"
    return None


def match_react_history(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    if event is None:
        return
    check = rule.params["check"]
    facts = event.protocol or {}
    if check == "file-reminders":
        if event.kind != "message" or event.role != "user" or "@" not in unit.text:
            return
        mentioned = list(dict.fromkeys(_MENTION.findall(unit.text)))
        if len(mentioned) > rule.params["max_files"] and not _MORE.search(unit.text):
            yield _hit(
                unit, f"@file reminders for {len(mentioned)} files, at most 5 then (and N more…)"
            )
        return
    if check == "broken-pair":
        if event.kind == "result" and facts.get("broken_pair"):
            yield _hit(unit, "a tool result whose call was compacted away (A4: keep pairs)")
        return
    if check == "no-thought":
        if event.kind == "call" and facts.get("react") == "no-thought":
            yield _hit(unit, "an Action without a Thought (seed 002 A2)")
        return
    if event.kind != "result" or "react" not in facts:
        return
    tool = facts["react"] or ""
    content = facts.get("content")
    if check == "oversize":
        why = _oversize(tool, content, rule.params)
        if why:
            yield _hit(unit, why)
    else:
        data = content
        if isinstance(data, dict):
            kept = [k for k in ("text", "stats", "context") if k in data]
            if kept:
                yield _hit(
                    unit, f"history keeps {', '.join(kept)} (A3/C1: keep status, data, error)"
                )


def _react_gate(unit: Unit) -> bool:
    """Only ReAct tool results and calls, and user messages that mention files, can match."""
    event = unit.event  # type: ignore[attr-defined]
    facts = event.protocol
    if facts is not None and ("react" in facts or "broken_pair" in facts):
        return True
    return event.kind == "message" and "mentioned @" in unit.text


match_react_history.gate = _react_gate  # type: ignore[attr-defined]
match_react_history.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind in ("result", "call", "message") and event.ctx.profile == "wukong"
)
