"""戒 enforced live by `wukong-lint hook`, where Claude Code lets a hook act (issue 27).

Each check is opt-in, in the project config, with the wukong profile (`profile: wukong` or
`--profile wukong`):

    profile: wukong
    live:
      subagent-stop: true   # SubagentStop: the avatar's final message against its contract
                            # and the evidence gate; a finding at fail-on answers
                            # `decision: block` with the reason: the avatar redoes its output
      redo-limit: 2         # blocks per avatar (and per turn at Stop), then allowed with a
                            # warning (systemMessage): never a loop
      summons: true         # PreToolUse of Agent/Task: background, Max, the summoning
                            # declaration and prompt, judged with the turn's transcript
      stop: true            # Stop: the turn's 戒关检查 as systemMessage; a redo-class finding
                            # (an avatar output the protocol sends back) blocks the stop
      reminder: true        # UserPromptSubmit / SessionStart: the CHECKPOINT form of the
                            # version, as additionalContext
      compact: true         # PreCompact: the context usage stage and the error classes
                            # since the last compaction, as systemMessage (hook/compact.py)
      lang: zh              # the 戒关检查's language: zh | en

The facts come from the event (SubagentStop: `agent_type`, `agent_id`,
`last_assistant_message`, else the end of `agent_transcript_path`) and from the session
transcript (`transcript_path`, hook/live_turn.py). The rules are the hook's rule set (the
same `avatar-boundary.*` / `body-boundary.*` rules as `check --profile wukong`, with the
config's rule-params and selection), the version the configured or detected one.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from typing import Any

from wukong_lint.model import Finding, Severity

SPAWN_TOOLS = ("Agent", "Task")
# the events a live check answers, by the `live:` key that turns it on
FEATURES = {"SubagentStop": "subagent-stop", "Stop": "stop", "SessionStart": "reminder",
            "UserPromptSubmit": "reminder", "PreToolUse": "summons",
            "PreCompact": "compact"}  # fmt: skip
LIVE_ONLY = frozenset(["SubagentStop", "Stop", "SessionStart", "PreCompact"])  # else as is
# An avatar's output the protocol sends back to be redone (seed 004: 缺失必须 section → 打回
# 重做; the evidence gate of on_subagent_stop.py: L0 speculation; the planner's JSON; 身
# done without tests → @舌). A Stop with one of these at fail-on is blocked.
REDO = frozenset(["avatar-boundary.contract-missing", "avatar-boundary.evidence-speculation",
                  "avatar-boundary.planner-schema", "avatar-boundary.body-untested"])  # fmt: skip
SPAWN_KINDS = ("spawn", "summons")  # the rules judged at PreToolUse of a summons
PROTOCOL = ("avatar-boundary", "body-boundary")  # the categories of the turn's 戒关检查
STATE = "live"  # folder of the redo counters in the cache folder
STATE_AGE = 7 * 86400  # seconds: counters older than this are removed
MESSAGE_LIMIT = 64 << 10  # characters of an avatar's final message judged
TAIL = 4 << 20  # bytes of an agent transcript read back for its last message


def settings(args: Any, data: dict[str, Any]) -> tuple[dict[str, Any], Any] | None:
    """(the `live:` settings, the config) when the event's live check is on, else None (a
    config that cannot be read turns nothing on: the hook's own judging reports it)."""
    feature = FEATURES.get(str(data.get("hook_event_name")))
    if feature is None:
        return None
    if feature == "summons" and data.get("tool_name") not in SPAWN_TOOLS:
        return None
    from wukong_lint.hook.config_cache import hook_config
    from wukong_lint.hook.judge import event_cwd
    from wukong_lint.util.errors import WukongError

    try:
        config, _ = hook_config(args.config, event_cwd(data))
    except WukongError:
        return None
    live = config.live or {}
    if not live.get(feature) or (args.profile or config.profile) != "wukong":
        return None
    return live, config


def wanted(args: Any, data: dict[str, Any]) -> bool:
    """Whether an event the hook otherwise accepts (SubagentStop, Stop, SessionStart) has a
    live check turned on."""
    return settings(args, data) is not None


def answer(args: Any, config: Any, ruleset: Any, data: dict[str, Any]) -> int:
    """The hook's answer to SubagentStop, Stop or SessionStart (written to stdout/stderr):
    the exit code."""
    import sys

    found = settings(args, data)
    if found is None:
        return 0
    live, _ = found
    fail_on = Severity.parse(args.fail_on or config.fail_on or "high")
    name = data["hook_event_name"]
    if name == "SubagentStop":
        out = _subagent_stop(live, config, ruleset, data, fail_on)
    elif name == "Stop":
        out = _stop(live, config, ruleset, data, fail_on)
    elif name == "PreCompact":  # (context stage and error classes: hook/compact.py)
        from wukong_lint.hook.compact import precompact

        out = precompact(data)
    else:
        text = reminder(config, data)
        out = {"hookSpecificOutput": {"hookEventName": name, "additionalContext": text}}
    if not out:
        return 0
    if args.mode == "exit":  # (exit 2: the reason goes to the agent; context on stdout)
        if out.get("decision") == "block":
            sys.stderr.write(out["reason"] + "\n")
            return 2
        context = out.get("hookSpecificOutput", {}).get("additionalContext")
        if context:
            sys.stdout.write(context + "\n")
        elif out.get("systemMessage") and name == "PreCompact":  # (no JSON: a note)
            sys.stderr.write(out["systemMessage"] + "\n")
        return 0
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


# -- SubagentStop -----------------------------------------------------------------------------


def _subagent_stop(live: dict[str, Any], config: Any, ruleset: Any, data: dict[str, Any],
                   fail_on: Severity) -> dict[str, Any]:  # fmt: skip
    kind = data.get("agent_type")
    message = data.get("last_assistant_message")
    if not isinstance(message, str) or not message.strip():
        message = _last_message(data.get("agent_transcript_path"))
    if not isinstance(kind, str) or not kind or not message:
        return {}  # no avatar or no output: nothing to hold to a contract
    kind = kind.rsplit(":", 1)[-1]  # (a plugin's agent: plugin:eye)
    findings = output_findings(config, ruleset, data, kind, message[:MESSAGE_LIMIT])
    blocking = [f for f in findings if f.severity >= fail_on]
    noting = [f for f in findings if Severity.MEDIUM <= f.severity < fail_on]
    if not blocking:
        return _message(noting, "wukong-lint (戒): ") if noting else {}
    agent = data.get("agent_id") if isinstance(data.get("agent_id"), str) else kind
    key = f"subagent\0{data.get('session_id')}\0{agent}"
    limit = int(live.get("redo-limit", 2))
    count = redo_count(key)
    lines = "; ".join(f"{f.rule_id} ({f.severity.label}): {f.message}" for f in blocking)
    if count >= limit:
        return _message(blocking, f"wukong-lint (戒): {kind} let go after {limit} redo(s), "
                                  "its output still fails its contract: ")  # fmt: skip
    redo_count(key, bump=True)
    reason = (f"wukong-lint (戒 contract and evidence gate, redo {count + 1} of {limit}): your "
              f"final output is sent back. {lines}. Write your final answer again with every "
              "required section filled in and evidence for each claim (path:line, a "
              "command's output, a test run), not a guess.")  # fmt: skip
    return {"decision": "block", "reason": reason}


def output_findings(config: Any, ruleset: Any, data: dict[str, Any], kind: str,
                    message: str) -> list[Finding]:  # fmt: skip
    """The contract, evidence and output findings of an avatar's final message."""
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model.events import Event, make_unit
    from wukong_lint.sources import transcripts

    transcripts.configure(profile="wukong", protocol_version=config.protocol_version)
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    ctx = transcripts.make_context(os.devnull, cwd)
    _detect(ctx, data, kind)
    event = Event("contract", 1, ctx)
    event.agent = f"{kind}:{data.get('agent_id') or '?'}"
    event.agent_type, event.is_main, event.tool = kind, False, "Task"
    event.protocol = {"avatar": kind, "output": message, "track": None}
    found, _ = scan_unit(ruleset, make_unit("<subagent>", event, message))
    return [f for f in found if not f.suppressed and f.category == "avatar-boundary"]


def _detect(ctx: Any, data: dict[str, Any], kind: str) -> None:
    """The version, when neither the config nor agent definitions said it: the spawn tool
    the session's last summons used (the end of its transcript), with the agent's type."""
    from wukong_lint.protocol import detect

    if ctx.version_strength >= detect.DEFINITIONS:
        return
    tail = _tail(data.get("transcript_path"), 1 << 20)
    agent, task = tail.rfind(b'"name":"Agent"'), tail.rfind(b'"name":"Task"')
    agent = max(agent, tail.rfind(b'"name": "Agent"'))
    task = max(task, tail.rfind(b'"name": "Task"'))
    if agent >= 0 or task >= 0:
        detect.note(ctx, detect.from_spawn("Agent" if agent > task else "Task", kind),
                    detect.SPAWN)  # fmt: skip


def _tail(path: Any, size: int) -> bytes:
    if not isinstance(path, str) or not path:
        return b""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - size))
            return handle.read(size)
    except OSError:
        return b""


def _last_message(path: Any) -> str:
    """The text of the last assistant record of a sub-agent's transcript ('' if none)."""
    from wukong_lint.sources.transcripts.records import DECODE_ERRORS, loads

    for raw in reversed(_tail(path, TAIL).split(b"\n")):
        if b'"assistant"' not in raw or b'"text"' not in raw:
            continue
        try:
            record = loads(raw)
        except DECODE_ERRORS:
            continue
        message = record.get("message") if isinstance(record, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            texts = [b["text"] for b in content
                     if isinstance(b, dict) and isinstance(b.get("text"), str)]  # fmt: skip
            if texts:
                return "\n".join(texts)
    return ""


def _message(findings: list[Finding], lead: str) -> dict[str, Any]:
    lines = "; ".join(f"{f.rule_id} ({f.severity.label}): {f.message}" for f in findings)
    return {"systemMessage": lead + lines}


# -- redo counters ----------------------------------------------------------------------------


def redo_count(key: str, bump: bool = False) -> int:
    """How many times `key` (an avatar of a session, or a session's turn) was sent back; with
    `bump`, one more is recorded. Kept in the cache folder, one file per key (parallel
    avatars stopping at once write different files); without a cache folder, 0."""
    from wukong_lint.engine.patterns import cache_dir, checksum

    folder = cache_dir()
    if not folder:
        return 0
    path = os.path.join(folder, STATE, f"redo-{checksum(key)}.json")
    count = 0
    try:
        with open(path, encoding="utf-8") as handle:
            stored = json.load(handle)
        if stored.get("key") == key:
            count = int(stored["count"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        count = 0
    if bump:
        from wukong_lint.util.fsutil import atomic_write_text

        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            atomic_write_text(path, json.dumps({"key": key, "count": count + 1}))
            _prune(os.path.dirname(path))
        except OSError:
            pass  # (no record: the next stop is judged afresh, the limit still holds per run)
    return count


def _prune(folder: str) -> None:
    now = time.time()
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        try:
            if now - os.stat(path).st_mtime > STATE_AGE:
                os.unlink(path)
        except OSError:
            continue


# -- Stop -------------------------------------------------------------------------------------


def _stop(live: dict[str, Any], config: Any, ruleset: Any, data: dict[str, Any],
          fail_on: Severity) -> dict[str, Any]:  # fmt: skip
    from wukong_lint.hook.live_turn import read_turn, turn_findings
    from wukong_lint.model import Report, Stats
    from wukong_lint.report.jie import render

    path = data.get("transcript_path")
    if not isinstance(path, str) or not os.path.isfile(path):
        return {}
    turn = read_turn(path)
    # (the protocol's rules: the turn's calls were judged one by one by PreToolUse)
    protocol = ruleset.select(lambda rule: rule.category in PROTOCOL)
    findings = turn_findings(turn, protocol, config.protocol_version)
    lang = live.get("lang") or "zh"
    summary = render(Report(tuple(findings), Stats()), lang=lang, fail_on=fail_on.label)
    if not findings:  # a clean turn: the title and status only
        summary = "\n".join(line for line in summary.splitlines()[:3] if line)
    key = f"stop\0{data.get('session_id')}\0{turn.current}"
    count = redo_count(key)
    after = _after_line(key)
    redo = [f for f in findings if f.rule_id in REDO and f.severity >= fail_on
            and f.line > after]  # fmt: skip
    limit = int(live.get("redo-limit", 2))
    if not redo or count >= limit:
        return {"systemMessage": summary}
    redo_count(key, bump=True)
    _mark(key, turn)
    lines = "; ".join(f"{f.rule_id} ({f.severity.label}) on line {f.line}: {f.message}"
                      for f in redo)  # fmt: skip
    reason = (f"wukong-lint (戒关检查, redo {count + 1} of {limit}): this turn accepted "
              f"output the protocol sends back. {lines}. Summon the avatar again with what "
              "its output lacked, or hand the step to the avatar that owns it, before "
              "ending the turn.")  # fmt: skip
    return {"decision": "block", "reason": reason, "systemMessage": summary}


def _after_line(key: str) -> int:
    """The last line of the session when the turn was last blocked: findings up to it were
    answered by the redo it asked for (0: never blocked)."""
    from wukong_lint.engine.patterns import cache_dir, checksum

    folder = cache_dir()
    if not folder:
        return 0
    try:
        with open(os.path.join(folder, STATE, f"line-{checksum(key)}.json"),
                  encoding="utf-8") as handle:  # fmt: skip
            stored = json.load(handle)
        return int(stored["line"]) if stored.get("key") == key else 0
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0


def _mark(key: str, turn: Any) -> None:
    from wukong_lint.engine.patterns import cache_dir, checksum
    from wukong_lint.util.fsutil import atomic_write_text

    folder = cache_dir()
    if not folder:
        return
    last = turn.data.rstrip(b"\n").count(b"\n") + 1
    line = last + turn.start_line - 1 if turn.start_line else last
    with contextlib.suppress(OSError):
        atomic_write_text(os.path.join(folder, STATE, f"line-{checksum(key)}.json"),
                          json.dumps({"key": key, "line": line}))  # fmt: skip


# -- PreToolUse of Agent/Task -----------------------------------------------------------------


def summons_findings(args: Any, config: Any, ruleset: Any, data: dict[str, Any],
                     findings: list[Finding]) -> list[Finding]:  # fmt: skip
    """The findings of a PreToolUse event, with those of the spawn and summons rules judged
    again with the turn's transcript (background per definition, Max concurrency, the
    declaration and prompt sections) when `live: summons` is on: they replace the findings
    of the same rules judged on the call alone."""
    if data.get("hook_event_name") != "PreToolUse" or settings(args, data) is None:
        return findings
    if data.get("agent_id") or data.get("agent_type"):
        return findings  # a sub-agent's summons: nested-spawn judges it on the call alone
    path = data.get("transcript_path")
    if not isinstance(path, str) or not os.path.isfile(path):
        return findings
    from wukong_lint.hook.live_turn import read_turn, turn_findings, with_call

    turn = read_turn(path)
    line = with_call(turn, data)
    if turn.start_line:
        line += turn.start_line - 1
    kinds = {r.id: r.kind for r in ruleset.rules}
    spawn = ruleset.select(lambda rule: rule.kind in SPAWN_KINDS)
    replay = [f for f in turn_findings(turn, spawn, config.protocol_version)
              if f.line == line and kinds.get(f.rule_id) in SPAWN_KINDS]  # fmt: skip
    kept = [f for f in findings if kinds.get(f.rule_id) not in SPAWN_KINDS]
    return kept + [f._replace(path="<hook>") for f in replay]


# -- UserPromptSubmit / SessionStart ----------------------------------------------------------

_FORM = {
    "implied": (
        "戒 CHECKPOINT ({id}): before the first tool call of a task, answer Q1 探索/研究? "
        "Q2 代码 >10 行? Q3 设计/架构? Q4 多文件并行? with 是/否. Any 是 → summon "
        "first ({implied}); all 否 → work yourself."
    ),
    "required": (
        "戒 CHECKPOINT ({id}): before the first tool call of a task, answer Q0 Skill? "
        "Q1 探索? Q2 代码 (estimate the lines: >10?) Q3 设计? Q4 并行?, then write the "
        "decision line (决策: 本体执行 / 召唤 @…; a yes calls {implied})."
    ),
}


def reminder(config: Any, data: dict[str, Any]) -> str:
    """The CHECKPOINT form of the session's version, in one short paragraph (the configured
    version, else the agent definitions', else the default)."""
    from wukong_lint.protocol.versions import AUTO, get, version_of
    from wukong_lint.sources import transcripts

    setting = config.protocol_version
    if setting and setting != AUTO:
        version = get(setting)
    else:
        transcripts.configure(profile="wukong")
        cwd = data.get("cwd") if isinstance(data.get("cwd"), str) else None
        version = version_of(transcripts.make_context(os.devnull, cwd))
    implied = ", ".join(f"{q} @{version.avatars[a].zh if a in version.avatars else a}"
                        for q, a in version.implied.items())  # fmt: skip
    style = "implied" if any(f["decision"] == "implied" for f in version.forms) else "required"
    return _FORM[style].format(id=version.id, implied=implied)


def prompt_context(args: Any, data: dict[str, Any], out: str, blocked: bool) -> str:
    """A UserPromptSubmit answer with the reminder as additionalContext (`live: reminder`);
    a blocked prompt gets none. Exit mode: the text on stdout (added as context)."""
    if blocked or data.get("hook_event_name") != "UserPromptSubmit":
        return out
    found = settings(args, data)
    if found is None:
        return out
    text = reminder(found[1], data)
    if args.mode == "exit":
        return out + text + "\n"
    answer = json.loads(out) if out.strip() else {}
    answer["hookSpecificOutput"] = {"hookEventName": "UserPromptSubmit",
                                    "additionalContext": text}  # fmt: skip
    return json.dumps(answer, ensure_ascii=False) + "\n"
