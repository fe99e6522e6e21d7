"""The memory-bank gate's side in the live hook (seed 003): the user's mb:write / mb:no of
the current turn, read from the event's transcript, and MEMORY_BANK_GUARD_MODE. The rule kind
itself is protocol/memory_gate.py."""

from __future__ import annotations

import os
from typing import Any

GUARD_MODES = ("off", "warn", "block")


def hook_confirmation(data: dict[str, Any], notes: list[str] | None) -> str | None:
    """The user's mb:write / mb:no in the current turn, read from the hook event's
    transcript; None (unknown, no finding) when there is no transcript to read."""
    from wukong_lint.sources.transcripts.turn import current_turn_confirmation

    path = data.get("transcript_path")
    found = current_turn_confirmation(path) if isinstance(path, str) and path else None
    if found is None and notes is not None:
        notes.append("memory-bank writer: the user's mb:write of this turn is unknown")
    return found


def apply_guard_mode(ruleset: Any, findings: list[Any], notes: list[str]) -> list[Any]:
    """Seed 003's MEMORY_BANK_GUARD_MODE for the hook's context gate (rules of kind
    memory-gate, check `context`): `off` drops its findings, `warn` reports them as notes and
    never blocks, `block` lets them block as their severity and --fail-on say (so only the
    high-risk rule does at the default threshold). Unset: as `block`. The write protection
    (writer, USER_BLOCK, confirmation) holds in every mode, as in the seed."""
    mode = os.environ.get("MEMORY_BANK_GUARD_MODE", "").strip().lower()
    if not mode or mode == "block":
        return findings
    if mode not in GUARD_MODES:
        notes.append(f"MEMORY_BANK_GUARD_MODE={mode!r} is not one of off, warn, block; "
                     "using block")  # fmt: skip
        return findings
    kept = []
    for finding in findings:
        rule = ruleset.by_id.get(finding.rule_id)
        params = (rule.params or {}) if rule is not None else {}
        if rule is None or rule.kind != "memory-gate" or params.get("check") != "context":
            kept.append(finding)
        elif mode == "warn":
            notes.append(f"warning (MEMORY_BANK_GUARD_MODE=warn): {finding.rule_id}: "
                         f"{finding.message}")  # fmt: skip
    return kept
