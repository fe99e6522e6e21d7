"""Which transcript rule kinds can meet an event, known without importing their matchers.

A rule kind's `accepts(rule, event)` lives in its matcher's module, and importing the module
to ask it costs milliseconds (the protocol checks compile their patterns, the command
checks load tree-sitter): the live hook pays that once per tool call, for kinds most events
never meet (the 戒 protocol kinds on a generic-profile Bash call, the command kind on an
Edit). So the engine first asks this table, a necessary condition of each kind's `accepts`
(and, for `command`, of its gate) on the same event signature fields; only the kinds that
pass it are imported and asked. A kind without an entry is always asked.

Every entry must be implied by the matcher's own test: tests/test_event_gate.py checks that
on every built-in rule over a grid of signatures. When a kind's `accepts` changes, loosen
its entry here (or drop it).
"""

from __future__ import annotations

from typing import Any

from wukong_lint.model.events import SHELL_TOOLS, SPAWN_TOOLS
from wukong_lint.model.tools import builtin

WUKONG = "wukong"


class Needs:
    """What an event must have for a kind's rules to run on it (None: anything). A plain
    class: a typing.NamedTuple costs ~0.3 ms to define, on every hook event."""

    __slots__ = ("events", "main", "memory_bank", "other_tools", "problem", "profile", "scoped",
                 "tools")  # fmt: skip

    def __init__(
        self,
        events: frozenset[str],  # event kinds
        profile: str | None = None,  # the session's profile
        main: bool | None = None,  # True: the main agent's; False: a sub-agent's
        scoped: bool = False,  # the rule's `scope` parameter (agent, profiles) applies
        tools: frozenset[str] | None = None,  # tool names, lower case
        memory_bank: bool = False,  # the project has a memory-bank/ folder
        problem: bool = False,  # an integrity problem or error class
        other_tools: bool = False,  # and any tool that is not a built-in one (an MCP tool)
    ) -> None:
        self.events, self.profile, self.main, self.scoped = events, profile, main, scoped
        self.tools, self.memory_bank, self.problem = tools, memory_bank, problem
        self.other_tools = other_tools


_CALL = frozenset(["call"])
_SHELL = frozenset(SHELL_TOOLS)
_SPAWN = frozenset(tool.lower() for tool in SPAWN_TOOLS)

NEEDS: dict[str, Needs] = {
    # a command rule's gate needs the call's command line: shell tools have one, and any
    # tool that is not a built-in one may (an MCP tool's `command` field, its code or SQL:
    # whether it has one depends on its input, which the signature does not hold)
    "command": Needs(_CALL, tools=_SHELL, other_tools=True),
    "path": Needs(_CALL),
    "edit": Needs(_CALL, scoped=True),
    "avatar": Needs(_CALL, main=False),
    "memory-gate": Needs(_CALL, scoped=True, memory_bank=True),
    "integrity": Needs(frozenset(), problem=True),
    "checkpoint": Needs(_CALL, profile=WUKONG, main=True),
    "turn-budget": Needs(_CALL, scoped=True),
    "shell-create": Needs(_CALL, scoped=True),
    "long-operation": Needs(_CALL, scoped=True),
    "contract": Needs(frozenset(["result", "contract"]), profile=WUKONG, tools=_SPAWN),
    "spawn": Needs(_CALL, profile=WUKONG, tools=_SPAWN),
    "role-paths": Needs(_CALL, profile=WUKONG, main=False),
    "context-usage": Needs(frozenset(["context"]), profile=WUKONG),
    "repeated-call": Needs(_CALL, profile=WUKONG),
    "react-history": Needs(frozenset(["result", "call", "message"]), profile=WUKONG),
}


def may_accept(kind: str, rule: Any, event: Any) -> bool:
    """False when no rule of `kind` like `rule` can run on `event` (its matcher's module need
    not be imported to know); True when it may (then the matcher's `accepts` decides)."""
    needs = NEEDS.get(kind)
    if needs is None:
        return True
    if needs.problem:
        return event.problem is not None
    if event.kind not in needs.events:
        return False
    ctx = event.ctx
    if needs.profile is not None and ctx.profile != needs.profile:
        return False
    if needs.main is not None and event.is_main != needs.main:
        return False
    if needs.memory_bank and not ctx.memory_bank:
        return False
    if (
        needs.tools is not None
        and (event.tool or "").lower() not in needs.tools
        and not (needs.other_tools and event.tool and not builtin(event.tool))
    ):
        return False
    if needs.scoped:
        scope = (rule.params or {}).get("scope")
        if isinstance(scope, dict):
            agent = scope.get("agent", "any")
            if agent != "any" and event.is_main != (agent == "main"):
                return False
            profiles = scope.get("profiles")
            if profiles and ctx.profile not in profiles:
                return False
    return True
