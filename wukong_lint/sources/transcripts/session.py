"""The state of one transcript being read: calls waiting for their result, sub-agents and
their types, the files read in the current turn; it turns the readers' calls, results and
messages into units."""

from __future__ import annotations

import pickle
import re
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, NamedTuple

from wukong_lint.engine.scan import _REACHING, Quiet
from wukong_lint.model import sha256_hex
from wukong_lint.model.events import (
    EDIT_TOOLS,
    READ_TOOLS,
    SPAWN_TOOLS,
    Context,
    Event,
    EventUnit,
    call_text,
    join_texts,
    make_unit,
    new_call,
    strings,
    target_paths,
)
from wukong_lint.protocol.errors import classify_error
from wukong_lint.protocol.shell_reads import patch_creates
from wukong_lint.protocol.spawn_types import spawn_type
from wukong_lint.protocol.turn_facts import ProtocolState
from wukong_lint.sources.transcripts.environment import MEMORY_FILES

_AGENT_ID = re.compile(r"\bagent_?[Ii]d:\s*([\w.@-]{1,80})")
# Completed call ids remembered to skip a repeated record (Codex writes some results twice,
# next to each other), and sidechain records remembered to name the sub-agent of a record
# that only gives its parent: the most recent ones. Kept small, because a worker reading a
# part of the file (runner/offload.py) is handed them with the rest of the state.
_KEEP_IDS = 4096
_new_tuple = tuple.__new__
KEEP_ROOTS = 4096
# Results read before their call's line (Claude Code writes parallel calls' records in the
# order they finish), kept until the call comes: the most recent ones. An older one is then
# reported as an orphan, as is every one still waiting at the end of the file.
KEEP_EARLY = 256


# A line-number prefix (`     1→`, `  12\t`) at the start of a line. Searched for as a newline
# and a prefix (plus one at the very start): the same matches as `(?m)^ *\d+(?:→|\t)`, but the
# regex engine skips to each newline instead of trying `^` at every character of a tool output.
_LINE_NUMBER_HEAD = re.compile(r" *\d+(?:→|\t)")
_LINE_NUMBER_NEXT = re.compile(r"\n *\d+(?:→|\t)")


def _has_line_numbers(text: str) -> bool:
    return bool(_LINE_NUMBER_HEAD.match(text) or _LINE_NUMBER_NEXT.search(text))


def _without_line_numbers(text: str) -> str:
    head = _LINE_NUMBER_HEAD.match(text)
    return _LINE_NUMBER_NEXT.sub("\n", text[head.end() :] if head else text)


def _without_file_copy(parts: list[str], extra: Any) -> Any:
    """A Read's toolUseResult without `file.content` when the tool result already holds that
    text with line numbers (`     1→...`): the same file twice in one record would double the
    scan and report each secret in it twice on the same line."""
    if not isinstance(extra, dict):
        return extra
    file = extra.get("file")
    if not isinstance(file, dict) or not isinstance(file.get("content"), str):
        return extra
    raw = file["content"].strip()
    if not raw or not any(_has_line_numbers(p) and raw in _without_line_numbers(p) for p in parts):
        return extra
    return {**extra, "file": {k: v for k, v in file.items() if k != "content"}}


class Part(NamedTuple):
    """Lines of a JSONL transcript to read elsewhere (runner/offload.py): the worker starts
    from the session's state at the file's start, follows it over the lines before `start`
    (cheaply: no unit is made) and reads the part's lines from there, which makes the units
    a whole read makes of them (`part_units`). No process has to follow the whole file first,
    and no state has to be copied from one part to the next."""

    fmt: str
    path: str  # the file
    display: str
    start: int  # bytes
    end: int  # bytes (-1: the end of the file)
    state: bytes  # the session's state at the start of the file
    last: bool  # ends the file: the calls still waiting are reported
    sub_agent: tuple[str, str | None] | None = None
    # the file's last part, when more of the session is read after it (its sub-agent files):
    # the state at the end of the file is handed back with the part's results
    hand_back: bool = False


def result_text(content: Any, extra: Any) -> str:
    parts: list[str] = []
    strings(content, parts)
    strings(_without_file_copy(parts, extra), parts)
    return join_texts(parts)


# What a record reader yields that is no record, to hand on as it is: a unit (a malformed
# line's), a unit no rule reaches (`Session.unit`).
NOT_RECORDS = (EventUnit, Quiet)

MAX_TURN_WRITES = 64  # writes of a turn remembered (the gate's first low-risk one is early)


class Session:
    """Pairs calls with results, tracks agents and turns, and turns events into units."""

    def __init__(self, path: str, ctx: Context) -> None:
        self.path = path
        self.ctx = ctx
        # call id -> the call and its text (None: not made yet, see `call`)
        self.pending: OrderedDict[str, tuple[Event, str | None]] = OrderedDict()
        self.done: OrderedDict[str, None] = OrderedDict()
        # call id -> a result whose call was not read yet: (line, content, is_error, extra,
        # agent, agent_type, is_main), the arguments of `result`
        self.early: OrderedDict[str, tuple[Any, ...]] = OrderedDict()
        self.spawn_types: dict[str, str] = {}  # spawning call id -> subagent type
        self.prompt_types: dict[str, str] = {}  # prompt hash -> subagent type
        self.agent_types: dict[str, str] = {}  # agent id -> subagent type
        # agent id -> (line, output, type) of a result whose agent's own records were not
        # seen yet (they are in its subagents/ file, read after this one)
        self.unseen_runs: dict[str, tuple[int, str | None, str]] = {}
        self.turn_reads: dict[str, set[str]] = {}  # agent -> files read this turn
        # agent -> its file-tool writes of this turn, (tool, paths): the memory-bank gate
        # reports a low-risk write without context once per turn (seed 003)
        self.turn_writes: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        self.mb_confirm = ""  # the main agent's turn: mb:write / mb:no (turn.mb_confirmation)
        self.carry = 0  # bytes of records that produced no unit yet
        # sidechain record uuid -> agent id (inline sub-agents), the most recent ones
        self.roots: OrderedDict[str, str] = OrderedDict()
        # Whether the file is read in parts on other processes (runner/offload.py), and the
        # number of the line after a read that stopped at its span's end (records.py).
        self.in_parts = False
        self.next_line = 0
        # Only follow the state (the file is read in parts, which make the units): no unit,
        # and no text that the state does not need, is made.
        self.follow = False
        # The 戒 protocol facts of the turns (profile `wukong` only: nothing to pay otherwise).
        self.protocol = ProtocolState() if ctx.profile == "wukong" else None
        self.fmt = ""  # the reader's format, for checks that only one format's records allow
        # Units no rule can reach, counted and not handed on one by one (most units of a
        # long session: each would travel up the readers' generators to be counted): `quiet`
        # hands them on together. Not part of the state handed to another process.
        self.quiet_units = 0
        self.quiet_bytes = 0

    _STATE = ("ctx", "pending", "done", "early", "spawn_types", "prompt_types", "agent_types",
              "turn_reads", "carry", "roots", "protocol", "fmt", "mb_confirm",
              "turn_writes", "unseen_runs")  # fmt: skip

    def make_texts(self) -> None:
        """The texts of the calls still waiting for their result that were seen while only
        following the state (before a part's units are made from here)."""
        for call_id, (event, text) in self.pending.items():
            if text is None:
                self.pending[call_id] = (event, call_text(event))

    def snapshot(self) -> bytes | None:
        """Everything reading the rest of the file (or the session's next file) depends on,
        for another process to go on from (None: it cannot be copied, e.g. a waiting call's
        input nested hundreds deep)."""
        self.make_texts()
        try:
            return pickle.dumps(tuple(getattr(self, name) for name in self._STATE), protocol=5)
        except (RecursionError, pickle.PicklingError, TypeError, ValueError):
            return None

    def restore(self, state: bytes) -> None:
        for name, value in zip(self._STATE, pickle.loads(state), strict=True):
            setattr(self, name, value)

    def unit(self, event: Event, text: str) -> EventUnit | None:
        """The unit of `event`, or None: following the state only, or a unit no rule of the
        scan can reach (counted, for `quiet` to hand on). Readers hand on what is not None."""
        size, self.carry = self.carry, 0
        if self.follow:
            return None
        if event.kind == "call":
            # what the transcript had touched by now: the scan of this unit may come after
            # more records are read (engine/scan.py `_batches`)
            event.seen_mark = len(self.ctx.seen_paths)
        unit = make_unit(self.path, event, text, size)
        # the rules that scan the units made now (engine/scan.py `reaching`, inline: a call
        # a unit)
        rules = _REACHING[-1] if _REACHING else None
        if rules is not None:
            # Most records meet no rule (a message without a keyword): counted, not scanned.
            try:
                hits = rules.unit_hits(unit)
            except MemoryError:  # (the scan of this unit reports it, as without the test)
                return unit
            if hits is None:  # (counted here, handed on by `quiet`: see `unit`)
                self.quiet_units += 1
                self.quiet_bytes += size
                return None
            unit.hits = hits  # type: ignore[attr-defined]  # (the scan does not search again)
        return unit

    def new_turn(self, agent: str) -> None:
        self.turn_reads.pop(agent, None)
        self.turn_writes.pop(agent, None)
        if agent == "main":
            self.mb_confirm = ""

    def call(
        self,
        line: int,
        tool: str | None,
        data: Any,
        call_id: str | None,
        agent: str,
        agent_type: str | None,
        is_main: bool,
    ) -> Iterator[EventUnit | None]:
        if self.protocol is not None and self.protocol.due:
            yield from self._outputs(every=False)
        event = new_call(self.ctx, line, tool, data, call_id, agent, agent_type, is_main)
        # (following the state only: the text is made if the call is still waiting for its
        # result when the state is handed on, in `snapshot`)
        text = None if self.follow else call_text(event)
        paths = event.paths = target_paths(tool, data)
        reads = self.turn_reads.setdefault(agent, set())
        if tool in EDIT_TOOLS or event.command is not None:
            event.turn_reads = tuple(sorted(reads))
        if tool in EDIT_TOOLS and paths:
            patch = data.get("input") or data.get("patch") if isinstance(data, dict) else None
            if isinstance(patch, str) and (tool == "apply_patch" or "patch" in tool.lower()):
                event.new_file = patch_creates(patch)  # the patch says Add or Update itself
            else:
                event.new_file = paths[0] not in self.ctx.seen_paths
        if tool in SPAWN_TOOLS:
            event.mb_confirm = self.mb_confirm
        if tool in EDIT_TOOLS and self.ctx.memory_bank:
            writes = self.turn_writes.setdefault(agent, [])
            event.turn_writes = tuple(writes)
            if len(writes) < MAX_TURN_WRITES:
                writes.append((tool, tuple(paths)))
        seen = self.ctx.seen_paths
        for path in paths:
            if len(seen) < 100000:
                seen.setdefault(path, len(seen))
        if tool in READ_TOOLS:
            reads.update(paths)
        if event.command is not None:
            for name in MEMORY_FILES:
                if name in event.command:
                    reads.add(name)
        if self.protocol is not None:
            spawns = (
                [c for c, _ in self.pending.values() if c.tool in SPAWN_TOOLS]
                if tool in SPAWN_TOOLS
                else []
            )
            self.protocol.call_seen(event, spawns, self.follow)
        if tool in SPAWN_TOOLS and isinstance(data, dict):
            kind = spawn_type(data)  # (a general-purpose agent given an avatar's skill: it)
            if isinstance(kind, str):
                if call_id:
                    self.spawn_types[call_id] = kind
                prompt = data.get("prompt")
                if isinstance(prompt, str):
                    self.prompt_types[sha256_hex(prompt.strip())[:16]] = kind
        if call_id:
            if call_id in self.done:
                return  # a repeated record of a call already reported
            self.pending[call_id] = (event, text)
            early = self.early.pop(call_id, None) if self.early else None
            if early is not None:  # its result came first: paired now
                yield from self.result(early[0], call_id, *early[1:], late=True)
            return
        if self.protocol is not None:
            self.protocol.call_done(event, self.follow)
        yield self.unit(event, text if text is not None else "")  # (None: following)

    def result(
        self,
        line: int,
        call_id: str | None,
        content: Any,
        is_error: bool,
        extra: Any,
        agent: str,
        agent_type: str | None,
        is_main: bool,
        late: bool = False,
    ) -> Iterator[EventUnit | None]:
        """A tool result (`late`: one kept in `early`, now paired with its call or, with
        none, an orphan)."""
        if self.protocol is not None and self.protocol.due:
            yield from self._outputs(every=False)
        if call_id and call_id in self.done:
            return  # Codex writes some results twice
        waiting = self.pending.pop(call_id, None) if call_id else None
        if waiting is None and call_id and not late:
            # No call with this id yet: it may come later in the file (parallel calls), so
            # the result is kept, not called an orphan by line order. (A whole read and a
            # read in parts keep the same: `early` is part of the state.)
            if call_id not in self.early:  # (a repeated record: the first one counts)
                self.early[call_id] = (line, content, is_error, extra, agent, agent_type, is_main)
                if len(self.early) > KEEP_EARLY:
                    old_id, old = self.early.popitem(last=False)
                    yield from self.result(old[0], old_id, *old[1:], late=True)
            return
        if self.follow:
            if waiting is not None:
                if self.protocol is not None:
                    self._settle(waiting[0], content, is_error, extra)
                avatar = self.spawn_types.get(call_id or "")
                if avatar:  # (the same state as a whole read: see `_spawned`)
                    self._spawned(call_id, avatar, line, content, extra, None)
            self._done(call_id)
            self.carry = 0
            return
        event = Event("result", line, self.ctx)
        event.agent, event.agent_type, event.is_main = agent, agent_type, is_main
        event.call_id, event.is_error, event.result = call_id, is_error, extra
        text = result_text(content, extra)
        if waiting is not None:
            call, made = waiting
            event.tool = call.tool
            self._settle(call, content, is_error, extra)
            avatar = self.spawn_types.get(call_id or "")
            if avatar:
                event.protocol = self._spawned(call_id, avatar, line, content, extra, text)
            if self.fmt == "react" and self.protocol is not None:
                event.protocol = {"react": call.tool, "content": content}
            unit = self.unit(call, made if made is not None else call_text(call))
            if unit is not None:
                yield unit
        self._done(call_id)
        if is_error or (isinstance(extra, str) and extra.startswith("Error")):
            event.problem = classify_error(text)
        if waiting is None and call_id:
            event.problem = event.problem or "orphan-result"
            if self.protocol is not None and self.protocol.compactions:
                # seed 002 A4: compaction keeps tool_use / tool_result pairs together
                event.protocol = {"broken_pair": True}
        unit = self.unit(event, text)
        if unit is not None:
            yield unit

    def _settle(self, call: Event, content: Any, is_error: bool, extra: Any) -> None:
        """What a call's result tells about the call (and the turn's protocol totals)."""
        call.result = extra if extra is not None else content
        call.is_error = is_error
        if isinstance(extra, dict):
            kind = extra.get("type")
            if kind in ("create", "update") and call.tool == "Write":
                call.new_file = kind == "create"
        if is_error and call.tool in EDIT_TOOLS:
            call.new_file = False  # a failed Write (EACCES, not found) created nothing
        if self.protocol is not None:
            self.protocol.call_done(call, self.follow)

    def _spawned(
        self, call_id: Any, avatar: str, line: int, content: Any, extra: Any, text: str | None
    ) -> dict[str, Any] | None:
        """What a spawning call's result tells: the sub-agent's id (and type); with the
        protocol, that it runs in the background, or else its final output, whose contract is
        checked on the result (returned: the result event's protocol facts). Following the
        state only, the same state is kept: a part read after this one depends on it."""
        agent_id = self._learn_agent(call_id, content, extra, text)
        if self.protocol is None:
            return None
        if _is_async(extra, result_text(content, extra) if text is None else text):
            self.protocol.spawn_result(agent_id, True)
            return None
        output = content if isinstance(content, str) else "\n".join(strings(content, []))
        facts: dict[str, Any] = {"avatar": avatar, "output": output}
        # whether its own records ran a test (None: they were not seen)
        if agent_id is not None:
            facts["tested"] = self.protocol.tested.get(agent_id)
            if facts["tested"] is None:  # its subagents/ file is read later
                self.unseen_runs[agent_id] = (line, output, avatar)
        return facts

    def _learn_agent(self, call_id: Any, content: Any, extra: Any, text: str | None) -> str | None:
        """The type of the sub-agent a spawning call's result names (and its id)."""
        agent_id = extra.get("agentId") if isinstance(extra, dict) else None
        if not isinstance(agent_id, str):
            # some versions name the sub-agent only in the result text
            found = _AGENT_ID.search(result_text(content, extra) if text is None else text)
            agent_id = found.group(1) if found else None
        if isinstance(agent_id, str):
            self.agent_types[agent_id] = self.spawn_types[call_id]
            return agent_id
        return None

    def _done(self, call_id: str | None) -> None:
        if call_id:
            self.done[call_id] = None
            if len(self.done) > _KEEP_IDS:
                self.done.popitem(last=False)

    def message(
        self,
        line: int,
        role: str,
        text: str,
        agent: str,
        agent_type: str | None,
        is_main: bool,
        problem: str | None = None,
    ) -> EventUnit | None:
        if role == "user" and is_main and "mb:" in text:
            from wukong_lint.sources.transcripts.turn import mb_confirmation

            self.mb_confirm = mb_confirmation(text) or self.mb_confirm
        if self.protocol is not None:
            if role == "user":
                self.protocol.user(agent, text)
            elif role == "assistant" and text:
                self.protocol.text(agent, text, line, agent_type, is_main)
        if self.follow:
            self.carry = 0
            return None
        event = Event("message", line, self.ctx)
        event.role, event.problem = role, problem
        event.agent, event.agent_type, event.is_main = agent, agent_type, is_main
        return self.unit(event, text)

    def integrity(self, line: int, problem: str, text: str) -> EventUnit | None:
        if self.follow:
            self.carry = 0
            return None
        event = Event("integrity", line, self.ctx)
        event.problem = problem
        return self.unit(event, text)

    def finish(self) -> Iterator[EventUnit | None]:
        """Results whose call never came (orphans), calls that never got a result, then a
        last unit carrying the remaining bytes."""
        while self.early:
            call_id, early = self.early.popitem(last=False)
            yield from self.result(early[0], call_id, *early[1:], late=True)
        for call_id, (call, text) in self.pending.items():
            if self.protocol is not None:
                self.protocol.call_done(call, self.follow)
            yield self.unit(call, text if text is not None else call_text(call))
            event = Event("integrity", call.line, self.ctx)
            event.problem = "tool-result-missing"
            event.tool, event.agent, event.is_main = call.tool, call.agent, call.is_main
            yield self.unit(event, f"tool call {call_id} ({call.tool}) has no result")
        self.pending.clear()
        if self.protocol is not None:
            yield from self._outputs()
        yield self.unit(Event("end", 0, self.ctx), "")
        yield from self.quiet()

    def quiet(self) -> Iterator[Any]:
        """The units counted as no rule can reach them since the last call, as one `Quiet`
        (at the end of a file or of a part)."""
        if self.quiet_units:
            yield _new_tuple(Quiet, (self.path, self.quiet_bytes, self.quiet_units))
            self.quiet_units = self.quiet_bytes = 0

    def _outputs(self, every: bool = True) -> Iterator[EventUnit | None]:
        """The final output of sub-agents spawned in the background (their last message: no
        tool result holds it), for their contract check: the ones due (`every`: all, at the
        end of the file). The text is carried in the event, not in the unit, so the other
        rules do not scan it twice."""
        state = self.protocol
        assert state is not None
        due, state.due = state.due, []
        if every:
            due += [(agent, *value) for agent, value in sorted(state.last_text.items())]
            state.last_text.clear()
        for agent, line, text, agent_type in due:
            if not agent_type:
                continue
            if self.follow:  # (no unit: but a whole read's unit takes the bytes carried)
                self.carry = 0
                continue
            event = Event("contract", line, self.ctx)
            event.agent, event.agent_type, event.is_main = agent, agent_type, False
            event.tool = "Task"
            event.protocol = {"avatar": agent_type, "output": text}
            yield self.unit(event, "")

    def usage(self, line: int, used: int, window: int | None = None) -> EventUnit | None:
        """A `context` event when the main agent's context holds more tokens than ever since
        the last compaction (None: it does not, or the profile checks no context)."""
        if self.protocol is None:
            return None
        peak = self.protocol.usage(used)
        if peak is None:
            return None
        event = Event("context", line, self.ctx)
        event.protocol = {"usage": (peak[0], used, window)}
        unit = self.unit(event, "")
        return unit


def _is_async(extra: Any, text: str) -> bool:
    """A spawning call's result that only says the sub-agent was started in the background."""
    if isinstance(extra, dict) and (
        extra.get("isAsync") or extra.get("status") == "async_launched"
    ):
        return True
    return text.lstrip().startswith(("Async agent launched", "Agent launched in the background"))
