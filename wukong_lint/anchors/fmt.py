"""The canonical layout of an anchors file (`anchors fmt`).

`fmt` is lossless: outside the regenerated index block it only reorders anchors, rewrites
the syntax of headings, field labels, status and date lines (same words), and normalises
blank lines. Code fences, HTML comments and USER_BLOCKs are copied byte for byte.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from wukong_lint.anchors.parse import (
    BOLD_FIELD,
    BULLET_FIELD,
    HR,
    TYPE_NAMES,
    TYPE_ORDER,
    Anchor,
    Block,
    Doc,
    Section,
    anchor_title,
    heading,
    label_key,
    parse,
)
from wukong_lint.anchors.render import (
    canonical_label,
    hand_edited,
    index_block_lines,
    is_chinese,
    marker_problems,
    normalize_date,
    normalize_status,
)

# ---------------------------------------------------------------- fmt


@dataclass
class FmtResult:
    text: str
    refused: str | None = None  # why the file was left alone

    @property
    def ok(self) -> bool:
        return self.refused is None


def _content(line: str) -> tuple[str, str]:
    """A line without its ending, and the ending."""
    if line.endswith("\r\n"):
        return line[:-2], "\r\n"
    if line.endswith("\n"):
        return line[:-1], "\n"
    return line, ""


# The output of fmt is a list of items: a line (kept as it is), BLANK (a blank line that is
# ours to collapse and trim), or a 1-tuple holding a protected blank line (a blank line of a
# code fence, comment or user block: kept byte for byte).
BLANK = None
Item = str | tuple[str] | None


def _protected(line: str) -> Item:
    return line if line.strip() else (line,)


def _fix_line(line: str, in_anchor: bool, nl: str) -> str:
    """The canonical spelling of one text line (same words): headings everywhere; field
    labels, status and date values inside anchors."""
    if line[:1] != "#" and (
        not in_anchor
        or (
            "**" not in line
            and not (line.lstrip(" \t")[:1] in ("-", "*", "+") and (":" in line or "：" in line))
        )
    ):
        return line
    raw, end = _content(line)
    end = end or nl
    if raw.startswith("#"):
        head = heading(raw)
        if head is not None:
            text = head[1]
            if label_key(text) is not None:
                text = canonical_label(text)
            return f"{'#' * head[0]} {text}{end}"
        return line
    if not in_anchor:
        return line
    m = BOLD_FIELD.match(raw)
    if m and (m.group(3) or m.group(4)):
        key = label_key(m.group(2))
        if key is None:
            return line
        value = m.group(5).strip()
        if key == "status":
            value = normalize_status(value)
        elif key == "date":
            value = normalize_date(value)
        label = canonical_label(m.group(2))
        return f"{m.group(1)}**{label}**:{' ' + value if value else ''}{end}"
    m = BULLET_FIELD.match(raw)
    key = label_key(m.group(2)) if m else None
    if m and key is not None:
        value = m.group(3).strip()
        if key == "status":  # list-style metadata (`- Status: active`) as the bold form
            value = normalize_status(value)
        elif key == "date":
            value = normalize_date(value)
        label = canonical_label(m.group(2))
        return f"{m.group(1)}{label}:{' ' + value if value else ''}{end}"
    return line


class _Fixer:
    """`_fix_line` memoized for one document (a file repeats its labels and statuses)."""

    def __init__(self, nl: str) -> None:
        self.nl = nl
        self.inside: dict[str, tuple[Item, bool]] = {}
        self.outside: dict[str, Item] = {}

    def anchor_line(self, line: str) -> tuple[Item, bool]:
        """The item for a text line of an anchor body, and whether it is a heading."""
        hit = self.inside.get(line)
        if hit is None:
            fixed = _fix_line(line, True, self.nl)
            is_heading = fixed[:1] == "#" and heading(_content(fixed)[0]) is not None
            hit = self.inside[line] = (fixed if fixed.strip() else BLANK, is_heading)
        return hit

    def text_line(self, line: str) -> Item:
        if line[:1] != "#":
            return line if line.strip() else BLANK
        hit = self.outside.get(line)
        if hit is None:
            hit = self.outside[line] = _fix_line(line, False, self.nl)
        return hit


def _body_end(doc: Doc, a: Anchor) -> tuple[int, bool]:
    """The end of an anchor without its trailing blank lines and rules, and whether it had
    a rule there."""
    role, lines = doc.role, doc.lines
    last = a.last
    had_rule = False
    while last > a.first + 1 and role[last - 1] == "text":
        raw = lines[last - 1]
        if not raw.strip():
            last -= 1
        elif HR.match(raw.rstrip("\n")):
            had_rule = True
            last -= 1
        else:
            break
    return last, had_rule


def _anchor_lines(doc: Doc, a: Anchor, fixer: _Fixer) -> tuple[list[Item], bool]:
    """The canonical lines of one anchor and whether its body ended with a horizontal rule
    (the file's separator between anchors)."""
    nl = doc.newline
    role, lines = doc.role, doc.lines
    last, had_rule = _body_end(doc, a)
    head_raw, end = _content(lines[a.first])
    # the heading's own text after the ID (separators included), so a re-parse is stable
    at = head_raw.index(f"[{a.id}]")
    after = head_raw[at + len(a.id) + 2 :]
    if after.startswith("**") and f"**[{a.id}]" in head_raw:
        after = after[2:]
    after = after.strip(" \t")
    title = f" {after}" if after else ""
    full = a.form == "full"
    out: list[Item]
    if full and head_raw[a.level : at].strip(" \t*"):  # `## 约束 [C001]`: kept as written
        out = [f"{'#' * a.level} {doc.heads[a.first][1]}{end or nl}"]
        if a.first + 1 < last:
            out.append(BLANK)
    elif full:
        out = [f"{'#' * a.level} [{a.id}]{title}{end or nl}"]
        if a.first + 1 < last:
            out.append(BLANK)
    else:
        lead = head_raw[: len(head_raw) - len(head_raw.lstrip())]
        out = [f"{lead}[{a.id}]{title}{end or nl}"]
    append = out.append
    known = fixer.inside
    for i in range(a.first + 1, last):
        line = lines[i]
        if role[i] != "text":
            append(line if line.strip() else (line,))
            continue
        first = line[:1]
        if first != "#" and "**" not in line and first not in ("-", "*", "+", " ", "\t"):
            append(line if line.strip() else BLANK)  # plain text: nothing to normalise
            continue
        fixed, is_heading = known.get(line) or fixer.anchor_line(line)
        if full and is_heading:
            out += (BLANK, fixed, BLANK)
        else:
            append(fixed)
    return out, had_rule


def _runs(doc: Doc) -> list[list[Anchor]]:
    """Anchors of one heading level (or all compact) that follow each other with nothing but
    blank lines and rules between them: the groups fmt sorts."""
    runs: list[list[Anchor]] = []
    lines, role = doc.lines, doc.role
    for a in doc.anchors:
        if runs:
            prev = runs[-1][-1]
            if prev.level == a.level and all(
                role[i] == "text" and (not lines[i].strip() or HR.match(lines[i].rstrip("\n")))
                for i in range(prev.last, a.first)
            ):
                runs[-1].append(a)
                continue
        runs.append([a])
    return runs


def _gap_rule(doc: Doc, run: list[Anchor]) -> bool:
    """Whether a horizontal rule separates two anchors of the run."""
    lines = doc.lines
    return any(
        HR.match(lines[g].rstrip("\n"))
        for x, y in itertools.pairwise(run)
        for g in range(x.last, y.first)
    )


def _render_run(
    doc: Doc,
    members: list[Anchor],
    rule: bool,
    fixer: _Fixer,
    heading_line: str | None = None,
    trailing: bool = False,
) -> list[Item]:
    """Anchors sorted by type and number, a blank line (and a rule, when the file separates
    its anchors with rules) between them; after a new section heading when given one; a
    rule after the last when the run ended with one (`trailing`)."""
    rendered = [_anchor_lines(doc, a, fixer) for a in members]
    use_rule = rule or any(had_rule for _, had_rule in rendered)
    order = sorted(range(len(members)), key=lambda k: (members[k].sort_key(), k))
    items: list[Item] = [BLANK]
    if heading_line is not None:
        items += (heading_line, BLANK)
    for pos, k in enumerate(order):
        if pos:
            items.append(BLANK)
            if use_rule:
                items += ("---" + doc.newline, BLANK)
        items += rendered[k][0]
    items.append(BLANK)
    if trailing:
        items += ("---" + doc.newline, BLANK)
    return items


SECTION_HEADINGS = {
    kind: (f"{zh} ({en}s)", f"{en}s") for kind, (en, zh) in TYPE_NAMES.items()
}  # "决策 (Decisions)" / "Decisions": what fmt writes when it creates a section


@dataclass
class _Group:
    """Misfiled anchors fmt puts together at one line of the file."""

    order: tuple[int, int]  # where among the groups of that line (type order, level)
    anchors: list[Anchor]
    heading: str | None = None  # the heading of a section fmt creates
    rule: bool = False


@dataclass
class _Moves:
    leaving: set[int]  # first lines of the anchors that move
    joins: dict[int, list[Anchor]]  # first line of a run -> anchors that join the run
    groups: dict[int, list[_Group]]  # line -> groups inserted before that line


def _content_end(doc: Doc, section: Section, run_of: dict[int, list[Anchor]]) -> int:
    """The line after the last text of a section (before its trailing blank lines, rules,
    comments and blocks), never inside a run of anchors."""
    lines, role = doc.lines, doc.role
    p = section.end
    while p > section.line + 1 and (
        role[p - 1] in ("comment", "block")
        or (
            role[p - 1] == "text"
            and (not lines[p - 1].strip() or HR.match(lines[p - 1].rstrip("\n")))
        )
    ):
        p -= 1  # before the rule that separates the section from the next one, too
    for run in run_of.values():
        if run[0].first < p < run[-1].last:
            return run[-1].last
    return p


def _stops_full_anchor(doc: Doc, level: int, p: int, end: int) -> bool:
    """Whether a full-form anchor of `level` placed at line p ends before what follows it
    ([p, end) holds only blank lines, comments and blocks; the line `end` comes next)."""
    if any(doc.role[j] == "block" for j in range(p, end)) or end >= len(doc.lines):
        return True
    head = doc.heads.get(end)
    return head is not None and head[0] <= level


def _ends_at(doc: Doc, level: int, j: int) -> bool:
    """Whether a full-form anchor of `level` running on to line j would end there (after
    blank lines): a block, a heading of its level or higher, an anchor, or the file's end."""
    lines, role, n = doc.lines, doc.role, len(doc.lines)
    while j < n and role[j] == "text" and not lines[j].strip():
        j += 1
    if j >= n or role[j] == "block":
        return True
    head = doc.heads.get(j)
    if head is not None:
        return head[0] <= level or anchor_title(head[1]) is not None
    return any(a.first == j and a.form == "compact" for a in doc.anchors)


def _plan_moves(doc: Doc, runs: list[list[Anchor]]) -> _Moves:
    """Where each misfiled anchor (an ID whose type differs from its section's) goes: into
    a run of anchors of its level in the first section of its type, at the end of that
    section, or into a new section (canonical heading) placed in type order. An anchor whose
    heading level is above its destination's (it would swallow what follows) stays."""
    moves = _Moves(set(), {}, {})
    misfiled = [a for a in doc.anchors if a.type and a.section and a.type != a.section]
    if not misfiled:
        return moves
    run_of = {run[0].first: run for run in runs}
    first_of: dict[str, Section] = {}
    for section in doc.sections:
        first_of.setdefault(section.type, section)
    chinese = any(re.search(r"[\u4e00-\u9fff]", s.title) for s in doc.sections)
    rules = {run[0].first: _gap_rule(doc, run) for run in runs}
    rule_of = {a.first: rules[run[0].first] for run in runs for a in run}
    created: dict[str, _Group] = {}
    ends = {x.last: x for x in doc.anchors if x.form == "full"}
    for a in misfiled:
        kind = a.type or ""
        before = ends.get(a.first)
        if before is not None and not _ends_at(doc, before.level, a.last):
            continue  # without it, the anchor before would run on into what follows it
        target = first_of.get(kind)
        if target is not None:
            if a.level and a.level < target.level:
                continue
            same = [
                run
                for run in runs
                if target.line < run[0].first < target.end and run[0].level == a.level
            ]
            if same:
                moves.joins.setdefault(same[-1][0].first, []).append(a)
                moves.leaving.add(a.first)
                continue
            p = _content_end(doc, target, run_of)
            if a.level and not _stops_full_anchor(doc, a.level, p, target.end):
                continue
            groups = moves.groups.setdefault(p, [])
            order = (TYPE_ORDER[kind], a.level or 99)
            group = next((g for g in groups if g.order == order and g.heading is None), None)
            if group is None:
                group = _Group(order, [])
                groups.append(group)
            group.anchors.append(a)
            group.rule |= rule_of[a.first]
            moves.leaving.add(a.first)
            continue
        group = created.get(kind)
        if group is None:
            later = [s for s in doc.sections if TYPE_ORDER[s.type] > TYPE_ORDER[kind]]
            if later:
                where, level = later[0].line, later[0].level
            else:
                last = doc.sections[-1]
                where, level = _content_end(doc, last, run_of), last.level
                if not _stops_full_anchor(doc, level, where, last.end) or any(
                    x.form == "full" and x.last == where and x.level < level for x in doc.anchors
                ):
                    continue
            title = SECTION_HEADINGS[kind][0 if chinese else 1]
            group = _Group((TYPE_ORDER[kind], 0), [], f"{'#' * level} {title}{doc.newline}")
            group.rule = False
            created[kind] = group
            moves.groups.setdefault(where, []).append(group)
        level = group.heading.index(" ") if group.heading else 0
        if a.level and a.level < level:
            continue
        group.anchors.append(a)
        group.rule |= rule_of[a.first]
        moves.leaving.add(a.first)
    for line, groups in list(moves.groups.items()):
        groups[:] = [g for g in groups if g.anchors]
        groups.sort(key=lambda g: g.order)
        if not groups:
            del moves.groups[line]
    return moves


def _index_target(doc: Doc, force: bool) -> tuple[Block | None, str | None]:
    """The MACHINE_BLOCK that receives the index (None: create one), or why fmt refuses."""
    machine = [b for b in doc.blocks if b.kind == "MACHINE"]
    ours = [b for b in machine if b.signature is not None]
    if ours:
        target = ours[0]
        if hand_edited(doc, target) and not force:
            return None, (
                f"line {target.first + 1}: the MACHINE_BLOCK index was edited by hand "
                "since it was generated (--force overwrites it)"
            )
        return target, None
    empty = [b for b in machine if not "".join(doc.lines[b.first + 1 : b.last]).strip()]
    if empty:
        return empty[0], None
    if not machine:
        return None, None
    target = machine[0]
    inner = "".join(doc.lines[target.first + 1 : target.last])
    # anchors of either form (a compact `[D001] title` + bullets too) are never overwritten,
    # not even with --force: the block is someone else's data, not an index
    if re.search(r"^\s*#{1,6}\s+\[[A-Za-z]{1,3}-?\d+\]", inner, re.M) or parse(inner).anchors:
        return None, (
            f"line {target.first + 1}: the MACHINE_BLOCK holds anchor definitions; "
            "move them out of the block first"
        )
    if not force:
        return None, (
            f"line {target.first + 1}: the MACHINE_BLOCK was not generated by "
            "wukong-lint anchors fmt (or was edited by hand); --force overwrites it"
        )
    return target, None


def misfiled(doc: Doc) -> list[Anchor]:
    """Anchors under the section of another type (`[D012]` under Constraints)."""
    return [a for a in doc.anchors if a.type and a.section and a.type != a.section]


def fmt_doc(doc: Doc, *, force: bool = False, index: bool = True) -> FmtResult:
    """The canonical text of a parsed document (see the module docs).

    Misfiled anchors move to their type's section. A move is kept only when it leaves fewer
    misfiled anchors (moving an anchor can make the one before it run on into what follows,
    say); with misfiled anchors, fmt repeats until its output is its own fmt, so that fmt of
    fmt is fmt whatever the moves did."""
    result, moved = _format(doc, force=force, index=index, move=True)
    wrong = len(misfiled(doc))
    if not wrong or not result.ok:
        return result
    current = doc
    for _ in range(2 * wrong + 4):
        if moved:
            after = parse(result.text)
            if len(misfiled(after)) >= wrong:  # the moves did not help: format in place
                result, _ = _format(current, force=force, index=index, move=False)
                after = parse(result.text)
        else:
            after = parse(result.text)
        if result.text == current.text:
            return result
        current, wrong = after, len(misfiled(after))
        result, moved = _format(current, force=force, index=index, move=True)
    return result


def _format(doc: Doc, *, force: bool, index: bool, move: bool) -> tuple[FmtResult, bool]:
    """fmt_doc, and whether an anchor moved."""
    text = doc.text
    problems = marker_problems(doc)
    if problems:
        line, _, message = problems[0]
        return FmtResult(text, f"line {line + 1}: {message}; fix the block markers first"), False
    nl = doc.newline
    target: Block | None = None
    if index:
        target, refused = _index_target(doc, force)
        if refused:
            return FmtResult(text, refused), False
    block_lines: list[Item] = []
    if index:
        block_lines = [
            x if x.strip() else BLANK for x in index_block_lines(doc.anchors, is_chinese(doc), nl)
        ]
    fixer = _Fixer(nl)
    lines, role = doc.lines, doc.role
    out: list[Item] = []
    all_runs = _runs(doc)
    moves = _plan_moves(doc, all_runs) if move else _Moves(set(), {}, {})
    runs = {run[0].first: run for run in all_runs}
    blocks = {b.first: b for b in doc.blocks}
    n = len(lines)
    insert_at = None
    if index and target is None:
        insert_at = 0
        for i in range(n):
            if role[i] == "text" and lines[i].strip():
                if lines[i].startswith("# "):
                    insert_at = i + 1
                break
        for a in doc.anchors:  # never inside an anchor (an H1 may itself be one)
            if a.first < insert_at < a.last:
                insert_at = a.first

    def moved_here(i: int) -> list[Item]:
        items: list[Item] = []
        for group in moves.groups.get(i, ()):
            # one run per heading level (compact anchors last): runs never mix levels
            levels = sorted({a.level for a in group.anchors}, key=lambda v: v or 99)
            for pos, level in enumerate(levels):
                members = [a for a in group.anchors if a.level == level]
                heading = group.heading if pos == 0 else None
                items += _render_run(doc, members, group.rule, fixer, heading)
        return items

    i = 0
    while i < n:
        if i == insert_at:
            out += [BLANK, *block_lines, BLANK]
        if i in moves.groups:
            out += moved_here(i)
        run = runs.get(i)
        if run is not None:
            members = [a for a in run if a.first not in moves.leaving]
            members += moves.joins.get(i, [])
            if members:
                trailing = _body_end(doc, run[-1])[1]
                out += _render_run(doc, members, _gap_rule(doc, run), fixer, None, trailing)
            i = run[-1].last
            continue
        block = blocks.get(i)
        if block is not None:
            out.append(BLANK)
            if block is target:
                out += block_lines
            else:
                out += [_protected(lines[j]) for j in range(block.first, block.last + 1)]
            out.append(BLANK)
            i = block.last + 1
            continue
        if role[i] == "text":
            out.append(fixer.text_line(lines[i]))
        else:
            out.append(_protected(lines[i]))
        i += 1
    if insert_at is not None and insert_at >= n:
        out += [BLANK, *block_lines]
    out += moved_here(n)
    return FmtResult(_join(out, nl, not text.endswith("\n"))), bool(moves.leaving)


def _join(out: list[Item], nl: str, missing_ending: bool = False) -> str:
    """The text of fmt's items: runs of BLANK collapse to one blank line, none at the start
    or the end of the file; protected lines are kept as they are."""
    lines: list[str] = []
    append = lines.append
    previous_blank = True  # no blank lines at the start of the file
    trailing = False  # whether the last line is a BLANK of ours
    for item in out:
        if item is None:
            if not previous_blank:
                append(nl)
                previous_blank = trailing = True
        elif item.__class__ is tuple:
            append(item[0])
            previous_blank, trailing = True, False
        else:
            append(item)  # type: ignore[arg-type]
            previous_blank = trailing = False
    if trailing:
        lines.pop()
    if missing_ending:  # the last line of the input had no line ending; every output line has
        lines = [x if x.endswith("\n") else x + nl for x in lines]
    return "".join(lines)


def fmt_text(text: str, *, force: bool = False, index: bool = True) -> FmtResult:
    return fmt_doc(parse(text), force=force, index=index)
