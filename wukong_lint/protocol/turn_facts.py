"""The 戒 protocol facts of a transcript, followed turn by turn (profile `wukong` only).

The protocol's checks need what happened earlier in a turn: whether the main agent wrote its
CHECKPOINT before its first tool call, how many files it has read, how many lines it has
changed, how many avatars it has spawned, which calls it keeps repeating, how full the
context window is. A rule sees one event at a time, so the session keeps these facts here
and attaches the few a check needs to the event, as `event.protocol` (a small dict). The
checks (protocol/checkpoint.py, protocol/behaviour.py, protocol/contracts.py,
protocol/context_budget.py) decide from them, with their rule's parameters.

The state is small (counters, the paths read this turn, the text written before the first
call, at most `_KEEP_TEXT` characters per agent) and plain data, so a session snapshot for a
part read elsewhere (runner/offload.py) carries it.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

from wukong_lint.model.events import EDIT_TOOLS, SPAWN_TOOLS, event_paths
from wukong_lint.protocol.shell_reads import shell_read_paths
from wukong_lint.protocol.spawn_types import spawn_type

# User messages that are not a new task from the user: Claude Code's local-command echoes,
# the resumed-session summary, hook reminders, background-task notifications, interruptions.
_NOT_A_TASK = (
    "<command-", "<local-command", "Caveat:", "[Request interrupted", "<system-reminder>",
    "This session is being continued", "<task-notification>", "<agent-notification>",
    "<user-memory-input>",
    "<bash-input>", "<bash-stdout>", "<bash-stderr>",
)  # fmt: skip
FILE_READS = frozenset({"Read", "NotebookRead", "View", "read_file"})
SEARCHES = frozenset({"Glob", "Grep", "grep_search", "file_search", "codebase_search"})
# Shell programs that search a tree (one search per command, as a Glob/Grep call).
_SHELL_SEARCH = ("grep -r", "grep -R", "rg ", "find ", "ag ", "fd ", "git grep")
# Tools dynamic context pruning never prunes (seed 004: protected) or that change files: their
# repeats are not counted (and their often large inputs are not hashed).
_NOT_PRUNED = SPAWN_TOOLS | EDIT_TOOLS | {"TodoWrite", "lsp_rename"}
# A command that runs tests (for 身's 跳过测试: a sub-agent that ran none).
_TEST_COMMAND = re.compile(
    r"\b(?:pytest|py\.test|tox|nox|jest|vitest|mocha|phpunit|rspec|ctest|unittest)\b|"
    r"\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test|\b(?:go|cargo|dotnet|mix|swift|deno)\s+test\b|"
    r"\bmake\s+(?:test|check)\b|run_?tests?[\w.-]*\.sh|\bgradlew?\s+test"
)
_KEEP_TEXT = 16384  # characters of the main agent's text kept: the CHECKPOINT
_KEEP_OUTPUT = 8192  # characters of a background sub-agent's last message kept
_KEEP_OUTPUTS = 32  # background sub-agents whose last message is kept (the most recent)
_KEEP_PATHS = 64  # paths read in a turn handed to a check (more: it has fired already)
_KEEP_REQUEST = 2000  # characters of the user's message kept (the review rule reads it)
_KEEP_RECENT = 4  # texts kept since the last summons returned (a declaration is one of them)


def _parse(texts: list[str]) -> Any:
    """The CHECKPOINT in an agent's texts (None: none). Remembered by text: a session
    repeats its CHECKPOINTs (the same self-check for the same kind of task; measured on the
    bench's compliant session: 934 distinct of 6,200, at ~29 us a parse)."""
    if not texts:
        return None
    text = "\n".join(texts)
    found = _PARSED.get(text, _UNSEEN)
    if found is _UNSEEN:
        from wukong_lint.protocol.checkpoint import parse_checkpoint

        found = parse_checkpoint(text)  # (an immutable record: shared safely)
        if len(text) <= _PARSED_TEXT:
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[text] = found
    return found


_PARSED: dict[str, Any] = {}
_PARSED_MAX = 1024  # CHECKPOINTs remembered (then the memo starts over)
_PARSED_TEXT = 4096  # characters: a longer text is parsed each time (the memo holds its keys)
_UNSEEN = object()


def _read_paths(tool: str | None, event: Any) -> list[str]:
    """The files a main-agent call reads: a Read tool's path, or a shell command that only
    prints files (Codex and OpenAI-style agents read through the shell)."""
    if tool in FILE_READS and event.input:
        return event_paths(event)[:1]
    if event.command is not None and not event.is_error:
        return shell_read_paths(event.command)
    return []


# (a module constant: a compiled class has no `__slots__` to read back, native.py)
_TURN_FIELDS = ("called", "checkpoint", "edit_lines", "first_line", "maxes", "reads", "recent",
                "repeats", "request", "review_at", "searches", "spawn_types", "spawns", "task",
                "text", "unparsed")  # fmt: skip


class Turn:
    """One agent's current turn."""

    __slots__ = _TURN_FIELDS

    def __init__(self, task: bool = False, text: list[str] | None = None) -> None:
        # (defaults: a compiled class is unpickled by calling it with no argument, native.py)
        self.task = task  # started by a user's task (not a command echo or reminder)
        self.text: list[str] = text or []  # the agent's text before its first call
        self.called = False
        # The CHECKPOINT, parsed when a check first needs it (a read that only follows the
        # state for parts read elsewhere never does): until then its text is `unparsed`.
        self.checkpoint: Any = None
        self.unparsed: str | None = None
        self.reads: list[str] = []  # distinct files read
        self.searches = 0
        self.edit_lines = 0
        self.spawns = 0
        self.repeats: dict[tuple[str, int], int] = {}
        self.maxes: dict[str, int] = {}  # tool -> the most repeats of one of its calls
        # the line of the body's first own call of the turn (not a summons, not the routing
        # the CHECKPOINT runs): where a verdict on the whole turn is reported (0: none yet)
        self.first_line = 0
        self.spawn_types: list[str] = []  # what the body summoned this turn
        # the line of a summons that gives a code review to an avatar other than the
        # version's reviewer (0: none): where the review rule reports it
        self.review_at = 0
        self.request = ""  # the head of the user's message that started the turn
        # the agent's texts since its last summons returned: the summoning declaration
        self.recent: list[str] = []

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in _TURN_FIELDS)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(_TURN_FIELDS, state, strict=True):
            setattr(self, name, value)

    def point(self) -> Any:
        """The turn's CHECKPOINT (None: none was written before its first call)."""
        if self.unparsed is not None:
            self.checkpoint, self.unparsed = _parse([self.unparsed]), None
        return self.checkpoint


_KEEP_AGENTS = 256  # agents whose turn is followed; the oldest sub-agents are forgotten
_FIRST_TEXT = re.compile(r"\S")
_EDIT_SIZE: list[Any] = []


def _edit_size() -> Any:
    """protocol/agents.py `edit_size`, imported on first use (an import statement in the loop
    costs a lookup in the import machinery a call)."""
    if not _EDIT_SIZE:
        from wukong_lint.protocol.agents import edit_size

        _EDIT_SIZE.append(edit_size)
    return _EDIT_SIZE[0]


_PROTO: list[Any] = []
_MARKERS: list[str] = []  # the memory-bank proposal's markers (💾), read once


def _markers() -> list[str]:
    _MARKERS.extend(_proto().proposal_markers())
    return _MARKERS


def _proto() -> Any:
    """protocol/session_facts.py, imported on first use (the version data behind it is read
    only in a `wukong` profile session)."""
    if not _PROTO:
        from wukong_lint.protocol import session_facts

        _PROTO.append(session_facts)
    return _PROTO[0]


class ProtocolState:
    """The protocol facts of one transcript file (and its sub-agents' outputs)."""

    def __init__(self) -> None:
        self.turns: dict[str, Turn] = {}
        self.peak = 0  # the most context tokens in use since the last compaction
        self.last_text: dict[str, tuple[int, str, str | None]] = {}  # agent -> line, text, type
        self.async_agents: dict[str, None] = {}  # sub-agents spawned in the background
        self.flag: str | None = None  # a reader's note on the next call (ReAct: no Thought)
        self.tested: dict[str, bool] = {}  # sub-agent id -> whether it ran a test command
        self.compactions = 0  # compactions so far (a broken call/result pair after one)
        # background sub-agents' final outputs to check now: (agent, line, text, type)
        self.due: list[tuple[str, int, str, str | None]] = []
        # the body's task turns that are over, to judge as a whole now (their Turn)
        self.ends: list[Turn] = []
        self.proposal = False  # the body's last text asked to write the memory bank (💾)
        self.shown = False  # the session has shown the summoning protocol (summoning.py)
        self.track: str | None = None  # the track the router or planner chose (evidence)
        self.bank_reads: list[str] = []  # the memory-bank files the body read, latest last
        self.kinds: list[str] = []  # the agent types the body summoned so far (first seen)
        # after a compaction: [the memory-bank files read before it, those read since, the
        # memory reader called since] (the Recovery Gate); None: no compaction yet
        self.recovery: list[Any] | None = None

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.turns, self.peak, self.last_text, self.async_agents, self.flag, self.tested,
                self.compactions, self.due, self.ends, self.proposal, self.shown,
                self.track, self.bank_reads, self.recovery, self.kinds)  # fmt: skip

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        (self.turns, self.peak, self.last_text, self.async_agents, self.flag,
         self.tested, self.compactions, self.due, self.ends, self.proposal, self.shown,
         self.track, self.bank_reads, self.recovery, self.kinds) = state  # fmt: skip

    def _turn(self, agent: str) -> Turn:
        turn = self.turns.get(agent)
        if turn is None:
            turn = self.turns[agent] = Turn(False)
        return turn

    # -- what the readers report --------------------------------------------------------------

    def user(self, agent: str, text: str) -> None:
        """A user message to `agent`: a new task turn, unless it is not the user's task (an
        answer to the memory-bank proposal the body just made is no new task either)."""
        first = _FIRST_TEXT.search(text)  # (where its text starts: no copy of a long message)
        if first is not None and text.startswith(_NOT_A_TASK, first.start()):
            return
        if agent == "main" and self.proposal:
            self.proposal = False
            if _proto().answers_proposal(text):
                return  # 好 / 不用 to the 💾 question: the turn that asked goes on
        old = self.turns.pop(agent, None)
        if old is not None and agent == "main" and old.task and (old.first_line or old.review_at):
            self.ends.append(old)  # judged as a whole (an implied decision, the review rule)
        # A CHECKPOINT written in a turn that ended without a call (the agent asked the user
        # to confirm its plan) still holds when the user answers: its text carries over.
        carried = old.text[-4:] if old is not None and old.task and not old.called else None
        turn = self.turns[agent] = Turn(True, carried)
        if agent == "main":
            turn.request = text[:_KEEP_REQUEST]
        if len(self.turns) > _KEEP_AGENTS:
            oldest = next(a for a in self.turns if a != "main")
            del self.turns[oldest]

    def text(self, agent: str, text: str, line: int, agent_type: str | None, main: bool) -> None:
        turn = self._turn(agent)
        if main and not turn.called and sum(map(len, turn.text)) < _KEEP_TEXT:
            turn.text.append(text[:_KEEP_TEXT])
        if main:
            turn.recent.append(text[:_KEEP_TEXT])
            if len(turn.recent) > _KEEP_RECENT:
                del turn.recent[0]
            markers = _MARKERS or _markers()
            self.proposal = any(marker in text for marker in markers)
        if not main and agent.rpartition(":")[2] in self.async_agents:
            # a background sub-agent's last message is its final output (no result holds it)
            self.last_text.pop(agent, None)
            self.last_text[agent] = (line, text[-_KEEP_OUTPUT:], agent_type)
            if len(self.last_text) > _KEEP_OUTPUTS:  # the oldest has long finished: check it
                oldest = next(iter(self.last_text))
                self.due.append((oldest, *self.last_text.pop(oldest)))

    def compacted(self) -> None:
        self.peak = 0
        self.compactions += 1
        self.recovery = [tuple(self.bank_reads), [], False]

    def usage(self, used: int) -> tuple[int, int] | None:
        """(the peak reported before, tokens now) when the context holds some 3 % more than
        ever reported since the last compaction, else None: a level is reported when the
        first usage at or over it is (a few hundred reports per window, not one a message)."""
        if used < self.peak + max(2000, self.peak >> 5):
            return None
        before, self.peak = self.peak, used
        return before, used

    def call_seen(self, event: Any, pending_spawns: list[Any], follow: bool = False) -> None:
        """A tool call, when it is read: the first call of a task turn carries the checkpoint
        written before it; a spawning call carries the avatars still running. (`follow`: no
        unit will be made of it, only the state matters.)"""
        turn = self._turn(event.agent)
        facts: dict[str, Any] = {}
        spawn = event.tool in SPAWN_TOOLS
        if event.is_main and not turn.called and not _proto().preparatory(event.command):
            # (the routing a CHECKPOINT runs, `cli.py analyze`, is part of writing it)
            turn.called = True
            if turn.task:
                turn.unparsed = "\n".join(turn.text) if turn.text else None
                facts["first"] = True
                facts["text"] = turn.unparsed  # parsed when the call is reported (call_done)
                if turn.unparsed is not None and event.ctx.version_strength < 2:
                    _proto().detect_checkpoint(event.ctx, turn.point())
            turn.text = []
        own = event.is_main and turn.task and turn.called and not spawn
        if own and not turn.first_line and not _proto().preparatory(event.command):
            turn.first_line = event.line
        if spawn:
            if event.is_main:
                turn.spawns += 1  # counted when issued: parallel spawns precede any result
                facts["spawn"] = turn.spawns
                kind = spawn_type(event.input)
                if isinstance(kind, str) and len(turn.spawn_types) < 64:
                    turn.spawn_types.append(kind)
                if isinstance(kind, str) and kind not in self.kinds and len(self.kinds) < 256:
                    self.kinds.append(kind)
                    facts["new_kind"] = True  # (an unfamiliar type is noted once a session)
                if turn.task and not turn.review_at and _proto().review_summons(event):
                    turn.review_at = event.line
                declared, shown = _proto().summons(event, turn.recent, self.shown)
                self.shown = self.shown or shown
                facts["declared"], facts["shown"] = declared, self.shown
                if self.recovery is not None and _proto().is_reader(event.ctx, kind):
                    self.recovery[2] = True
            facts["running"] = tuple(
                (spawn_type(c.input), c.input.get("isolation"))
                for c in pending_spawns
                if isinstance(c.input, dict)
            )
        if self.flag is not None:
            facts["react"], self.flag = self.flag, None
        if facts:
            event.protocol = facts

    def call_done(self, event: Any, follow: bool = False) -> None:
        """A tool call, when its result is in (or the file ends): the turn's running totals.
        (`follow`: no unit will be made of it: the CHECKPOINT is left unparsed.)"""
        turn = self._turn(event.agent)
        facts = event.protocol if event.protocol is not None else {}
        tool = event.tool
        if "text" in facts and not follow:
            text = facts.pop("text")
            if text is not None and turn.unparsed is text:
                facts["checkpoint"] = turn.point()
            else:  # (the turn has moved on, or its CHECKPOINT was parsed already)
                facts["checkpoint"] = _parse([text]) if text else None
        if event.is_main:
            read_paths = _read_paths(tool, event)
            if self.recovery is not None and (tool in EDIT_TOOLS or event.command is not None):
                before, since, reader = self.recovery
                facts["recovery"] = (before, tuple(since), reader)
            if read_paths:
                for path in read_paths:
                    if path not in turn.reads and len(turn.reads) < _KEEP_PATHS:
                        facts["reads"] = (tuple(turn.reads), path)
                        turn.reads.append(path)
                    if "memory-bank/" in path:
                        self._bank_read(path)
            elif tool in SEARCHES or (
                event.command is not None and event.command.lstrip().startswith(_SHELL_SEARCH)
            ):
                turn.searches += 1
                facts["searches"] = turn.searches
            elif tool in EDIT_TOOLS and not event.is_error:
                size = _edit_size()(tool, event.input, event.result, event.new_file)
                facts["edit"] = (turn.edit_lines, size)
                turn.edit_lines += size
                if turn.task and turn.called and not follow:
                    facts["checkpoint"] = turn.point()
            elif tool in SPAWN_TOOLS:
                # the spawns issued by the time this one's result is in: a parallel summons
                # issues them all before the first result arrives
                facts["first_spawn"] = facts.get("spawn") == 1
                facts["spawns_in_turn"] = turn.spawns
                turn.recent = []  # the next summons is declared anew
                if turn.task and not follow:
                    facts["checkpoint"] = turn.point()
        if not event.is_main:
            agent_id = event.agent.rpartition(":")[2]
            ran = event.command is not None and _TEST_COMMAND.search(event.command) is not None
            if ran or agent_id not in self.tested:
                self.tested[agent_id] = ran or self.tested.get(agent_id, False)
                if len(self.tested) > 4096:
                    del self.tested[next(iter(self.tested))]
        if tool is not None and tool not in _NOT_PRUNED:
            key = (tool, zlib.crc32(repr(event.input).encode("utf-8", "replace")))
            count = turn.repeats.get(key, 0) + 1
            if len(turn.repeats) < 4096:
                turn.repeats[key] = count
            if count > 1:
                facts["repeat"] = (count, tuple(turn.maxes.items()))
                if count > turn.maxes.get(tool, 0):
                    turn.maxes[tool] = count
        if facts:
            event.protocol = facts

    def _bank_read(self, path: str) -> None:
        if path in self.bank_reads:
            self.bank_reads.remove(path)
        self.bank_reads.append(path)
        if len(self.bank_reads) > 8:
            del self.bank_reads[0]
        if self.recovery is not None and len(self.recovery[1]) < _KEEP_PATHS:
            self.recovery[1].append(path)

    def spawn_result(self, agent_id: str | None, is_async: bool) -> None:
        if agent_id and is_async:
            self.async_agents[agent_id] = None
            if len(self.async_agents) > 4096:
                del self.async_agents[next(iter(self.async_agents))]
