"""Claude Code hook mode: judge one tool call (PreToolUse), one tool result (PostToolUse) or
one prompt (UserPromptSubmit).

The event JSON comes on stdin. PreToolUse: a finding at or above the threshold blocks the
call, either with exit code 2 and the reason on stderr (Claude Code shows it to the model),
or with exit 0 and a JSON `permissionDecision: deny` on stdout; a medium finding below the
threshold asks (`permissionDecision: ask`; in exit mode a note on stderr, the call allowed).
PostToolUse: secrets in the tool's response are reported the same way (the call has run;
the model is told not to repeat or use the value). UserPromptSubmit: a secret in the prompt
blocks it before the model sees it (`decision: block`, or exit 2: Claude Code erases the
prompt and shows the reason to the user only); the reason is masked. Events with nothing to
judge (SessionStart, PreCompact, Stop...) are accepted. Bad input is `HookInputError`; the
command decides with `--on-error` whether it blocks.
"""

from __future__ import annotations

import json
import os
from typing import Any

from wukong_lint.model import Finding, Severity
from wukong_lint.model.events import (
    EDIT_TOOLS,
    Event,
    call_event,
    join_texts,
    make_unit,
    strings,
)
from wukong_lint.model.tools import UNKNOWN, tool_kind

TOOL_EVENTS = ("PreToolUse", "PostToolUse")
PROMPT_EVENT = "UserPromptSubmit"
# Claude Code's other events: nothing to judge there (no call before it runs, no result or
# prompt the model has not yet seen; a PermissionRequest's call was judged at PreToolUse).
# Accepted with exit 0. A name outside this list is bad input (a hook wired wrong).
NOTHING_TO_JUDGE = frozenset(
    ["SessionStart", "SessionEnd", "Setup", "PreCompact", "PostCompact", "Stop", "StopFailure",
     "SubagentStart", "SubagentStop", "Notification", "PostToolUseFailure", "PostToolBatch",
     "PermissionRequest", "PermissionDenied", "UserPromptExpansion", "TeammateIdle",
     "TaskCreated", "TaskCompleted", "InstructionsLoaded", "CwdChanged", "FileChanged",
     "ConfigChange", "WorktreeCreate", "WorktreeRemove", "Elicitation", "ElicitationResult",
     "PreModelSwitch", "PostModelSwitch", "MessageDisplay", "DirectoryAdded"]
)  # fmt: skip
MAX_EVENT = 64 << 20  # bytes: a larger event is not read whole (it is refused)
LOG_NAME = "hook.log"
LOG_MAX = 1 << 20  # bytes: the diagnostics log starts over past this size
TOOLS_NAME = "hook-unknown-tools.txt"  # the unknown tool names already logged, one a line
TOOLS_MAX = 512


class HookInputError(Exception):
    pass


def read_stdin(stream: Any) -> str:
    """The event text from a binary stream, at most MAX_EVENT bytes. Bytes that are not UTF-8
    become surrogate escapes: a command holding them still gets a verdict (the JSON around
    them decides whether the event can be read)."""
    raw = stream.read(MAX_EVENT + 1)
    if len(raw) > MAX_EVENT:
        raise HookInputError(f"hook event is larger than {MAX_EVENT >> 20} MB")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    return raw.decode("utf-8", "surrogateescape")


def event_cwd(data: dict[str, Any]) -> str | None:
    """The project folder of an event: its `cwd` when that is an existing folder."""
    cwd = data.get("cwd")
    return cwd if isinstance(cwd, str) and cwd and os.path.isdir(cwd) else None


def log_diagnostics(lines: list[str]) -> str:
    """Append diagnostics to the hook's log under the cache folder (never to the channel the
    model reads when a call is blocked); masked like every output. Returns ` (see PATH)` or
    '' when there is no cache folder to write to."""
    from wukong_lint.engine.patterns import cache_dir

    folder = cache_dir()
    if not folder:
        return ""
    path = os.path.join(folder, LOG_NAME)
    try:
        from wukong_lint.engine.loader import load_rules
        from wukong_lint.engine.masking.redactor import Redactor

        # the rules' patterns only (the package's snapshot, as the hook's own load): their
        # docs and examples would parse every rule file, seconds on a first unknown tool
        redactor = Redactor(load_rules((), details=False))
        masked = [redactor.text(line) for line in lines]
    except Exception:  # masking must not lose the diagnostics: keep their shape only
        masked = [line.split(":", 1)[0] + ": (details withheld)" for line in lines]
    import time

    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    try:
        from wukong_lint.util.fsutil import append_log

        os.makedirs(folder, exist_ok=True)
        append_log(path, [f"{stamp} {line}" for line in masked], LOG_MAX)
    except OSError:
        return ""
    return f" (see {path})"


def _integer(digits: str) -> int | float:
    """A JSON integer as Python reads it; one longer than Python converts (4,300 digits: a
    `timeout` of 5,000 digits is well-formed JSON) becomes a float (inf), not an error."""
    return int(digits) if len(digits) <= 4000 else float(digits)


def note_unknown_tool(tool: str) -> None:
    """Log a tool name that model/tools.py's table does not know (its call is judged by the
    commands and paths its input holds), once per name: a session calls the same MCP tool
    many times, and the log is for a person to read (which tools to add to the table)."""
    from wukong_lint.engine.patterns import cache_dir
    from wukong_lint.util.fsutil import append_log

    folder = cache_dir()
    if not folder or "\n" in tool or len(tool) > 200:
        return
    path = os.path.join(folder, TOOLS_NAME)
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            seen = handle.read(64 << 10).split("\n")
    except OSError:
        seen = []
    if tool in seen:
        return
    log_diagnostics([f"unknown tool {tool!r}: judged by the commands and paths in its input"])
    if len(seen) >= TOOLS_MAX:
        return
    try:
        os.makedirs(folder, exist_ok=True)
        append_log(path, [tool], LOG_MAX)
    except OSError:
        pass


def parse_event(raw: str) -> dict[str, Any]:
    if not raw.strip():
        raise HookInputError("no hook event on stdin (expected Claude Code hook JSON)")
    try:
        data = json.loads(raw, parse_int=_integer)
    except json.JSONDecodeError as err:
        raise HookInputError(f"hook event is not valid JSON: {err.msg} at {err.pos}") from None
    except ValueError as err:  # (a value JSON allows that Python will not make)
        raise HookInputError(f"hook event cannot be read: {err}") from None
    except RecursionError:
        raise HookInputError("hook event is nested too deeply to read") from None
    if not isinstance(data, dict):
        raise HookInputError("hook event must be a JSON object")
    name = data.get("hook_event_name")
    if not isinstance(name, str):  # (a list or object is no event name, nor a set member)
        raise HookInputError(f"hook event has no hook_event_name string (got {name!r:.80})")
    if name in NOTHING_TO_JUDGE:
        return data
    if name == PROMPT_EVENT:
        if not isinstance(data.get("prompt"), str):
            raise HookInputError("UserPromptSubmit event has no prompt")
        return data
    if name not in TOOL_EVENTS:
        raise HookInputError(
            f"unsupported hook_event_name {name!r} (expected PreToolUse, PostToolUse or "
            "UserPromptSubmit; SessionStart, PreCompact and the other events are accepted)"
        )
    if not isinstance(data.get("tool_name"), str) or not data["tool_name"]:
        raise HookInputError("hook event has no tool_name")
    return data


def event_units(
    data: dict[str, Any],
    profile: str | None,
    notes: list[str] | None = None,
    checkpoint: bool = False,
) -> list[Any]:
    """The unit of a hook event. Memory-bank gating (profile `wukong`, a repository with a
    `memory-bank/` folder) needs what the agent read earlier in the user's turn: for a write
    tool call it is read from the session transcript (`transcript_path`), backwards from its
    end to the turn start. What makes that uncertain is added to `notes`."""
    if data.get("hook_event_name") in NOTHING_TO_JUDGE:
        return []
    from wukong_lint.sources import transcripts

    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    transcripts.OPTIONS["profile"] = profile
    ctx = transcripts.make_context(os.devnull, cwd)
    if checkpoint and ctx.profile != "wukong":
        from wukong_lint.util.errors import UsageError

        raise UsageError(
            "hook --checkpoint needs the wukong profile (--profile wukong, `profile: wukong` "
            "in the config, or a .wukong/ folder in the project)"
        )
    agent_id = data.get("agent_id")
    agent_type = data.get("agent_type") if isinstance(data.get("agent_type"), str) else None
    is_main = not agent_id and not agent_type
    agent = "main" if is_main else f"{agent_type or 'subagent'}:{agent_id or '?'}"
    if data["hook_event_name"] == PROMPT_EVENT:
        event = Event("message", 1, ctx)
        event.role, event.problem = "user", None
        event.agent, event.agent_type, event.is_main = agent, agent_type, is_main
        return [make_unit("<prompt>", event, data["prompt"])]
    tool = data["tool_name"]
    if data["hook_event_name"] == "PreToolUse":
        if tool_kind(tool) == UNKNOWN:
            note_unknown_tool(tool)
        event, text = call_event(
            ctx, 1, tool, data.get("tool_input"), None, agent, agent_type, is_main
        )
        if ctx.memory_bank and ctx.profile == "wukong" and tool in EDIT_TOOLS:
            writes: list[tuple[str, tuple[str, ...]]] = []
            event.turn_reads = _turn_reads(data, None if is_main else agent_id, notes, writes)
            event.turn_writes = tuple(writes) if event.turn_reads is not None else None
        if checkpoint and is_main:  # 戒 Layer 1, on opt-in
            event.protocol = _checkpoint_facts(data)
        if ctx.memory_bank and ctx.profile == "wukong" and tool in ("Task", "Agent"):
            from wukong_lint.hook.memory_bank import hook_confirmation

            event.mb_confirm = hook_confirmation(data, notes)
        return [make_unit("<hook>", event, text)]
    event = Event("result", 1, ctx)
    event.tool, event.agent, event.agent_type, event.is_main = tool, agent, agent_type, is_main
    text = join_texts(strings(data.get("tool_response"), []))
    return [make_unit("<hook>", event, text)]


def _checkpoint_facts(data: dict[str, Any]) -> dict[str, Any] | None:
    """The current turn's CHECKPOINT facts (hook_checkpoint.py); what cannot tell is bad
    input: `--on-error` decides."""
    from wukong_lint.hook.checkpoint import CannotTell, checkpoint_facts

    path = data.get("transcript_path")
    if not isinstance(path, str) or not path:
        raise HookInputError("--checkpoint: the event has no transcript_path")
    try:
        return checkpoint_facts(path)
    except CannotTell as err:
        raise HookInputError(f"--checkpoint: {err}") from None


def _turn_reads(
    data: dict[str, Any], agent_id: Any, notes: list[str] | None, writes: list[Any]
) -> Any:
    """Files read earlier in the turn, or None (unknown: no transcript to read them from, and
    the memory-bank context gate stays silent rather than guess); the turn's earlier file-tool
    writes go to `writes` (a low-risk write without context is reported once per turn)."""
    from wukong_lint.sources.transcripts import current_turn_reads

    path = data.get("transcript_path")
    if not isinstance(path, str) or not path:
        if notes is not None:
            notes.append("no transcript_path: memory-bank reads of this turn unknown")
        return None
    call_id = data.get("tool_use_id") if isinstance(data.get("tool_use_id"), str) else None
    agent = agent_id if isinstance(agent_id, str) else None
    reads, note = current_turn_reads(path, agent, writes=writes, skip_id=call_id)
    if note is not None and notes is not None:
        notes.append(f"memory-bank gate: {note}")
    if note is not None and note.startswith("cannot read"):
        return None
    return reads


def acted_on(
    data: dict[str, Any], findings: list[Finding], profile: str | None
) -> tuple[list[Finding], list[str]]:
    """The findings the hook acts on, and a warning for each comment it did not honour.

    A suppression comment (`# wukong-lint: ignore`) written into the call itself is the
    agent's own word: `rm -rf ~ # wukong-lint: ignore` must not switch the guard off. So in
    a PreToolUse call, a finding of a guarded category (config/loosening.py: the security
    categories, and the 戒 ones under profile wukong) silenced by a comment still counts.
    One exception: a secret in the content a file tool writes keeps its inline allow, as
    `check` honours it in that file (a fixture's fake key is reviewed where it lives).
    Findings silenced otherwise (a per-path ignore of an approved config) stay silenced."""
    from wukong_lint.config.loosening import guarded

    if data.get("hook_event_name") != "PreToolUse":
        return [f for f in findings if not f.suppressed], []
    categories = guarded(profile == "wukong")
    writes_file = data.get("tool_name") in EDIT_TOOLS
    kept: list[Finding] = []
    overridden: list[str] = []
    for finding in findings:
        if not finding.suppressed:
            kept.append(finding)
        elif (
            finding.suppressed_by == "inline"
            and finding.category in categories
            and not (writes_file and finding.category == "secret")
        ):
            kept.append(finding._replace(suppressed=False, suppressed_by=""))
            overridden.append(finding.rule_id)
    if not overridden:
        return kept, []
    names = ", ".join(dict.fromkeys(overridden))
    return kept, [f"a suppression comment in the call does not silence {names}"]


def decide(
    data: dict[str, Any],
    findings: list[Finding],
    threshold: Severity,
    mode: str,
    warnings: list[str] | tuple[str, ...] = (),
) -> tuple[int, str, str, bool]:
    """(exit code, stdout, stderr, blocked) for the findings of one hook event.

    PreToolUse: findings at or above the threshold deny the call; medium ones below it (the
    confirm tier: `git reset --hard`, `terraform destroy`...) ask the user, with
    `permissionDecision: "ask"` in json mode, or a note on stderr and the call allowed in
    exit mode (`--fail-on medium` makes them deny). Each reason names the rule, the command
    that runs and the safer way (in the rule's message). `warnings` (a project config's
    loosening ignored, a cache rebuilt) end the reason of a deny or an ask; an answer with
    neither leaves them to the caller (cli/hook.py shows them as its notes)."""
    code, out, err, blocked = _decide(data, findings, threshold, mode)
    if not warnings:
        return code, out, err, blocked
    note = " ".join(f"(wukong-lint: {w})" for w in warnings)
    if out:
        answer = json.loads(out)
        specific = answer.get("hookSpecificOutput") or {}
        if "permissionDecisionReason" in specific:
            specific["permissionDecisionReason"] += " " + note
        elif "reason" in answer:
            answer["reason"] += " " + note
        out = json.dumps(answer, ensure_ascii=False) + "\n"
        return code, out, err, blocked
    if err:
        return code, out, err.rstrip("\n") + " " + note + "\n", blocked
    return code, out, err, blocked


def _decide(
    data: dict[str, Any], findings: list[Finding], threshold: Severity, mode: str
) -> tuple[int, str, str, bool]:
    event_name = data["hook_event_name"]
    if event_name == PROMPT_EVENT:
        return _decide_prompt(findings, threshold, mode)
    if event_name == "PostToolUse":
        findings = [f for f in findings if f.category == "secret"]
    blocking = [f for f in findings if f.severity >= threshold]
    asking = [] if event_name != "PreToolUse" else [
        f for f in findings if Severity.MEDIUM <= f.severity < threshold
    ]  # fmt: skip
    if not blocking and not asking:
        return 0, "", "", False
    if not blocking:
        lines = [_line(f) for f in asking]
        reason = "wukong-lint asks for confirmation. " + "; ".join(lines)
        if mode == "json":
            out = {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "ask",
                    "permissionDecisionReason": reason,
                }
            }
            return 0, json.dumps(out, ensure_ascii=False) + "\n", "", False
        return 0, "", reason + " (allowed: the hook blocks at --fail-on medium)\n", False
    lines = [_line(f) for f in blocking]
    if event_name == "PreToolUse":
        reason = "Blocked by wukong-lint. " + "; ".join(lines)
    else:  # (the rule and where, what to do: rotate; never the value: hook/tool_output.py)
        from wukong_lint.hook.tool_output import post_tool_reason

        reason = post_tool_reason(data, blocking)
    if mode == "json":
        if event_name == "PreToolUse":
            out = {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": reason,
                }
            }
        else:
            out = {
                "decision": "block",
                "reason": reason,
                "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": reason},
            }
        return 0, json.dumps(out, ensure_ascii=False) + "\n", "", True
    return 2, "", reason + "\n", True


def _decide_prompt(
    findings: list[Finding], threshold: Severity, mode: str
) -> tuple[int, str, str, bool]:
    """A secret in the user's prompt at or above the threshold blocks the prompt: the reason
    names the rule and shows the line of the prompt with the secret masked."""
    blocking = [f for f in findings if f.category == "secret" and f.severity >= threshold]
    if not blocking:
        return 0, "", "", False
    lines = [f"{f.rule_id} ({f.severity.label}) in the prompt: {f.snippet}" for f in blocking]
    reason = (
        "wukong-lint blocked this prompt: it holds a secret the model must not see; remove it "
        "(pass it through an environment variable or a file the agent does not read). "
        + "; ".join(lines)
    )
    if mode == "json":
        out = {"decision": "block", "reason": reason}
        return 0, json.dumps(out, ensure_ascii=False) + "\n", "", True
    return 2, "", reason + "\n", True


def _line(finding: Finding) -> str:
    return f"wukong-lint: {finding.rule_id} ({finding.severity.label}): {finding.message}"
