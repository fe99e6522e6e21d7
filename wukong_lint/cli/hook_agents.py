"""`wukong-lint hook --agent …`: the agent adapter around the Claude Code judge, and the
audit record of each decision.

The event on stdin is read once; its agent is `--agent`, or told from its shape. A Claude
Code event goes to the judge unchanged (its answer is written as the judge made it); any
other agent's event is mapped by its adapter (wukong_lint/agents/) into the judge's shape,
and the judge's answer back into that agent's. Then, after the answer is written and
flushed, the decision is appended to the audit log (never raising: the verdict is out).
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from types import SimpleNamespace

TYPE_CHECKING = False  # (the hook runs once per tool call: no typing at run time)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Judge = Callable[[Any], int]


def run_adapted(args: Any, judge: Judge, cannot_check: Callable[..., int]) -> int:
    from wukong_lint.hook.judge import HookInputError, read_stdin

    started = time.perf_counter()
    try:
        raw = read_stdin(sys.stdin.buffer)
    except HookInputError as err:
        return cannot_check(args, str(err), None)
    name = getattr(args, "agent", None) or "auto"
    data = None
    if name == "auto":
        data = _object(raw)
        from wukong_lint.agents import detect

        name = detect(data) if data is not None else "claude-code"
    event = None
    if name == "claude-code":
        code, out, err = _call(judge, args, raw, capture_err=False)
        verdict_out = (code, out, err)
    else:
        from wukong_lint.agents import adapter
        from wukong_lint.agents.base import OTHER, AdapterInputError

        module = adapter(name)
        try:
            if data is None:
                data = _object(raw)
                if data is None:
                    raise AdapterInputError(f"the {module.TITLE} event is not a JSON object")
            event = module.to_event(data)
        except AdapterInputError as error:
            code, out, err = _call_cannot(cannot_check, args, str(error))
            verdict_out = (code, out, err)
        else:
            if event.event == OTHER:  # (session start, stop...: nothing to judge)
                verdict_out = (0, "", "")
                if event.native_event in _SESSION_ENDS and event.transcript_path:
                    _hygiene(args, name, event)  # (opt-in: hook/hygiene.py; never raises)
            else:
                import json

                hook_raw = json.dumps(event.hook_data(), ensure_ascii=False)
                verdict_out = _call(judge, args, hook_raw, capture_err=True)
        from wukong_lint.agents.base import verdict_from_claude

        verdict = verdict_from_claude(*verdict_out)
        if args.mode == "json" and event is not None:
            code, out, err = module.answer(verdict, event, args.ask_fallback)
        else:  # exit codes (every agent reads exit 2 as a block), or an unreadable event
            code, out, err = verdict_out
    sys.stdout.write(out)
    sys.stderr.write(err)
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
    _audit(args, name, raw, event, verdict_out, started)
    return code


# the agents' session-end and turn-end events whose session file hygiene may clean, with the
# Claude Code event each amounts to (Codex and Gemini CLI: SessionEnd; Cursor: sessionEnd)
_SESSION_ENDS = {"SessionEnd": "SessionEnd", "sessionEnd": "SessionEnd", "Stop": "Stop",
                 "stop": "Stop"}  # fmt: skip


def _hygiene(args: Any, agent: str, event: Any) -> None:
    from wukong_lint.hook.hygiene import clean_session

    data = {"hook_event_name": _SESSION_ENDS[event.native_event], "wukong_agent": agent,
            "transcript_path": event.transcript_path, "cwd": event.cwd,
            "session_id": event.session}  # fmt: skip
    clean_session(args, data)


def _object(raw: str) -> dict[str, Any] | None:
    import json

    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _call(judge: Judge, args: Any, raw: str, capture_err: bool) -> tuple[int, str, str]:
    """Run the judge on `raw` as its stdin; (exit code, stdout, stderr) it wrote (stderr
    only when `capture_err`: a Claude Code answer's stderr goes straight out)."""
    stdin, stdout, stderr = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = SimpleNamespace(buffer=io.BytesIO(raw.encode("utf-8", "surrogateescape")))
    sys.stdout = out = io.StringIO()
    err = io.StringIO()
    if capture_err:
        sys.stderr = err
    try:
        code = judge(args)
    finally:
        sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    return code, out.getvalue(), err.getvalue()


def _call_cannot(cannot_check: Callable[..., int], args: Any, why: str) -> tuple[int, str, str]:
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err = io.StringIO(), io.StringIO()
    try:
        code = cannot_check(args, why, None)
    finally:
        sys.stdout, sys.stderr = stdout, stderr
    return code, out.getvalue(), err.getvalue()


def _audit(
    args: Any, agent: str, raw: str, event: Any, answer: tuple[int, str, str], started: float
) -> None:
    """Append the decision to the audit log when the config's `audit:` wants it. Never
    raises (the verdict is already out)."""
    try:
        from wukong_lint.agents.base import OTHER, verdict_from_claude
        from wukong_lint.audit.log import Record, append, mask, now, wanted

        cleaned = getattr(args, "cleaned", None)  # (session hygiene: hook/hygiene.py)
        if cleaned is not None and cleaned.audit != "off":
            seen = event if event is not None else _claude_event(raw)
            append(Record(
                time=now(), agent=agent, session=seen.session if seen else None,
                cwd=seen.cwd if seen else None, event=seen.native_event if seen else "?",
                tool=None, subject=f"{cleaned.session} ({cleaned.count} secret(s) masked)",
                verdict="redact", rules=cleaned.rules, latency_ms=cleaned.latency_ms,
            ))  # fmt: skip
        verdict = verdict_from_claude(*answer).decision
        judged = getattr(args, "judged", None)  # (set by the judge: config, rules, fired)
        mode = judged.audit if judged is not None else None
        if not wanted(mode, verdict) or (event is not None and event.event == OTHER):
            return
        if event is None:  # a Claude Code event: its fields, read again (small, once)
            event = _claude_event(raw)
        record = Record(
            time=now(), agent=agent,
            session=event.session if event else None, cwd=event.cwd if event else None,
            event=event.native_event if event else "?",
            tool=event.agent_tool if event else None,
            subject=mask(event.subject if event else None,
                         judged.ruleset if judged is not None else None),
            verdict=verdict, rules=tuple(judged.fired) if judged is not None else (),
            latency_ms=round((time.perf_counter() - started) * 1000, 1),
        )  # fmt: skip
        append(record)
    except Exception:  # the audit log must never change nor break the answer
        return


def _claude_event(raw: str) -> Any:
    data = _object(raw)
    if data is None:
        return None
    from wukong_lint.agents.claude_code import to_event

    try:
        return to_event(data)
    except ValueError:
        return None
