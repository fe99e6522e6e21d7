"""Agent transcripts as a source: Claude Code sessions (with sub-agents), Codex CLI rollouts,
OpenAI chat messages and ReAct text histories, read record by record.

Memory stays flat with file size: a file is read one line (one record) at a time, and only
small bookkeeping survives a record (calls waiting for their result, sub-agent types, the
files read in the current turn). A call is reported once its result has arrived (so checks
see what the call did, e.g. whether a Write created a file) or at the end of the file.

A malformed record becomes a `transcript-integrity` event on its line and reading goes on;
record types we do not know are skipped.

The package, one hop per question: a format's reader is claude.py, codex.py, openai.py or
react.py; which format a file is: sniff.py; decoding records and their line numbers:
records.py; the state that pairs calls with results and tracks agents and turns: session.py;
the error classes: errors.py; profile, memory bank and agent definitions (and the output
contracts they declare): environment.py; the hook's backwards read of the current turn:
turn.py; the 戒 protocol facts of each turn that the protocol checks read: protocol.py.
This module holds the entry points (dispatch, reading a file whole or in parts, rule
examples) and gives the names the rest of the tool imports from
`wukong_lint.sources.transcripts` (the readers' on first use).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from wukong_lint.model import ScanError
from wukong_lint.model.events import Context, EventUnit
from wukong_lint.sources.transcripts.environment import (
    AVATAR_NAMES,
    FORMATS,
    MEMORY_FILES,
    OPTIONS,
    configure,
    first_cwd,
    load_agent_defs,
    make_context,
)

# Imported here (the rest of the package's names: `_LAZY`).
__all__ = ["AVATAR_NAMES", "FORMATS", "MEMORY_FILES", "OPTIONS", "PARTS_PER_WORKER",
           "PART_MIN", "SPLIT_MIN", "TEXT_SUFFIXES", "HandBack", "check_named_fit", "configure",
           "example_units", "first_cwd", "is_transcript_path", "load_agent_defs", "make_context",
           "open_transcript", "part_units", "transcript_units"]  # fmt: skip

TEXT_SUFFIXES = (".txt", ".log")  # read as ReAct histories when they clearly are one

# Names imported from their module on first use (PEP 562), so that the live hook, which needs
# only the environment and the backwards turn read, does not load every reader.
_LAZY = {
    "claude_units": "claude", "subagent_files": "claude", "subagent_identity": "claude",
    "subagent_parent": "claude", "codex_units": "codex", "openai_units": "openai",
    "react_units": "react", "classify_error": "errors", "Part": "session", "Session": "session",
    "sniff_format": "sniff", "is_array": "sniff", "is_loglines": "sniff", "misfit": "sniff",
    "text_history": "sniff", "TURN_LIMIT": "turn", "current_turn_reads": "turn",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def is_transcript_path(display: str) -> bool:
    lower = display.lower()
    if lower.endswith((".jsonl", ".json", *TEXT_SUFFIXES)):
        # a .json file is read as a transcript only if it looks like one, a .txt/.log file
        # only if it clearly is a ReAct history (open_transcript)
        return True
    return bool(OPTIONS["format"]) and lower.endswith(".md")


def check_named_fit(paths: list[str]) -> None:
    """A file named on the command line that does not fit the forced --transcript-format is
    an error (exit 2), not a list of malformed records. (In a named folder such a file is
    read as plain text.)"""
    from wukong_lint.sources.transcripts.sniff import misfit

    fmt = OPTIONS["format"]
    for path in paths if fmt else ():
        if path != "-" and os.path.isfile(path):
            why = misfit(path, fmt)
            if why is not None:
                from wukong_lint.util.errors import UsageError

                raise UsageError(f"check: {why}")


def open_transcript(full: str, display: str) -> Iterator[Any]:
    """The dispatch opener: a transcript's units, or the file as plain text if it is none
    (or if it does not fit the format forced with --transcript-format: a file named on the
    command line that does not fit is an error before the scan, see `misfit`)."""
    from wukong_lint.sources.transcripts.claude import subagent_parent
    from wukong_lint.sources.transcripts.sniff import misfit, sniff_format, text_history

    parent = subagent_parent(full)
    if parent is not None and os.path.abspath(full) not in OPTIONS["standalone"]:
        return  # read with its session file (scanned too), which knows what spawned it
    forced = OPTIONS["format"]
    if forced:
        fmt = None if misfit(full, forced) else forced
    elif display.lower().endswith(TEXT_SUFFIXES):
        fmt = "react" if text_history(full) else None
    else:
        fmt = sniff_format(full)
    if fmt is None:
        # plain text, read like any other file (a big one in parts: sources/chunked.py)
        from wukong_lint.sources.dispatch import read_units

        yield from read_units(full, display)
        return
    made = 0
    try:
        for item in transcript_units(full, display, fmt, parent):
            made += 1
            yield item
    except OSError as err:
        yield ScanError(display, f"cannot read: {err.strerror or err}")
        return
    if not made and _non_empty(full):
        # never "No findings" for a file nothing was read from (fails the run: is_unread)
        yield ScanError(display, "cannot read: no unit made of a non-empty transcript")


def _non_empty(path: str) -> bool:
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


# -- entry points ------------------------------------------------------------------------------


SPLIT_MIN = 4 << 20  # bytes: a smaller file is read and reported whole
PART_MIN = 1 << 20  # bytes: no part is made smaller than this
PARTS_PER_WORKER = 1  # (tests make many small parts, with FOLLOW_COST 0: a cut at every line)
# What following the state over a line costs, against making and scanning its units: a worker
# follows every line before its part, so the parts shrink towards the end of the file to
# keep the workers equally busy (measured: 0.36 s against 1.81 s per 100 MB of the bench session).
FOLLOW_COST = 0.2
# With the 戒 protocol's facts to follow too (profile wukong), following costs more against a
# part's scan: measured 0.53 s against 2.32 s per 100 MB of the bench session (0.33 against
# 1.70 without): the cost above is scaled by this.
WUKONG_FOLLOW = 1.15


def _never(path: str) -> bool:
    return False


def part_bounds(size: int, parts: int, follow: float = FOLLOW_COST) -> list[int]:
    """Where `parts` parts of a file of `size` bytes start (the first at 0), so that each
    costs the same: following the lines before it (`follow` per byte) and reading its own (1
    per byte). With s_k the start of part k and T the cost of each, s_{k+1} = s_k + T -
    follow * s_k; the last ends at `size`."""
    if parts <= 1 or size <= 0:
        return [0]
    if follow <= 0:  # (a free follow: equal parts)
        return [size * k // parts for k in range(parts)]
    keep = 1.0 - follow
    total = 1.0 - keep**parts
    return [int(size * (1.0 - keep**k) / total) for k in range(parts)]


def _line_start(handle: Any, offset: int) -> int:
    """The offset of the first line that starts at or after `offset` (`offset` itself when a
    line starts there; the file's size when none does)."""
    if offset == 0:
        return 0
    handle.seek(offset - 1)
    position = offset - 1
    while True:
        chunk = handle.read(1 << 16)
        if not chunk:
            return position
        found = chunk.find(b"\n")
        if found >= 0:
            return position + found + 1
        position += len(chunk)


def _split(path: str, not_jsonl: Any, follow: float = 1.0) -> list[int]:
    """The byte offsets where the parts of a file read in parts start (all on line starts;
    empty: the file is read whole here). Asked `not_jsonl(path)` (one JSON document) only of
    a file big enough to split, so that a reader's own test of the file's head is not made
    twice. `follow`: the cost of following against FOLLOW_COST (the profile's)."""
    workers = OPTIONS.get("parts") or 0
    if workers < 1:
        return []
    try:
        size = os.path.getsize(path)
        if size < SPLIT_MIN or not_jsonl(path):
            return []
        parts = max(1, min(workers * PARTS_PER_WORKER, size // max(1, PART_MIN)))
        starts: list[int] = []
        with open(path, "rb") as handle:
            for offset in part_bounds(size, parts, FOLLOW_COST * follow):
                start = _line_start(handle, offset)
                if start < size and (not starts or start > starts[-1]):
                    starts.append(start)
    except OSError:
        return []  # (read here, which reports why it cannot be)
    return starts


def _parts(fmt: str, path: str, session: Any, starts: list[int], sub: Any, hand_back: bool
           ) -> Iterator[Any]:  # fmt: skip
    """The `Part`s of a file read in parts, from the session's state at its start."""
    from wukong_lint.sources.transcripts.session import Part

    state = session.snapshot()
    if state is None:
        return  # (read whole here)
    ends = [*starts[1:], -1]
    for start, end in zip(starts, ends, strict=True):
        last = end == -1
        yield Part(fmt, path, session.path, start, end, state, last, sub, hand_back and last)


class HandBack:
    """Asked of the scan after the last part of a file whose session reads on (its sub-agent
    files): the parts are scanned first, and `state` is then the session's state at the end
    of the file (None: it could not be handed back: the file is then followed here)."""

    def __init__(self) -> None:
        self.state: bytes | None = None


def _follow(units: Iterator[Any], session: Any) -> None:
    """Follow a file's state here (no unit is made), as far as a whole read would."""
    session.follow = True
    try:
        for _ in units:
            pass
        for _ in session.finish():
            pass
    finally:
        session.follow = False


def _counted(session: Any, units: Iterator[Any]) -> Iterator[Any]:
    """`units`; when reading them fails midway (a file gone, out of memory), first the units
    the session counted as no rule reaches them (`Session.quiet`): a read that stops there
    still counts what it read."""
    try:
        yield from units
    except (OSError, MemoryError):
        yield from session.quiet()
        raise


def _read(make: Any, fmt: str, path: str, session: Any, not_jsonl: Any, sub: Any = None,
          reads_on: bool = False) -> Iterator[Any]:  # fmt: skip
    """The units of a file read whole here, or only its `Part`s when it is read in parts;
    `reads_on`: the session is read on after this file (its state is needed here after)."""
    starts = _split(path, not_jsonl, WUKONG_FOLLOW if session.protocol is not None else 1.0)
    parts = list(_parts(fmt, path, session, starts, sub, reads_on)) if starts else []
    if not parts:
        session.in_parts = False
        yield from make()
        yield from session.finish()
        return
    session.in_parts = True
    yield from parts
    if reads_on:
        asked = HandBack()
        yield asked
        if asked.state is not None:
            session.restore(asked.state)
        else:
            _follow(make(), session)


def _untested(session: Any, identity: tuple[str, str | None], unseen: tuple[Any, ...]) -> Any:
    """A foreground avatar's result seen again once its subagents/ file showed it ran no test
    command (身 must run the tests it reports): only that check runs on it."""
    from wukong_lint.model.events import Event, make_unit

    line, output, avatar = unseen
    event = Event("contract", line, session.ctx)
    event.agent, event.agent_type, event.is_main = f"{avatar}:{identity[0]}", avatar, False
    event.tool = "Task"
    event.protocol = {"avatar": avatar, "output": output or "", "tested": False, "recheck": True}
    return make_unit(session.path, event, "", 0)


def _share(target: Any, source: Any) -> None:
    """What a session and its sub-agent files share: the agents and their types, the
    background agents, the context. A whole read shares the very objects, so that what one
    file learns the next one knows; a file read in parts hands its state back as a copy,
    which is then shared again (`_share(session, sub_session)`)."""
    target.ctx = source.ctx
    target.spawn_types = source.spawn_types
    target.prompt_types = source.prompt_types
    target.agent_types = source.agent_types
    if source.protocol is not None and target.protocol is not None:
        target.protocol.async_agents = source.protocol.async_agents


def _alone(full: str, display: str, parent: str) -> Iterator[Any]:
    """A sub-agent transcript read without its session file being scanned: the session is
    followed first (no unit made) for what it knows of the sub-agent (its type, the spawning
    call), then the sub-agent's records are read as a full transcript."""
    from wukong_lint.sources.transcripts.claude import claude_units, subagent_identity
    from wukong_lint.sources.transcripts.session import Session
    from wukong_lint.sources.transcripts.sniff import is_loglines

    session = Session(parent, make_context(parent, first_cwd(parent)))
    # (context only: the sub-agent's own file is what was asked for, read even without it)
    with contextlib.suppress(OSError):
        _follow(claude_units(session, parent), session)
    identity = subagent_identity(session, full)
    sub_session = Session(display, session.ctx)
    _share(sub_session, session)
    yield from _counted(sub_session, _read(
        lambda: claude_units(sub_session, full, identity), "claude", full, sub_session,
        is_loglines, identity,
    ))  # fmt: skip


def transcript_units(full: str, display: str, fmt: str, parent: str | None = None
                     ) -> Iterator[Any]:  # fmt: skip
    """The units of a transcript file (`parent`: the session file of a sub-agent transcript
    read on its own)."""
    if parent is not None and fmt == "claude":
        yield from _alone(full, display, parent)
        return
    from wukong_lint.sources.transcripts.claude import (
        claude_units,
        subagent_files,
        subagent_identity,
    )
    from wukong_lint.sources.transcripts.codex import codex_units
    from wukong_lint.sources.transcripts.openai import openai_units
    from wukong_lint.sources.transcripts.react import react_units
    from wukong_lint.sources.transcripts.session import Session
    from wukong_lint.sources.transcripts.sniff import is_array, is_loglines

    cwd = first_cwd(full) if fmt in ("claude", "codex") else None
    ctx = make_context(full, cwd)
    session = Session(display, ctx)
    if fmt == "claude":
        subs = subagent_files(full)
        yield from _counted(session, _read(lambda: claude_units(session, full), fmt, full,
                                           session, is_loglines, reads_on=bool(subs)))  # fmt: skip
        base_display = os.path.splitext(display)[0]
        for sub in subs:
            identity = subagent_identity(session, sub)
            sub_display = f"{base_display}/subagents/{os.path.basename(sub)}"
            sub_session = Session(sub_display, session.ctx)
            _share(sub_session, session)
            try:
                yield from _counted(sub_session, _read(
                    lambda s=sub_session, f=sub, i=identity: claude_units(s, f, i),
                    fmt, sub, sub_session, is_loglines, identity, reads_on=True,
                ))  # fmt: skip
            except OSError as err:
                yield ScanError(sub_display, f"cannot read: {err.strerror or err}")
                continue
            if sub_session.in_parts:  # read in parts: its state came back as a copy
                _share(session, sub_session)
            unseen = session.unseen_runs.pop(identity[0], None)
            protocol = sub_session.protocol
            if (
                unseen is not None
                and protocol is not None
                and protocol.tested.get(identity[0]) is False
            ):
                yield _untested(session, identity, unseen)
        return
    not_jsonl = _never
    if fmt == "openai":  # (a rollout is always JSONL)
        not_jsonl = is_array
    session.fmt = fmt
    ctx.single_agent = fmt == "react"
    reader = {"codex": codex_units, "openai": openai_units, "react": react_units}[fmt]
    if fmt == "react":
        yield from reader(session, full)
        yield from session.finish()
        return
    yield from _counted(
        session, _read(lambda: reader(session, full), fmt, full, session, not_jsonl)
    )


def part_units(part: Any, session: Any = None) -> Iterator[EventUnit]:
    """The units of a `Part`: the state at the file's start followed over the lines before
    the part, then the part's lines read (`session`: a new one to read them with, left with
    the state at the part's end)."""
    from wukong_lint.sources.transcripts.claude import claude_units
    from wukong_lint.sources.transcripts.codex import codex_units
    from wukong_lint.sources.transcripts.openai import openai_units
    from wukong_lint.sources.transcripts.session import Session

    if session is None:
        session = Session(part.display, Context())
    session.restore(part.state)
    session.in_parts = True  # (a reader then never reads the file as one JSON document)

    def read(span: tuple[int, int, int]) -> Iterator[Any]:
        if part.fmt == "claude":
            return claude_units(session, part.path, part.sub_agent, span)
        return {"codex": codex_units, "openai": openai_units}[part.fmt](session, part.path, span)

    first = 1
    if part.start:
        session.follow = True
        session.next_line = 0
        for _ in read((0, part.start, 1)):
            pass
        session.follow = False
        session.make_texts()
        first = session.next_line
    yield from read((part.start, part.end, first))
    if part.last:
        yield from session.finish()
    yield from session.quiet()


def example_units(text: str, rule: Any) -> list[EventUnit]:
    """Units for a rule example: JSONL records of a transcript, or a bare command line (run as
    a Bash call by the main agent). Examples run in the `wukong` profile with a memory bank."""
    from wukong_lint.sources.transcripts.claude import claude_units
    from wukong_lint.sources.transcripts.codex import codex_units
    from wukong_lint.sources.transcripts.openai import openai_units
    from wukong_lint.sources.transcripts.react import react_units
    from wukong_lint.sources.transcripts.session import Session
    from wukong_lint.sources.transcripts.sniff import sniff_format

    ctx = Context("wukong", True, {}, None)
    session = Session("example.jsonl", ctx)
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        units = list(session.call(1, "Bash", {"command": text}, None, "main", None, True))
        return units + list(session.finish())
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        f.write(text if text.endswith("\n") else text + "\n")
        name = f.name
    try:
        fmt = sniff_format(name) or "claude"
        readers = {"claude": claude_units, "codex": codex_units, "openai": openai_units,
                   "react": react_units}  # fmt: skip
        reader: Any = readers.get(fmt, claude_units)
        session.fmt = fmt
        units = list(reader(session, name)) + list(session.finish())
    finally:
        os.unlink(name)
    return units
