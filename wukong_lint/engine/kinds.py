"""The registry of rule kinds: for each `kind`, the pydantic model that validates its YAML and
the matcher that runs it, named as "module:attribute" and imported on first use.

The regex kind is the pre-commit hot path and is imported directly; structured kinds
(commands, edit sizes, anchors...) live in their own modules and cost nothing until a rule of
their kind meets a unit. A new kind is one entry here, one model and one matcher.

A matcher may carry optional attributes the engine (engine/rules.py) looks for: `gate(unit)`,
a cheap test shared by all the kind's rules; `prepare(unit, batch)`, shown every rule of the
kind about to run on a unit (one analysis of a text for them all: Python, shell); and, for
transcript events, `accepts(rule, event)` and `memo_key(unit)`.
"""

from __future__ import annotations

import importlib
from typing import Any

# kind -> (model "module:Class", matcher "module:function")
KINDS: dict[str, tuple[str, str]] = {
    "regex": ("wukong_lint.engine.schema:RegexRule", "wukong_lint.engine.matchers:match_regex"),
    # transcripts and shell (issue 3)
    "command": (
        "wukong_lint.shell.command_schema:CommandRule",
        "wukong_lint.shell.commands:match_command",
    ),
    "path": ("wukong_lint.shell.path_schema:PathRule", "wukong_lint.shell.paths:match_path"),
    # writes of a project config judged by what it would say (issue 26)
    "config-write": (
        "wukong_lint.shell.config_write_schema:ConfigWriteRule",
        "wukong_lint.shell.config_writes:match_config_write",
    ),
    "edit": (
        "wukong_lint.protocol.agent_schema:EditRule",
        "wukong_lint.protocol.agents:match_edit",
    ),
    "avatar": (
        "wukong_lint.protocol.agent_schema:AvatarRule",
        "wukong_lint.protocol.agents:match_avatar",
    ),
    "memory-gate": (
        "wukong_lint.protocol.agent_schema:MemoryGateRule",
        "wukong_lint.protocol.memory_gate:match_memory_gate",
    ),
    "integrity": (
        "wukong_lint.protocol.agent_schema:IntegrityRule",
        "wukong_lint.protocol.agents:match_integrity",
    ),
    # the 戒 protocol (issue 16): Layers 1-3, avatar contracts, context
    **{
        kind: (f"wukong_lint.protocol.schema:{model}", f"wukong_lint.protocol.{module}")
        for kind, model, module in (
            ("checkpoint", "CheckpointRule", "decisions:match_checkpoint"),
            ("turn-budget", "TurnBudgetRule", "behaviour:match_turn_budget"),
            ("shell-create", "ShellCreateRule", "behaviour:match_shell_create"),
            ("long-operation", "LongOperationRule", "behaviour:match_long_operation"),
            ("contract", "ContractRule", "contracts:match_contract"),
            ("spawn", "SpawnRule", "contracts:match_spawn"),
            ("role-paths", "RolePathsRule", "contracts:match_role_paths"),
            ("context-usage", "ContextUsageRule", "context_budget:match_context_usage"),
            ("repeated-call", "RepeatedCallRule", "context_budget:match_repeated_call"),
            ("react-history", "ReactHistoryRule", "context_budget:match_react_history"),
            ("dcp-config", "DcpConfigRule", "dcp_config:match_dcp_config"),
            # the protocol's versions (issue 27): summoning, evidence, the planner's plan
            ("summons", "SummonsRule", "summoning:match_summons"),
            ("evidence", "EvidenceRule", "evidence:match_evidence"),
            ("avatar-output", "AvatarOutputRule", "evidence:match_avatar_output"),
        )
    },
    # code in files and diffs (issue 5)
    "python": (
        "wukong_lint.code.python.schema:PythonRule",
        "wukong_lint.code.python.front:match_python",  # (code_python when it can report)
    ),
    # JavaScript / TypeScript on tree-sitter syntax trees (issue 14)
    "javascript": (
        "wukong_lint.code.js.schema:JsRule",
        "wukong_lint.code.js.analysis:match_js",
    ),
    # a staged change or commit range as a whole (issue 5: large-scale change)
    "change": (
        "wukong_lint.changes.change_schema:ChangeRule",
        "wukong_lint.changes.change:match_change",
    ),
    # credential files read in their own format, logins in data files (issue 13)
    "credential-file": (
        "wukong_lint.secrets.schema:CredentialFileRule",
        "wukong_lint.secrets.credfiles:match_credential_file",
    ),
    # what a commit range changes in the scan's own setup (issue 15: untrusted config)
    "weakening": (
        "wukong_lint.changes.weakening_schema:WeakeningRule",
        "wukong_lint.changes.weakening:match_weakening",
    ),
    "anchors": (
        "wukong_lint.anchors.models:AnchorRule",
        "wukong_lint.anchors.checks:match_anchors",
    ),
    "memory-bank": (
        "wukong_lint.anchors.models:MemoryBankRule",
        "wukong_lint.anchors.checks:match_memory_bank",
    ),
}

_resolved: dict[str, Any] = {}


def _resolve(target: str) -> Any:
    value = _resolved.get(target)
    if value is None:
        module, _, attribute = target.partition(":")
        value = _resolved[target] = getattr(importlib.import_module(module), attribute)
    return value


def model_for(kind: str) -> Any | None:
    entry = KINDS.get(kind)
    return _resolve(entry[0]) if entry else None


def matcher_for(kind: str) -> Any:
    return _resolve(KINDS[kind][1])
