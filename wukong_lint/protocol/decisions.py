"""戒 Layers 1 and 2 (body-boundary, rule kind `checkpoint`): whether the main agent wrote its
CHECKPOINT before acting, whether it is complete, and whether what the body did follows from
its answers, as the session's protocol version says.

The version's CHECKPOINT forms (rules/protocol/*.yaml, `checkpoint.forms`) say whether a
decision must be written (the seeds' `⚡ 决策: 本体执行 / 召唤分身 @眼`) or is implied by the
answers (the current core rule: 任一为"是" → 立即召唤分身). A written decision is judged on
the first call of the turn; an implied one by what follows: a turn whose answers call for an
avatar and that ends with the body's own work and no summons is reported at its first call,
when the turn is over (the reader hands that on as a `turn` event).

The facts come from the transcript reader (protocol/turn_facts.py) or, in the live hook, from
hook/checkpoint.py: `first` and `checkpoint` on the first call of a task turn, `edit` on
edits, `spawns_in_turn` on a summons' result, `turn_end` on the turn's end. A CHECKPOINT the
parser cannot read (a marker, no question) is one low `unrecognised-checkpoint` note, not an
incomplete one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit
from wukong_lint.model.events import EDIT_TOOLS
from wukong_lint.protocol.checkpoint import Checkpoint
from wukong_lint.protocol.detect import judged_version


def _hit(unit: Unit, note: str) -> Hit:
    """A finding on the unit's first line (the call), with `note` saying what was wrong."""
    end = unit.text.find("\n")
    return Hit(0, end if end >= 0 else len(unit.text), 0, 0, note)


def _facts(unit: Unit) -> dict[str, Any] | None:
    event = getattr(unit, "event", None)
    return getattr(event, "protocol", None) if event is not None else None


def implied(point: Checkpoint, version: Any) -> tuple[str | None, bool]:
    """(the decision the body is held to, whether the version's form implies it rather than
    the CHECKPOINT writing it): with an implied decision, any yes summons (Q1 @眼, Q2 @身,
    Q3 @意; Q4 several at once), all no leaves the work to the body."""
    if point.decision is not None:
        return point.decision, False
    form = version.form(point.features())
    if form is None or form["decision"] != "implied" or point.missing():
        return None, False
    yes = point.explore or point.code or point.design or point.parallel
    return ("delegate" if yes else "self"), True


def _incomplete(point: Checkpoint, version: Any) -> str:
    gaps = point.missing()
    decision, _ = implied(point, version)
    if point.skill is True and decision == "skill":
        return ""  # Q0 = 是: the Skill tool takes the task, the other answers do not matter
    what = ", ".join(gaps) + (" unanswered" if gaps else "")
    if decision is None:
        what = (what + "; " if what else "") + "no explicit decision"
    scheduler = version.scheduler
    if scheduler is not None and point.scheduler not in (None, "skipped"):
        filled = point.scheduler.split(",") if point.scheduler else []
        left = [name for name in scheduler["fill"] if name not in filled]
        if left:
            note = "Q0.5 Scheduler analysis without " + ", ".join(left)
            what = (what + "; " if what else "") + note
    return what


_ASKS = {"explore": ("explore", "Q1 = yes (exploration)", "eye"),
         "code-size": ("code", "Q2 = yes (code over 10 lines)", "body"),
         "design": ("design", "Q3 = yes (design)", "mind")}  # fmt: skip
_TO = {"eye": "@眼 eye, in the background", "body": "@身 (斗战胜佛)", "mind": "@意 mind"}


def _turn_end(check: str, facts: dict[str, Any], point: Checkpoint | None, unit: Unit,
              rule: CompiledRule) -> Iterator[Hit]:  # fmt: skip
    """Verdicts on a task turn once it is over (an implied decision, the review rule)."""
    version = judged_version(unit.event.ctx, point)  # type: ignore[attr-defined]
    if check == "review":
        if version.review_words is None:
            return
        if version.review_avatar in {version.role_of(t) for t in facts.get("types", ())}:
            return
        reviewer = f"@{_zh(version)} ({version.review_avatar})"
        if facts.get("review_at"):  # a summons gave the review to another avatar
            yield _hit(unit, f"a code review given to another avatar: reviews go to {reviewer}")
            return
        task = facts.get("task") or ""
        if task and version.review_words.search(task):
            yield _hit(unit, f"a code review done by the body: summon {reviewer} for it")
        return
    if point is None or check not in _ASKS or facts.get("spawns"):
        return
    decision, by_form = implied(point, version)
    answer, said, avatar = _ASKS[check]
    if not by_form or decision != "delegate" or not getattr(point, answer):
        return
    small = point.lines is not None and point.lines <= rule.params["max_lines"]
    if check == "code-size" and small and point.estimate:
        return  # an estimate within the limit: the body may do it
    yield _hit(unit, f"{said}, so 任一为是 → 召唤, but the body did the work itself and "
                     f"summoned no avatar: delegate to {_TO[avatar]}")  # fmt: skip


def _zh(version: Any) -> str:
    avatar = version.avatars.get(version.review_avatar or "")
    return avatar.zh if avatar is not None else ""


def match_checkpoint(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    facts = _facts(unit)
    if not facts:
        return
    check = (rule.params or {})["check"]
    point: Checkpoint | None = facts.get("checkpoint")
    if facts.get("turn_end"):
        yield from _turn_end(check, facts, point, unit, rule)
        return
    if check == "review":
        return  # (judged when the turn is over)
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
        if point is None:
            return
        wide = (point.files is not None and point.files >= rule.params["min_files"]) or (
            point.parallel is True
        )
        if not wide:
            return
        asked = point.files if point.files is not None and point.files > 1 else "yes"
        if spawns == 1 and facts.get("first_spawn"):
            yield _hit(unit, f"Q4 = {asked} (independent files), one avatar spawned")
        elif facts.get("first") and point.decision == "self":
            yield _hit(unit, f"Q4 = {asked} (independent files), 本体执行")
        return
    if not facts.get("first"):
        return
    if check == "missing":
        if point is None:
            yield _hit(unit, "no CHECKPOINT before the first tool call of the task")
        return
    if point is None:
        return
    if point.asked == 0 and not point.decision_line:
        if check == "unrecognised":  # a marker the parser cannot read any question under
            yield _hit(unit, f"a CHECKPOINT in a form this tool cannot read: {point.head!r}")
        return
    if check == "incomplete":
        what = _incomplete(point, judged_version(unit.event.ctx, point))  # type: ignore[attr-defined]
        if what:
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


_KEYS = frozenset({"first", "edit", "first_spawn", "turn_end"})
# the facts a checkpoint rule reads: most calls carry none of them
match_checkpoint.gate = lambda unit: not _KEYS.isdisjoint(_facts(unit) or ())  # type: ignore[attr-defined]
match_checkpoint.accepts = lambda rule, event: (  # type: ignore[attr-defined]
    event.kind in ("call", "turn")
    and event.is_main
    and event.ctx.profile == "wukong"
    # the cumulative edit size it reads is measured on edits only (transcripts/protocol.py)
    and (rule.params["check"] != "declared-edits" or event.tool in EDIT_TOOLS)
    and (rule.params["check"] != "review" or event.kind == "turn")
)


def _memo_key(unit: Unit) -> tuple[Any, ...] | None:
    """Everything the checkpoint rules' hits on a call depend on besides its event signature
    and their own params: the facts `match_checkpoint` reads, where the call's first line
    ends (`_hit`) and the session's protocol version. Several rules ask of every first call
    of a task turn; equal facts give equal hits, so the group answers once per distinct key
    (RuleSet._event_plan, `_GroupMemo`). Turn ends read more: not memoized."""
    facts = _facts(unit)
    if not facts or "turn_end" in facts:
        return None
    end = unit.text.find("\n")
    get = facts.get
    ctx = unit.event.ctx  # type: ignore[attr-defined]
    return (
        end if end >= 0 else len(unit.text),
        get("first"),
        get("checkpoint"),
        get("edit"),
        get("spawns_in_turn"),
        get("first_spawn"),
        ctx.version,
        ctx.version_strength,
    )


match_checkpoint.memo_key = _memo_key  # type: ignore[attr-defined]
