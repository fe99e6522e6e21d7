"""Writers for the held-out 戒 protocol corpus (bench/protocol_heldout.py): Claude Code sessions
(sub-agent files under `<session>/subagents/` or inline sidechain records), Codex rollouts, OpenAI
chat transcripts and the three ReAct forms. Each writer builds the records a real tool writes, with
the envelopes and bookkeeping that come with them, so the corpus tests the readers as well as the
protocol checks. Written from the documented formats (see shared/REFERENCE.md beside the project), not from
the project's own fixtures."""

# ruff: noqa: E501  (transcript text and JSON records are data: kept on one line each)

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_T0 = 1_764_000_000  # a fixed clock: generated sessions are byte-identical run to run


def _ts(n: int) -> str:
    s = _T0 + n * 7
    h, rem = divmod(s % 86400, 3600)
    m, sec = divmod(rem, 60)
    return f"2026-11-24T{h:02d}:{m:02d}:{sec:02d}.{(n * 37) % 1000:03d}Z"


def changed(n: int, stem: str = "line") -> str:
    """n distinct lines of code-looking text."""
    return "\n".join(f"    {stem}_{i} = compute_{stem}({i}, ctx)" for i in range(n))


# --------------------------------------------------------------------------- Claude Code


@dataclass
class Agent:
    """A sub-agent's own records: its prompt arrives as a user record, then its calls."""

    agent_id: str
    records: list[dict[str, Any]] = field(default_factory=list)


class Claude:
    """One Claude Code session. Tool calls are written the way Claude Code writes them: one
    assistant record per content block sharing the message id, results in user records with a
    `toolUseResult`, a parentUuid chain."""

    def __init__(
        self,
        sid: str,
        cwd: str = "/home/dev/src/shop-api",
        model: str = "claude-sonnet-4-5-20250929",
    ) -> None:
        self.sid = sid
        self.cwd = cwd
        self.model = model
        self.main: list[dict[str, Any]] = []
        self.agents: dict[str, tuple[Agent, dict[str, Any]]] = {}
        self._n = 0
        self._last: dict[int, str | None] = {}
        self.tokens = 24_000  # context in use, grows with each assistant message
        self._agent_ctx: Agent | None = None

    # ids and envelopes
    def _next(self) -> int:
        self._n += 1
        return self._n

    def _uuid(self, n: int) -> str:
        return f"{self.sid[:8]}-{n:04x}-4{n % 1000:03d}-8{n % 997:03d}-{n * 7919 % 10**12:012d}"

    def _env(self, kind: str, agent: Agent | None) -> dict[str, Any]:
        n = self._next()
        key = id(agent) if agent else 0
        rec: dict[str, Any] = {
            "parentUuid": self._last.get(key),
            "isSidechain": agent is not None,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.sid,
            "version": "2.0.37",
            "gitBranch": "feature/orders",
            "type": kind,
        }
        if agent is not None:
            rec["agentId"] = agent.agent_id
        rec["uuid"] = self._uuid(n)
        rec["timestamp"] = _ts(n)
        self._last[key] = rec["uuid"]
        return rec

    def _sink(self, agent: Agent | None) -> list[dict[str, Any]]:
        return agent.records if agent is not None else self.main

    # records
    def raw(self, rec: dict[str, Any]) -> None:
        self.main.append(rec)

    def user(
        self, text: str | list[dict[str, Any]], agent: Agent | None = None, **extra: Any
    ) -> None:
        rec = self._env("user", agent)
        rec["message"] = {"role": "user", "content": text}
        rec.update(extra)
        self._sink(agent).append(rec)

    def _usage(self, grow: int) -> dict[str, int]:
        self.tokens += grow
        return {
            "input_tokens": 6,
            "cache_creation_input_tokens": 1_200,
            "cache_read_input_tokens": max(self.tokens - 1_206, 0),
            "output_tokens": 310,
            "service_tier": "standard",
        }

    def assistant(
        self,
        text: str | None = None,
        tools: list[tuple[str, str, dict[str, Any]]] = (),  # type: ignore[assignment]
        agent: Agent | None = None,
        grow: int = 900,
        thinking: str | None = None,
        signature: bool = True,
    ) -> None:
        """One model message: optional thinking, optional text, then tool_use blocks, each block
        its own record."""
        msg_id = f"msg_01{self.sid[:6]}{self._n:06d}"
        usage = (
            self._usage(grow)
            if agent is None
            else {"input_tokens": 9, "cache_read_input_tokens": 8_000, "output_tokens": 200}
        )
        blocks: list[dict[str, Any]] = []
        if thinking is not None:
            b: dict[str, Any] = {"type": "thinking", "thinking": thinking}
            if signature:
                b["signature"] = "EqQBCkYIBxgCKkB" + "x" * 40
            blocks.append(b)
        if text:
            blocks.append({"type": "text", "text": text})
        for tid, name, inp in tools:
            blocks.append({"type": "tool_use", "id": tid, "name": name, "input": inp})
        for i, block in enumerate(blocks):
            rec = self._env("assistant", agent)
            rec["message"] = {
                "id": msg_id,
                "type": "message",
                "role": "assistant",
                "model": self.model,
                "content": [block],
                "stop_reason": "tool_use" if tools and i == len(blocks) - 1 else None,
                "stop_sequence": None,
                "usage": usage,
            }
            rec["requestId"] = f"req_011C{self.sid[:6]}{self._n:05d}"
            self._sink(agent).append(rec)

    def result(
        self,
        tid: str,
        content: str | list[dict[str, Any]],
        agent: Agent | None = None,
        is_error: bool = False,
        tur: Any = None,
    ) -> None:
        block: dict[str, Any] = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        extra: dict[str, Any] = {}
        if tur is not None:
            extra["toolUseResult"] = tur
        elif isinstance(content, str):
            extra["toolUseResult"] = (
                ("Error: " + content)
                if is_error
                else {"stdout": content, "stderr": "", "interrupted": False, "isImage": False}
            )
        self.user([block], agent=agent, **extra)

    # convenience: one call and its result
    def call(
        self,
        name: str,
        inp: dict[str, Any],
        out: str,
        text: str | None = None,
        agent: Agent | None = None,
        is_error: bool = False,
        tur: Any = None,
    ) -> str:
        tid = f"toolu_01{self.sid[:5]}{self._n + 1:05d}{name[:3]}"
        self.assistant(text, [(tid, name, inp)], agent=agent)
        if name == "Read" and tur is None and not is_error:
            tur = {
                "type": "text",
                "file": {
                    "filePath": inp.get("file_path", ""),
                    "content": out,
                    "numLines": out.count("\n") + 1,
                    "startLine": 1,
                    "totalLines": out.count("\n") + 1,
                },
            }
        if name == "Edit" and tur is None and not is_error:
            tur = {
                "filePath": inp["file_path"],
                "oldString": inp["old_string"],
                "newString": inp["new_string"],
                "originalFile": "",
                "structuredPatch": [],
                "userModified": False,
                "replaceAll": False,
            }
        if name == "Write" and tur is None and not is_error:
            tur = {
                "type": "create",
                "filePath": inp["file_path"],
                "content": inp["content"],
                "structuredPatch": [],
                "originalFile": None,
            }
        self.result(tid, out, agent=agent, is_error=is_error, tur=tur)
        return tid

    def read(
        self, path: str, lines: int = 30, agent: Agent | None = None, text: str | None = None
    ) -> None:
        body = "\n".join(
            f"{i + 1:>6}\u2192" + f"line {i + 1} of {Path(path).name}" for i in range(lines)
        )
        self.call(
            "Read",
            {"file_path": f"{self.cwd}/{path}" if not path.startswith("/") else path},
            body,
            text=text,
            agent=agent,
        )

    def bash(
        self,
        cmd: str,
        out: str = "",
        agent: Agent | None = None,
        text: str | None = None,
        **inp: Any,
    ) -> None:
        self.call(
            "Bash",
            {"command": cmd, "description": cmd.split()[0] if cmd.split() else "run", **inp},
            out,
            text=text,
            agent=agent,
        )

    def edit(
        self, path: str, old: str, new: str, agent: Agent | None = None, text: str | None = None
    ) -> None:
        full = f"{self.cwd}/{path}"
        self.call(
            "Edit",
            {"file_path": full, "old_string": old, "new_string": new},
            f"The file {full} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n     1\u2192...",
            text=text,
            agent=agent,
        )

    def write(
        self, path: str, content: str, agent: Agent | None = None, text: str | None = None
    ) -> None:
        full = f"{self.cwd}/{path}"
        self.call(
            "Write",
            {"file_path": full, "content": content},
            f"File created successfully at: {full}",
            text=text,
            agent=agent,
        )

    # sub-agents
    def spawn(
        self,
        subagent_type: str,
        prompt: str,
        final: str,
        work: Any = None,
        background: bool = False,
        inline: bool = False,
        tool: str = "Agent",
        text: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> Agent:
        """The main agent summons one avatar; `work(session, agent)` writes the avatar's own calls."""
        return self.spawn_many(
            [(subagent_type, prompt, final, work, extra or {})],
            background=background,
            inline=inline,
            tool=tool,
            text=text,
        )[0]

    def spawn_many(
        self,
        specs: list[tuple[str, str, str, Any, dict[str, Any]]],
        background: bool | list[bool] = False,
        inline: bool = False,
        tool: str = "Agent",
        text: str | None = None,
    ) -> list[Agent]:
        """Several summons in one assistant message (parallel), then their results."""
        bgs = background if isinstance(background, list) else [background] * len(specs)
        calls = []
        agents = []
        for k, (stype, prompt, final, work, extra) in enumerate(specs):
            n = self._n + 1 + k
            tid = f"toolu_01{self.sid[:5]}{n:05d}spw{k}"
            aid = "a" + hashlib.sha1(f"{self.sid}/{n}/{k}".encode()).hexdigest()[:16]
            inp: dict[str, Any] = {
                "description": prompt.split("\n")[0][:40],
                "prompt": prompt,
                "subagent_type": stype,
            }
            if bgs[k]:
                inp["run_in_background"] = True
            inp.update(extra)
            calls.append((tid, tool, inp))
            agents.append((Agent(aid), tid, final, work, bgs[k], stype))
        self.assistant(text, calls)
        for agent, tid, final, work, _bg, stype in agents:
            self.user(_prompt_of(calls, tid), agent=agent)
            if work is not None:
                work(self, agent)
            self.assistant(final, agent=agent)
            if inline:
                # Claude Code writes a sidechain's records into the main file while it runs:
                # between the summons and its result
                self.main.extend(agent.records)
            else:
                self.agents[agent.agent_id] = (agent, {"agentType": stype, "toolUseId": tid})
        for agent, tid, final, _work, bg, _stype in agents:
            if bg:
                self.result(
                    tid,
                    f"Async agent launched successfully.\nagentId: {agent.agent_id} (use this to check on its progress)",
                    tur={"isAsync": True, "status": "async_launched", "agentId": agent.agent_id},
                )
            else:
                content = [
                    {"type": "text", "text": final},
                    {
                        "type": "text",
                        "text": f"agentId: {agent.agent_id} (for resuming to continue this agent's work if needed)",
                    },
                ]
                self.result(
                    tid,
                    content,
                    tur={
                        "status": "completed",
                        "agentId": agent.agent_id,
                        "content": [{"type": "text", "text": final}],
                        "totalDurationMs": 48_113,
                        "totalTokens": 21_877,
                        "totalToolUseCount": 7,
                    },
                )
        return [a[0] for a in agents]

    def compact(self, summary: str) -> None:
        rec = self._env("system", None)
        rec.update(
            {
                "subtype": "compact_boundary",
                "content": "Conversation compacted",
                "isMeta": False,
                "level": "info",
                "compactMetadata": {"trigger": "auto", "preTokens": self.tokens},
            }
        )
        self.main.append(rec)
        self.tokens = 18_000
        self.user(
            "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n"
            + summary,
            isCompactSummary=True,
            isVisibleInTranscriptOnly=True,
        )

    def write_to(self, root: Path, name: str) -> list[Path]:
        path = root / f"{name}.jsonl"
        recs = list(self.main)
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8"
        )
        if self.agents:
            sub = root / name / "subagents"
            sub.mkdir(parents=True, exist_ok=True)
            for aid, (agent, meta) in self.agents.items():
                (sub / f"agent-{aid}.jsonl").write_text(
                    "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in agent.records),
                    encoding="utf-8",
                )
                (sub / f"agent-{aid}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
        return [path]


def _prompt_of(calls: list[tuple[str, str, dict[str, Any]]], tid: str) -> str:
    for t, _name, inp in calls:
        if t == tid:
            return str(inp["prompt"])
    return ""


# --------------------------------------------------------------------------- Codex


class Codex:
    """A Codex CLI rollout: session_meta, turn_context, response_items, token_count events."""

    def __init__(self, sid: str, cwd: str = "/home/dev/src/ledger", window: int = 272_000) -> None:
        self.sid = sid
        self.cwd = cwd
        self.window = window
        self.lines: list[dict[str, Any]] = []
        self._n = 0
        self.total = 0
        self._line(
            "session_meta",
            {
                "id": sid,
                "timestamp": _ts(0),
                "cwd": cwd,
                "originator": "codex_cli_rs",
                "cli_version": "0.58.0",
                "instructions": None,
                "git": {"branch": "main"},
            },
        )

    def _line(self, kind: str, payload: dict[str, Any]) -> None:
        self._n += 1
        self.lines.append({"timestamp": _ts(self._n), "type": kind, "payload": payload})

    def user(self, text: str) -> None:
        self._line(
            "turn_context",
            {
                "cwd": self.cwd,
                "approval_policy": "on-request",
                "sandbox_policy": {"mode": "workspace-write"},
                "model": "gpt-5-codex",
                "effort": "medium",
                "summary": "auto",
            },
        )
        self._line(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
        )
        self._line("event_msg", {"type": "user_message", "message": text, "images": []})

    def say(self, text: str) -> None:
        self._line(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text}],
            },
        )
        self._line("event_msg", {"type": "agent_message", "message": text})

    def reasoning(self, text: str) -> None:
        self._line(
            "response_item",
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": text}],
                "content": None,
                "encrypted_content": "gAAAAAB" + "q" * 48,
            },
        )

    def shell(
        self, cmd: str, out: str = "", code: int = 0, tool: str = "shell", **extra: Any
    ) -> None:
        cid = f"call_{self.sid[:4]}{self._n:04d}"
        args: dict[str, Any] = (
            {"command": ["bash", "-lc", cmd], "workdir": self.cwd, **extra}
            if tool == "shell"
            else {"cmd": cmd, "workdir": self.cwd, **extra}
        )
        self._line(
            "response_item",
            {"type": "function_call", "name": tool, "arguments": json.dumps(args), "call_id": cid},
        )
        result = json.dumps(
            {"output": out, "metadata": {"exit_code": code, "duration_seconds": 0.4}}
        )
        self._line(
            "response_item", {"type": "function_call_output", "call_id": cid, "output": result}
        )

    def patch(self, body: str) -> None:
        cid = f"call_{self.sid[:4]}{self._n:04d}p"
        self._line(
            "response_item",
            {
                "type": "custom_tool_call",
                "status": "completed",
                "call_id": cid,
                "name": "apply_patch",
                "input": body,
            },
        )
        self._line(
            "response_item",
            {
                "type": "custom_tool_call_output",
                "call_id": cid,
                "output": json.dumps(
                    {
                        "output": "Success. Updated the following files:\n",
                        "metadata": {"exit_code": 0, "duration_seconds": 0.0},
                    }
                ),
            },
        )

    def tokens(self, used: int) -> None:
        self.total += used
        self._line(
            "event_msg",
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": {
                        "input_tokens": self.total,
                        "cached_input_tokens": self.total // 2,
                        "output_tokens": 2_100,
                        "reasoning_output_tokens": 900,
                        "total_tokens": self.total + 2_100,
                    },
                    "last_token_usage": {
                        "input_tokens": used,
                        "cached_input_tokens": used // 2,
                        "output_tokens": 400,
                        "reasoning_output_tokens": 120,
                        "total_tokens": used + 400,
                    },
                    "model_context_window": self.window,
                },
                "rate_limits": None,
            },
        )

    def error(self, message: str) -> None:
        self._line("event_msg", {"type": "error", "message": message})

    def write_to(self, root: Path, name: str) -> list[Path]:
        path = root / f"rollout-2026-11-24T10-00-00-{name}.jsonl"
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.lines), encoding="utf-8"
        )
        return [path]


# --------------------------------------------------------------------------- OpenAI chat


class OpenAIChat:
    """OpenAI chat messages with function calls, stored as one JSON array."""

    def __init__(
        self, system: str = "You are a coding agent working in the repository at /srv/app."
    ) -> None:
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
        self._n = 0

    def user(self, text: str) -> None:
        self.messages.append({"role": "user", "content": text})

    def say(self, text: str) -> None:
        self.messages.append({"role": "assistant", "content": text})

    def call(self, name: str, args: dict[str, Any], out: str, text: str | None = None) -> None:
        self._n += 1
        cid = f"call_{self._n:03d}Xk9"
        self.messages.append(
            {
                "role": "assistant",
                "content": text,
                "tool_calls": [
                    {
                        "id": cid,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args)},
                    }
                ],
            }
        )
        self.messages.append({"role": "tool", "tool_call_id": cid, "content": out})

    def write_to(self, root: Path, name: str) -> list[Path]:
        path = root / f"{name}.json"
        path.write_text(json.dumps(self.messages, ensure_ascii=False, indent=1), encoding="utf-8")
        return [path]


# --------------------------------------------------------------------------- ReAct


class ReactText:
    """A ReAct history as text; `form` is 'seed' (seed 002 E1's `[assistant] Thought… Action:
    Tool[{…}]` / `[tool] {…}`) or 'plain' (Question/Thought/Action/Action Input/Observation)."""

    def __init__(self, form: str = "seed") -> None:
        self.form = form
        self.parts: list[str] = []

    def user(self, text: str) -> None:
        self.parts.append(f"[user] {text}" if self.form == "seed" else f"Question: {text}")

    def step(
        self,
        thought: str | None,
        tool: str,
        args: dict[str, Any] | str,
        result: dict[str, Any] | str,
    ) -> None:
        if self.form == "seed":
            head = f"[assistant] Thought: {thought}\n" if thought is not None else "[assistant] "
            arg = json.dumps(args, ensure_ascii=False) if not isinstance(args, str) else args
            self.parts.append(f"{head}Action: {tool}[{arg}]")
            res = json.dumps(result, ensure_ascii=False) if not isinstance(result, str) else result
            self.parts.append(f"[tool] {res}")
        else:
            lines = []
            if thought is not None:
                lines.append(f"Thought: {thought}")
            lines.append(f"Action: {tool}")
            lines.append(
                f"Action Input: {json.dumps(args, ensure_ascii=False) if not isinstance(args, str) else args}"
            )
            res = json.dumps(result, ensure_ascii=False) if not isinstance(result, str) else result
            lines.append(f"Observation: {res}")
            self.parts.append("\n".join(lines))

    def raw(self, text: str) -> None:
        self.parts.append(text)

    def finish(self, thought: str, answer: str) -> None:
        if self.form == "seed":
            self.parts.append(f"[assistant] Thought: {thought}\nAction: Finish[{answer}]")
        else:
            self.parts.append(f"Thought: {thought}\nFinal Answer: {answer}")

    def write_to(self, root: Path, name: str) -> list[Path]:
        path = root / f"{name}.txt"
        path.write_text("\n\n".join(self.parts) + "\n", encoding="utf-8")
        return [path]


class ReactMessages:
    """Seed 002 E1's stored history: Message(role, content, metadata) as JSONL."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.step_no = 0

    def user(self, text: str) -> None:
        self.rows.append({"role": "user", "content": text, "metadata": {}})

    def step(
        self, thought: str | None, tool: str, args: dict[str, Any], result: dict[str, Any]
    ) -> None:
        self.step_no += 1
        head = f"Thought: {thought}\n" if thought is not None else ""
        self.rows.append(
            {
                "role": "assistant",
                "content": f"{head}Action: {tool}[{json.dumps(args, ensure_ascii=False)}]",
                "metadata": {"step": self.step_no},
            }
        )
        self.rows.append(
            {
                "role": "tool",
                "content": json.dumps(result, ensure_ascii=False),
                "metadata": {"tool_name": tool, "step": self.step_no},
            }
        )

    def summary(self, text: str) -> None:
        self.rows.append({"role": "summary", "content": text, "metadata": {}})

    def finish(self, thought: str, answer: str) -> None:
        self.rows.append(
            {
                "role": "assistant",
                "content": f"Thought: {thought}\nAction: Finish[{answer}]",
                "metadata": {"step": self.step_no + 1},
            }
        )

    def write_to(self, root: Path, name: str) -> list[Path]:
        path = root / f"{name}.jsonl"
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.rows), encoding="utf-8"
        )
        return [path]
