"""戒 Layer 1 (body-boundary): reading the CHECKPOINT the main agent writes when a task
arrives.

`parse_checkpoint` reads the self-check from the agent's text, in the seed's Chinese wording
(Q0 Skill 匹配？ 是 ... ⚡ 决策: 本体执行 / 召唤分身 @眼) or in English (Q1. Explore/research?
yes ... Decision: delegate to @eye), full (Q0–Q4) or in the lighter Q1–Q4 form. Unfilled
template slots (`[是/否]`, `__ 行`, `___`) are not answers.

Which questions and decision a CHECKPOINT needs depends on its form and the protocol
version (protocol/versions.py): the parse reports what the form shows (`features`), the
verdicts are protocol/decisions.py's.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from wukong_lint.protocol.checkpoint_forms import keyed_questions


class Checkpoint(NamedTuple):
    """A parsed CHECKPOINT: each question's answer (None: not answered), the decision, and
    what its form shows (for the version's forms and detection: `features`)."""

    skill: bool | None  # Q0 (optional in the lighter form)
    explore: bool | None  # Q1
    code: bool | None  # Q2: code change
    lines: int | None  # Q2: estimated lines
    design: bool | None  # Q3
    files: int | None  # Q4: independent files
    decision: str | None  # "self" | "delegate" | "skill" | None (absent or ambiguous)
    avatars: tuple[str, ...]  # avatars the decision names (canonical: eye, ear, ...)
    parallel: bool | None = None  # Q4 answered yes / no (the core rule's 多文件并行？)
    q0: bool = False  # a Q0 line is there
    estimate: bool = False  # Q2 gives a line estimate (or its template slot)
    count: bool = False  # Q4 gives a number of files (or its template slot)
    decision_line: bool = False  # a decision line is there (filled in or not)
    # the Q0.5 Scheduler block: "filled", "skipped", "unfilled" (None: none)
    scheduler: str | None = None
    asked: int = 0  # question lines read (0: a marker only, a form the parser cannot read)
    head: str = ""  # with no question read: the marker's line, to name what was seen

    def missing(self) -> tuple[str, ...]:
        """The questions of the Q1–Q4 form left unanswered."""
        gaps = []
        if self.explore is None:
            gaps.append("Q1")
        if self.code is None and self.lines is None:
            gaps.append("Q2")
        if self.design is None:
            gaps.append("Q3")
        if self.files is None and self.parallel is None:
            gaps.append("Q4")
        return tuple(gaps)

    def features(self) -> dict[str, bool]:
        """What the form shows, as the versions' `forms` and `detection` name it."""
        return {
            "q0": self.q0,
            "estimate": self.estimate,
            "count": self.count,
            "decision": self.decision_line,
            "scheduler": self.scheduler is not None,
        }


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
# a line estimate asked for (预估 __ 行, estimate, ~N lines) and a file count (__ 个, N files)
_ESTIMATE = re.compile(r"(?i)预估|估计|estimat|_+\s*(?:行|lines?)|\bloc\b")
_COUNT = re.compile(r"(?i)个|_+|\bfiles?\b")
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
    estimate = count = False
    if 2 in questions:
        q2 = _answer_part(questions[2])
        found = _LINES.search(q2)
        lines = int(found.group(1)) if found else None
        estimate = found is not None or _ESTIMATE.search(q2) is not None
        code = _yes_no(q2)
        if code is False and lines is None:
            lines = 0
        if code is None and lines is not None:
            code = lines > 0
    files = parallel = None
    if 4 in questions:
        q4 = _answer_part(questions[4])
        found = _NUMBER.search(q4)
        count = found is not None or _COUNT.search(q4) is not None
        parallel = _yes_no(q4)
        if found:
            files = int(found.group(1))
        elif parallel is False:
            files = 0
    decision, avatars, line = _decision(text)
    head = ""
    if not questions:
        marker = _MARKER.search(text)
        if marker is not None:
            start = text.rfind("\n", 0, marker.start()) + 1
            end = text.find("\n", marker.end())
            head = text[start : end if end >= 0 else len(text)].strip()[:80]
    return Checkpoint(skill, explore, code, lines, design, files, decision, avatars, parallel,
                      0 in questions, estimate, count, line, _scheduler(text),
                      len(questions), head)  # fmt: skip


# the Q0.5 [MUST] Scheduler block of 2026-01-17..01-24: its track / confidence / phases
_Q05 = re.compile(r"(?im)^[ \t>*\-|#]*Q0\.5\b(.*)$")
_FILLED = re.compile(r"(?<![\w])([A-Za-z_]{2,20})[ \t*]*[:：][ \t]*([^|\n]*)")
_SKIPPED = re.compile(r"(?i)跳过|\bskip(?:ped)?\b")


def _scheduler(text: str) -> str | None:
    """The Q0.5 block: "skipped", or the names of its filled-in fields, comma-joined ("" for
    none; the version says which it needs). With several blocks (a first "运行中…" line,
    then the form filled in once the analysis has run) the fullest counts. None: no block."""
    best: str | None = None
    for found in _Q05.finditer(text):
        if _SKIPPED.search(found.group(1)):
            return "skipped"
        # the block runs from its line to the next question
        rest = text[found.end() :]
        stop = _QUESTION.search(rest)
        block = rest[: stop.start()] if stop else rest[:2000]
        filled = sorted(
            {m.group(1).lower() for m in _FILLED.finditer(block)
             if m.group(2).strip() and not _BLANK.fullmatch(m.group(2).strip())
             and not set(m.group(2).strip()) <= set("_- ")}
        )  # fmt: skip
        joined = ",".join(filled)
        if best is None or len(filled) > len(best.split(",") if best else []):
            best = joined
    return best


def _decision(text: str) -> tuple[str | None, tuple[str, ...], bool]:
    """(the decision, the avatars it names, whether a decision line is there at all)."""
    match = _DECISION.search(text) or _DECISION_ROW.search(text)
    if match is None:
        return None, (), False
    value = match.group(1) or match.group(2)
    # (every template form holds a "/")
    blank = _BLANK.search(value) is not None
    if ("/" in value and _TEMPLATE.search(value)) or (blank and not _DELEGATE.search(value)):
        return None, (), True
    # the template's "[本体执行 / 召唤分身: ___]" offers both: no decision
    # "body executes it": the body (本体), not 身 the avatar
    rest, selves = _SELF.subn(" ", value)
    is_self = selves > 0
    delegates = bool(_DELEGATE.search(rest))
    if is_self and delegates and "/" in value and blank:
        return None, (), True
    # "本体执行 Q4, 其余委派 @身": a decision that delegates is a delegation
    avatars = tuple(name for name, pattern in _AVATARS if pattern.search(rest))
    if delegates:
        return "delegate", avatars, True
    # "execute directly (body)": the English word for 本体 is also 身's subagent type, so an
    # avatar's bare name delegates only when no self phrase says otherwise ("Decision: @eye"
    # has its @, "Decision: eye" no self phrase)
    if is_self:
        return "self", (), True
    if avatars:
        return "delegate", avatars, True
    # Q0 = 是: "调用 Skill: changelog" hands the task to the Skill tool (the versions' words)
    skill = _skill_words()
    if skill is not None and skill.search(value):
        return "skill", (), True
    return None, (), True


_SKILL: list[Any] = []


def _skill_words() -> Any:
    """The decision words that hand a task to the Skill tool, in any known version."""
    if not _SKILL:
        from wukong_lint.protocol.versions import versions

        words = [p for v in versions().values() for p in v.data["checkpoint"]["decisions"]["skill"]]
        _SKILL.append(re.compile("|".join(f"(?:{w})" for w in words), re.I) if words else None)
    return _SKILL[0]
