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

import os
from collections.abc import Iterator
from typing import Any

from wukong_lint.model import ScanError
from wukong_lint.sources.transcript_events import Context, EventUnit
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
__all__ = ["AVATAR_NAMES", "FORMATS", "MEMORY_FILES", "OPTIONS", "PARTS_PER_WORKER", "PART_MAX",
           "PART_MIN", "SPLIT_MIN", "TEXT_SUFFIXES", "check_named_fit", "configure",
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
                from wukong_lint.errors import UsageError

                raise UsageError(f"check: {why}")


def open_transcript(full: str, display: str) -> Iterator[Any]:
    """The dispatch opener: a transcript's units, or the file as plain text if it is none
    (or if it does not fit the format forced with --transcript-format: a file named on the
    command line that does not fit is an error before the scan, see `misfit`)."""
    from wukong_lint.sources.transcripts.claude import subagent_parent
    from wukong_lint.sources.transcripts.sniff import misfit, sniff_format, text_history

    if subagent_parent(full) is not None:
        return  # read with its session file, which knows what spawned it
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
    try:
        yield from transcript_units(full, display, fmt)
    except OSError as err:
        yield ScanError(display, f"cannot read: {err.strerror or err}")


# -- entry points ------------------------------------------------------------------------------


SPLIT_MIN = 4 << 20  # bytes: a smaller file is read and reported whole
# bytes per part: small enough that no worker waits long for the last one to end
PART_MIN, PART_MAX = 1 << 20, 4 << 20
PARTS_PER_WORKER = 8  # enough parts that the workers finish at about the same time


def _never(path: str) -> bool:
    return False


def _part_size(path: str, not_jsonl: Any) -> int:
    """Bytes per part when the file is to be read in parts, else 0 (also when the test
    `not_jsonl(path)` says it is one JSON document: asked only of a file big enough to split,
    so that a reader's own test of the file's head is not made twice)."""
    workers = OPTIONS.get("parts") or 0
    if workers < 1:
        return 0
    try:
        size = os.path.getsize(path)
    except OSError:
        return 0
    if size < SPLIT_MIN or not_jsonl(path):
        return 0
    return max(PART_MIN, min(PART_MAX, size // (workers * PARTS_PER_WORKER)))


def _read(units: Iterator[Any], session: Any) -> Iterator[Any]:
    """The units of a file read whole, or only its `Part`s when it is read in parts."""
    state = session.snapshot() if session.part_size else None
    if state is None:
        session.part_size = 0
        yield from units
        yield from session.finish()
        return
    from wukong_lint.sources.transcripts.session import Part

    session.part = (0, 1, state)
    session.follow = True
    for item in units:  # this read only follows the state; the parts make the units
        if isinstance(item, (Part, ScanError)):
            yield item


def _untested(session: Any, identity: tuple[str, str | None], unseen: tuple[Any, ...]) -> Any:
    """A foreground avatar's result seen again once its subagents/ file showed it ran no test
    command (身 must run the tests it reports): only that check runs on it."""
    from wukong_lint.sources.transcript_events import Event, make_unit

    line, output, avatar = unseen
    event = Event("contract", line, session.ctx)
    event.agent, event.agent_type, event.is_main = f"{avatar}:{identity[0]}", avatar, False
    event.tool = "Task"
    event.protocol = {"avatar": avatar, "output": output or "", "tested": False, "recheck": True}
    return make_unit(session.path, event, "", 0)


def transcript_units(full: str, display: str, fmt: str) -> Iterator[Any]:
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
        session.part_size = _part_size(full, is_loglines)
        yield from _read(claude_units(session, full), session)
        base_display = os.path.splitext(display)[0]
        for sub in subagent_files(full):
            identity = subagent_identity(session, sub)
            sub_display = f"{base_display}/subagents/{os.path.basename(sub)}"
            sub_session = Session(sub_display, ctx)
            sub_session.spawn_types = session.spawn_types
            sub_session.prompt_types = session.prompt_types
            sub_session.agent_types = session.agent_types
            if session.protocol is not None and sub_session.protocol is not None:
                sub_session.protocol.async_agents = session.protocol.async_agents
            sub_session.part_size = _part_size(sub, is_loglines)
            try:
                yield from _read(claude_units(sub_session, sub, identity), sub_session)
            except OSError as err:
                yield ScanError(sub_display, f"cannot read: {err.strerror or err}")
                continue
            unseen = session.unseen_runs.pop(identity[0], None)
            protocol = sub_session.protocol
            if (
                unseen is not None
                and protocol is not None
                and protocol.tested.get(identity[0]) is False
            ):
                yield _untested(session, identity, unseen)
        return
    if fmt in ("codex", "openai"):  # (a rollout is always JSONL)
        session.part_size = _part_size(full, is_array if fmt == "openai" else _never)
    session.fmt = fmt
    ctx.single_agent = fmt == "react"
    reader = {"codex": codex_units, "openai": openai_units, "react": react_units}[fmt]
    yield from _read(reader(session, full), session)


def part_units(part: Any) -> Iterator[EventUnit]:
    """The units of a `Part`, read from the state the session had at its start."""
    from wukong_lint.sources.transcripts.claude import claude_units
    from wukong_lint.sources.transcripts.codex import codex_units
    from wukong_lint.sources.transcripts.openai import openai_units
    from wukong_lint.sources.transcripts.session import Session

    session = Session(part.display, Context())
    session.restore(part.state)
    span = (part.start, part.end, part.first_line)
    units: Iterator[Any]
    if part.fmt == "claude":
        units = claude_units(session, part.path, part.sub_agent, span)
    else:
        units = {"codex": codex_units, "openai": openai_units}[part.fmt](session, part.path, span)
    yield from units
    if part.last:
        yield from session.finish()


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
