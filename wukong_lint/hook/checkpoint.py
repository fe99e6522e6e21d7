"""戒 Layer 1 (CHECKPOINT) in the live hook, on opt-in: `wukong-lint hook --profile wukong
--checkpoint`.

The transcript check reports a task turn whose first tool call was not preceded by a
CHECKPOINT. The hook sees one call at a time, so for a main-agent PreToolUse it reads the
session transcript (`transcript_path`) backwards from its end to the user message that
started the turn (at most TURN_LIMIT bytes) and hands the checkpoint rules the same facts the
transcript reader attaches to a first call: `first`, and the CHECKPOINT parsed from the main
agent's text of the turn. The rules of kind `checkpoint` then decide as in a transcript:
missing (critical: deny), incomplete or no decision (high), Layer 2 decisions against the
answers (high).

Differences from the transcript check, on purpose:

- Every main-agent call of a task turn is judged, not only the first: a call that was denied
  for want of a CHECKPOINT must not pass when the agent simply tries again. The CHECKPOINT
  judged is the latest one the agent wrote in the turn before this call, so writing (or
  correcting) it lets the next call through; a turn that started with a good one is never
  denied.
- Not a task (a local-command echo, a reminder, a resumed-session summary) does not start a
  turn, as in the transcript; a CHECKPOINT written in a turn that ended without a call (the
  agent asked the user to confirm) still holds after the user's answer.

A transcript that cannot be read, or a turn whose start lies beyond TURN_LIMIT with no
CHECKPOINT in what was read, is `CannotTell`: the hook answers it as `--on-error` says
(the check was asked for: never a silent pass).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from wukong_lint.protocol.turn_facts import _NOT_A_TASK
from wukong_lint.sources.transcripts.records import DECODE_ERRORS, loads
from wukong_lint.sources.transcripts.turn import TURN_LIMIT, _lines_backwards

CARRY = 4  # texts of a turn without a call that carry over to the next (as protocol.py)
MAX_TURNS = 16  # turns without a call walked back for a carried CHECKPOINT
MAX_TEXTS = 64  # texts of a turn looked at when none answers the questions
KEEP_TEXT = 16384  # characters of one text kept (as protocol.py)
_RESULT = (b'"type":"tool_result"', b'"type": "tool_result"')


class CannotTell(Exception):
    """The transcript does not say whether the turn has a CHECKPOINT."""


def _records(path: str, limit: int) -> Iterator[dict[str, Any]]:
    """The main agent's user and assistant records, newest first (sidechains skipped)."""
    for raw in _lines_backwards(path, limit):
        if b'"assistant"' not in raw and b'"user"' not in raw:
            continue
        if b'"user"' in raw and b'"assistant"' not in raw and any(r in raw for r in _RESULT):
            continue  # a tool result (often large): neither a turn start nor text
        try:
            record = loads(raw)
        except DECODE_ERRORS:
            continue  # a line being written, or a malformed one
        if isinstance(record, dict) and not record.get("isSidechain"):
            yield record


def _user_text(content: Any) -> str | None:
    """The text of a user message (None: tool results only)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        texts = [t for t in texts if isinstance(t, str)]
        if texts:
            return "\n".join(texts)
    return None


class _Turn:
    __slots__ = ("found", "texts")

    def __init__(self) -> None:
        self.texts: list[str] = []  # the main agent's texts, newest first
        self.found = False  # the oldest of them answers the CHECKPOINT's questions


def _answers(text: str) -> bool:
    """Whether `text` holds a CHECKPOINT with at least one of Q1–Q4 answered."""
    from wukong_lint.protocol.checkpoint import parse_checkpoint

    point = parse_checkpoint(text)
    return point is not None and len(point.missing()) < 4


def _walk(path: str, limit: int) -> tuple[list[_Turn], bool]:
    """The turns walked back (newest first: the current one, then the earlier turns that
    made no call: their CHECKPOINT carries over), and whether the current turn's start (a
    user's task) was found."""
    turns = [_Turn()]
    for record in _records(path, limit):
        kind = record.get("type")
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        turn = turns[-1]
        if kind == "user":
            text = _user_text(content)
            if text is None or text.lstrip().startswith(_NOT_A_TASK):
                continue  # a tool result, or not the user's task: the turn goes on
            if len(turns) >= MAX_TURNS:
                return turns, True
            turns.append(_Turn())  # the turn before: it carries over if it made no call
            continue
        if kind != "assistant":
            continue
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            continue
        for block in reversed(blocks):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use" and len(turns) > 1:
                turns.pop()  # an earlier turn that made a call: nothing of it carries over
                return turns, True
            text = block.get("text") if block.get("type") == "text" else None
            if not isinstance(text, str):
                continue
            if len(turns) > 1:
                if len(turn.texts) < CARRY:
                    turn.texts.append(text)
            elif not turn.found:  # (older texts than the latest CHECKPOINT do not matter)
                turn.texts.append(text[:KEEP_TEXT])
                turn.found = _answers(text)
    # the file's start (or the read limit). What precedes the session's first task is no
    # task turn: it carries nothing.
    if len(turns) == 1:
        return turns, False
    turns.pop()
    return turns, True


def _latest(texts: list[str]) -> Any:
    """The turn's latest CHECKPOINT from its texts (chronological), with the texts after it
    (the decision may follow in the next one); None when none was written."""
    from wukong_lint.protocol.checkpoint import parse_checkpoint

    for start in range(len(texts) - 1, -1, -1):
        if _answers(texts[start]):
            return parse_checkpoint("\n".join(texts[start:])[: 4 * KEEP_TEXT])
    # no answers: a marker or a decision line only (incomplete), or nothing (missing)
    return parse_checkpoint("\n".join(texts[-MAX_TEXTS:])) if texts else None


def checkpoint_facts(transcript: str, limit: int = TURN_LIMIT) -> dict[str, Any] | None:
    """The facts of a main-agent call for the checkpoint rules ({"first": True,
    "checkpoint": ...}), or None when the call is not part of a user's task turn."""
    if not os.path.isfile(transcript):
        raise CannotTell(f"cannot read the transcript {transcript}: not a file")
    try:
        size = os.path.getsize(transcript)
        turns, found = _walk(transcript, limit)
    except OSError as err:
        raise CannotTell(
            f"cannot read the transcript {transcript}: {err.strerror or err}"
        ) from None
    if not found:
        if size <= limit:
            return None  # no user task in the whole session: nothing to check against
        point = _latest(list(reversed(turns[0].texts)))
        if point is None:
            raise CannotTell(f"the current turn is longer than the last {limit >> 20} MB")
        return {"first": True, "checkpoint": point}
    carried: list[str] = []
    for turn in reversed(turns[1:]):  # earlier turns without a call, oldest first
        carried = (carried + list(reversed(turn.texts)))[-CARRY:]
    texts = carried + list(reversed(turns[0].texts))
    return {"first": True, "checkpoint": _latest(texts)}
