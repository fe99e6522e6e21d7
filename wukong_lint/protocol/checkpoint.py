"""戒 Layers 1 and 2 (body-boundary): the CHECKPOINT the main agent writes when a task arrives,
and whether its decision follows from its own answers.

`parse_checkpoint` reads the self-check from the agent's text, in the seed's Chinese wording
(Q0 Skill 匹配？ 是 ... ⚡ 决策: 本体执行 / 召唤分身 @眼) or in English (Q1. Explore/research?
yes ... Decision: delegate to @eye), full (Q0–Q4) or in the lighter Q1–Q4 form. Unfilled
template slots (`[是/否]`, `__ 行`, `___`) are not answers.

The matcher reads what the transcript reader (protocol/turn_facts.py) attached to
the main agent's first tool call of a task turn: the checkpoint written before it, if any;
and, later in the turn, the spawn count and the cumulative edit size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit
from wukong_lint.model.events import EDIT_TOOLS
from wukong_lint.protocol.checkpoint_forms import keyed_questions


class Checkpoint(NamedTuple):
    """A parsed CHECKPOINT: each question's answer (None: not answered), the decision."""

    skill: bool | None  # Q0 (optional in the lighter form)
    explore: bool | None  # Q1
    code: bool | None  # Q2: code change
    lines: int | None  # Q2: estimated lines
    design: bool | None  # Q3
    files: int | None  # Q4: independent files
    decision: str | None  # "self" | "delegate" | None (absent or ambiguous)
    avatars: tuple[str, ...]  # avatars the decision names (canonical: eye, ear, ...)

    def missing(self) -> tuple[str, ...]:
        """The questions of the Q1–Q4 form left unanswered."""
        gaps = []
        if self.explore is None:
            gaps.append("Q1")
        if self.code is None and self.lines is None:
            gaps.append("Q2")
        if self.design is None:
            gaps.append("Q3")
        if self.files is None:
            gaps.append("Q4")
        return tuple(gaps)


# A question line: "Q1.", "Q1:", "**Q1**", "Q1)", "- Q1 ..." (Q0.5 is the scheduler step).
# (each quantifier is followed by a character it cannot match: linear on hostile lines)
_QUESTION = re.compile(r"(?im)^[ \t>*\-|#]*Q([0-4])(?!\.\d)\**[ \t]*[.:：)、]?[ \t]*(.*)$")
_MARKER = re.compile(r"(?i)checkpoint|检查点|自检")
# (any symbols before the label: "⚡ 决策:", "👉 **决策**：", "→ **Decision:**"; not letters)
_DECISION = re.compile(r"(?im)^[^\w\n]{0,16}(?:决策|decision|决定)[ \t*]*[:：][ \t]*(.+)$")
# failing that, a table row ("| **决策** | 召唤 @眼 |"; after the colon form, so a table of
# past decisions, "| 决策 | 日期 | 原因 |", does not shadow the CHECKPOINT's) or a heading with
# the decision on the next line
_DECISION_ROW = re.compile(
    r"(?im)^[^\w\n]{0,16}(?:决策|decision|决定)[ \t*]*[|][ \t]*(.+)$"
    r"|^[ \t]*#{1,6}[ \t]*[^\w\n]{0,4}(?:决策|decision|决定)[ \t*]*\n(?:[ \t]*\n)?[ \t]*(\w.*)$"
)
# Python's `re` tries a case-insensitive alternation at every position of a text; the leading
# lookaheads below name the characters a match can start with (under (?i), so every case form:
# İ and ı for i, ſ for s, checked by tests/test_protocol_regexes.py), which fails fast
# elsewhere and finds the same matches.
# yes or no, whichever comes first ("不需要" is a no, though it holds "需要")
_YES_NO = re.compile(
    r"(?i)(?=[nfyt否❌不无是✅需有])"
    r"(?:(?P<no>(?<![a-z])(?:no|n|false|none)(?![a-z])|否|❌|不需要|无)|"
    r"(?P<yes>(?<![a-z])(?:yes|y|true)(?![a-z])|是|✅|需要|有))"
)
_TEMPLATE = re.compile(r"\[\s*(?:是\s*/\s*否|yes\s*/\s*no|y\s*/\s*n)\s*\]|是/否|yes/no", re.I)
_NUMBER = re.compile(r"(?<![\w.])(\d{1,6})(?![\w.])")
_LINES = re.compile(
    r"(?i)(?=[约~≈a\d])(?:约|~|≈|about|approx\.?\s*)?(\d{1,6})\s*(?:\+\s*)?(?:行|lines?|loc)"
)
_SELF = re.compile(
    r"(?i)(?=[本smbd自直])(?:本体执行|本体直接|本体处理|本体完成|\bself\b|\bmyself\b|main agent|"
    r"\bbody executes\b|\bdo it (?:myself|directly)\b|\bdirectly\b|自己执行|直接执行)"
)
_DELEGATE = re.compile(r"(?i)委派|召唤|分身|delegat|summon|spawn|dispatch|@\S")
# Avatar names in a decision, to their role.
_AVATARS = (
    ("eye", re.compile(r"(?i)(?=[眼e])(?:眼|\beye\b|explorer)")),
    ("ear", re.compile(r"(?i)(?=[耳ea])(?:耳|\bear\b|analyst)")),
    ("nose", re.compile(r"(?i)(?=[鼻nr])(?:鼻|\bnose\b|reviewer)")),
    ("tongue", re.compile(r"(?i)(?=[舌t])(?:舌|tongue|tester)")),
    ("body", re.compile(r"(?i)(?=[身斗bi])(?:身|斗战胜佛|\bbody\b|implementer|\bimpl\b)")),
    ("mind", re.compile(r"(?i)(?=[意ma])(?:意|\bmind\b|architect)")),
)
_BLANK = re.compile(r"_{2,}|\?\?|…|\.\.\.")


# wording before a colon, holding no answer: "(Code >10 lines)", "代码 >10行", "code change"
_WORDING = re.compile(r"[ \t]*[(\[（A-Za-z\u4e00-\u9fff*]")


def _answer(rest: str) -> str:
    """What follows a question's own wording: after its ？/?, else after the colon that ends
    it ("Q2 (Code >10 lines): No, ~3 lines": the 10 is the question's), or the whole rest."""
    for mark in ("？", "?"):
        if mark in rest:
            return rest.split(mark, 1)[1]
    for mark in (":", "："):
        head, found, tail = rest.partition(mark)
        if found and _WORDING.match(head) and not _YES_NO.search(head):
            return tail
    return rest


def _answer_part(text: str) -> str:
    """The answer of "是 → 是则 @眼" (the template's hint follows the answer) or of
    "? → No" (the answer follows the arrow when nothing comes before it)."""
    parts = text.replace("->", "→").split("→")
    if len(parts) > 1 and not parts[0].strip():
        return parts[1]
    return parts[0]


def _yes_no(text: str) -> bool | None:
    text = _answer_part(text)
    if "/" in text:
        text = _TEMPLATE.sub(" ", text)
    found = _YES_NO.search(text)  # "是 (不需要 ...)": the first word answers
    return None if found is None else found.lastgroup == "yes"


def parse_checkpoint(text: str) -> Checkpoint | None:
    """The CHECKPOINT in `text` (None: none written: no marker and fewer than two questions)."""
    text = keyed_questions(text)  # (`explore: yes`, a JSON record: as `Q1: yes` lines)
    questions: dict[int, str] = {}
    for match in _QUESTION.finditer(text):
        number = int(match.group(1))
        if number not in questions:
            questions[number] = _answer(match.group(2))
    if len(questions) < 2 and not _MARKER.search(text):
        return None
    skill = _yes_no(questions[0]) if 0 in questions else None
    explore = _yes_no(questions[1]) if 1 in questions else None
    design = _yes_no(questions[3]) if 3 in questions else None
    code = lines = None
    if 2 in questions:
        q2 = _answer_part(questions[2])
        found = _LINES.search(q2)
        lines = int(found.group(1)) if found else None
        code = _yes_no(q2)
        if code is False and lines is None:
            lines = 0
        if code is None and lines is not None:
            code = lines > 0
    files = None
    if 4 in questions:
        q4 = _answer_part(questions[4])
        found = _NUMBER.search(q4)
        if found:
            files = int(found.group(1))
        elif _yes_no(q4) is False:
            files = 0
    decision, avatars = _decision(text)
    return Checkpoint(skill, explore, code, lines, design, files, decision, avatars)


def _decision(text: str) -> tuple[str | None, tuple[str, ...]]:
    match = _DECISION.search(text) or _DECISION_ROW.search(text)
    if match is None:
        return None, ()
    value = match.group(1) or match.group(2)
    # (every template form holds a "/")
    blank = _BLANK.search(value) is not None
    if ("/" in value and _TEMPLATE.search(value)) or (blank and not _DELEGATE.search(value)):
        return None, ()
    # the template's "[本体执行 / 召唤分身: ___]" offers both: no decision
    # "body executes it": the body (本体), not 身 the avatar
    rest, selves = _SELF.subn(" ", value)
    is_self = selves > 0
    delegates = bool(_DELEGATE.search(rest))
    if is_self and delegates and "/" in value and blank:
        return None, ()
    # "本体执行 Q4, 其余委派 @身": a decision that delegates is a delegation
    avatars = tuple(name for name, pattern in _AVATARS if pattern.search(rest))
    if delegates:
        return "delegate", avatars
    # "execute directly (body)": the English word for 本体 is also 身's subagent type, so an
    # avatar's bare name delegates only when no self phrase says otherwise ("Decision: @eye"
    # has its @, "Decision: eye" no self phrase)
    if is_self:
        return "self", ()
    if avatars:
        return "delegate", avatars
    return None, ()


# -- the matcher -----------------------------------------------------------------------------


def _hit(unit: Unit, note: str) -> Hit:
    """A finding on the unit's first line (the call), with `note` saying what was wrong."""
    end = unit.text.find("\n")
    return Hit(0, end if end >= 0 else len(unit.text), 0, 0, note)


def _facts(unit: Unit) -> dict[str, Any] | None:
    event = getattr(unit, "event", None)
    return getattr(event, "protocol", None) if event is not None else None


def match_checkpoint(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    facts = _facts(unit)
    if not facts:
        return
    check = (rule.params or {})["check"]
    point: Checkpoint | None = facts.get("checkpoint")
    if check == "declared-edits":
        edit = facts.get("edit")
        if edit is None or point is None or point.decision != "self":
            return
        before, size = edit
        declared = point.lines or 0
        allowed = max(declared * rule.params["factor"], declared + rule.params["slack"])
        if before <= allowed < before + size:
            yield _hit(unit, f"declared {declared} lines, {before + size} changed this turn")
        return
    if check == "parallel":
        spawns = facts.get("spawns_in_turn")
        if point is None or point.files is None or point.files < rule.params["min_files"]:
            return
        if spawns == 1 and facts.get("first_spawn"):
            yield _hit(unit, f"Q4 = {point.files} independent files, one avatar spawned")
        elif facts.get("first") and point.decision == "self":
            yield _hit(unit, f"Q4 = {point.files} independent files, 本体执行")
        return
    if not facts.get("first"):
        return
    if check == "missing":
        if point is None:
            yield _hit(unit, "no CHECKPOINT before the first tool call of the task")
        return
    if point is None:
        return
    if check == "incomplete":
        gaps = point.missing()
        if gaps or point.decision is None:
            what = ", ".join(gaps) + (" unanswered" if gaps else "")
            if point.decision is None:
                what = (what + "; " if what else "") + "no explicit decision"
            yield _hit(unit, what)
        return
    if point.decision != "self":
        return
    if check == "explore" and point.explore:
        yield _hit(
            unit, "Q1 = yes (exploration) but 本体执行: delegate to @眼 eye, in the background"
        )
    elif (
        check == "code-size" and point.lines is not None and point.lines > rule.params["max_lines"]
    ):
        yield _hit(unit, f"Q2 = {point.lines} lines but 本体执行: delegate to @身 (斗战胜佛)")
    elif check == "design" and point.design:
        yield _hit(unit, "Q3 = yes (design) but 本体执行: delegate to @意 mind")


_KEYS = frozenset({"first", "edit", "first_spawn"})
# the facts a checkpoint rule reads: most calls carry none of them
match_checkpoint.gate = lambda unit: not _KEYS.isdisjoint(_facts(unit) or ())  # type: ignore[attr-defined]
match_checkpoint.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind == "call"
    and event.is_main
    and event.ctx.profile == "wukong"
    # the cumulative edit size it reads is measured on edits only (transcripts/protocol.py)
    and (rule.params["check"] != "declared-edits" or event.tool in EDIT_TOOLS)
)


def _memo_key(unit: Unit) -> tuple[Any, ...] | None:
    """Everything the checkpoint rules' hits on a call depend on besides its event signature
    and their own params: the facts `match_checkpoint` reads and where the call's first line
    ends (`_hit`). Seven rules ask of every first call of a task turn; equal facts give equal
    hits, so the group answers once per distinct key (RuleSet._event_plan, `_GroupMemo`)."""
    facts = _facts(unit)
    if not facts:
        return None
    end = unit.text.find("\n")
    get = facts.get
    return (
        end if end >= 0 else len(unit.text),
        get("first"),
        get("checkpoint"),
        get("edit"),
        get("spawns_in_turn"),
        get("first_spawn"),
    )


match_checkpoint.memo_key = _memo_key  # type: ignore[attr-defined]
