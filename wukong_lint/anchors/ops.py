"""Maintenance of anchors files: format, new anchor, the write flow of candidates, compact
forms and the T1/T2 inertia hints. Pure functions over text; the command line reads and
writes the files."""

from __future__ import annotations

import datetime
import gc
import os
import re
from dataclasses import dataclass, field
from typing import Any

from wukong_lint.anchors.compact import compact_anchor, field_texts
from wukong_lint.anchors.fmt import fmt_doc
from wukong_lint.anchors.parse import (
    FIELD_LABELS,
    FIELDS,
    HR,
    TYPE_NAMES,
    TYPES,
    Anchor,
    Doc,
    parse,
)
from wukong_lint.anchors.render import status_class
from wukong_lint.util.walk import walk

DEFAULT_LOCATIONS = ("anchors.md", os.path.join(".wukong", "context", "anchors.md"))


def default_files(root: str = ".") -> list[str]:
    """The anchors files of a project: anchors.md, .wukong/context/anchors.md, memory-bank/."""
    found = [os.path.join(root, p) for p in DEFAULT_LOCATIONS]
    found = [p for p in found if os.path.isfile(p) and not _linked(root, p)]
    bank = os.path.join(root, "memory-bank")
    if os.path.isdir(bank) and not os.path.islink(bank):
        for base, dirs, files in walk(bank):
            dirs.sort()
            names = [os.path.join(base, f) for f in sorted(files) if f.endswith(".md")]
            found += [p for p in names if not os.path.islink(p)]
    return [os.path.normpath(p) for p in found]


def _linked(root: str, path: str) -> bool:
    """Whether `path` (under `root`) or a folder on the way is a symbolic link: the anchors
    files of a project are never read or written through one (it may lead outside)."""
    rel = os.path.relpath(path, root)
    parts = rel.split(os.sep)
    return any(os.path.islink(os.path.join(root, *parts[: i + 1])) for i in range(len(parts)))


def wants_index(path: str, doc: Doc) -> bool:
    """Files that get an index block: anchors files, and any file that defines anchors."""
    return os.path.basename(path).lower() == "anchors.md" or bool(doc.anchors)


def chinese_text(doc: Doc) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", doc.text))


# ------------------------------------------------------------------ new


def next_id(doc: Doc, prefix: str) -> str:
    numbers = [a.number or 0 for a in doc.anchors if a.prefix.upper() == prefix]
    return f"{prefix}{max(numbers, default=0) + 1:03d}"


def anchor_template(
    anchor_id: str,
    title: str,
    level: int,
    chinese: bool,
    values: dict[str, str] | None = None,
    status: str | None = None,
    date: str | None = None,
) -> str:
    values = values or {}
    today = date or datetime.date.today().isoformat()
    sub = "#" * (level + 1)
    lines = [f"{'#' * level} [{anchor_id}] {title}", "", f"**ID**: {anchor_id}"]
    if chinese:
        lines += [f"**日期**: {today}", f"**状态**: {status or '⚠️ 待验证'}"]
    else:
        lines += [f"**Date**: {today}", f"**Status**: {status or '⚠️ Pending'}"]
    for key in FIELDS:
        en, zh = FIELD_LABELS[key]
        # a blank line after each heading, as `anchors fmt` writes it: a new anchor must pass
        # `anchors fmt --check` (the pre-commit hook) as it is
        value = escape_block(values.get(key, "").strip()) or "TODO"
        lines += ["", f"{sub} {en} ({zh})", "", value]
    return "\n".join(lines) + "\n"


def _insertion(doc: Doc, kind: str) -> tuple[int, int]:
    """(line index to insert before, heading level) for a new anchor of `kind`."""
    section = next((s for s in doc.sections if s.type == kind), None)
    levels = [a.level for a in doc.anchors if a.level]
    level = max(set(levels), key=levels.count) if levels else None
    if level is None:
        level = section.level + 1 if section is not None else 2
    same = [a for a in doc.anchors if a.type == kind]
    if same:
        last = max(same, key=lambda a: a.last)
        return _before_rule(doc, last.last, last.first + 1), level
    if section is not None:
        stop = len(doc.lines)
        for i in range(section.line + 1, len(doc.lines)):
            line = doc.lines[i]
            if doc.role[i] == "block" or (
                doc.role[i] == "text"
                and line.startswith("#")
                and len(line) - len(line.lstrip("#")) <= section.level
                and section_type_of(line) is not None
            ):
                stop = i
                break
        return _before_rule(doc, stop, section.line + 1), level
    return len(doc.lines), level


def _before_rule(doc: Doc, stop: int, floor: int) -> int:
    """`stop` moved back over the section's closing rule (`---`) and the blank lines around
    it, not before `floor`: a new anchor goes inside the section, above its rule."""
    while (
        stop > floor
        and doc.role[stop - 1] == "text"
        and (not doc.lines[stop - 1].strip() or HR.match(doc.lines[stop - 1]))
    ):
        stop -= 1
    return stop


def section_type_of(line: str) -> str | None:
    from wukong_lint.anchors.parse import HEADING, section_type

    m = HEADING.match(line.rstrip("\n"))
    return section_type(m.group(2)) if m else None


def _placeholder_lines(doc: Doc, kind: str) -> set[int]:
    """Placeholder lines such as `*暂无锚点*` in the section of `kind` (dropped when the
    section gets its first anchor)."""
    section = next((s for s in doc.sections if s.type == kind), None)
    if section is None or any(a.type == kind for a in doc.anchors):
        return set()
    found = set()
    for i in range(section.line + 1, len(doc.lines)):
        raw = doc.lines[i].strip()
        if doc.role[i] == "text" and raw.startswith("#"):
            break
        if doc.role[i] == "text" and re.fullmatch(
            r"[*_]\s*(暂无.*|no \w+ yet\.?|none yet\.?)\s*[*_]", raw, re.I
        ):
            found.add(i)
    return found


def insert_anchor(text: str, kind: str, title: str, **kwargs: Any) -> tuple[str, str]:
    """`text` with a new full-form anchor of `kind` appended under its section; its ID."""
    doc = parse(text)
    anchor_id = next_id(doc, kind)
    at, level = _insertion(doc, kind)
    block = anchor_template(anchor_id, title, level, chinese_text(doc) or _cjk(title), **kwargs)
    nl = doc.newline
    block = block.replace("\n", nl)
    drop = _placeholder_lines(doc, kind)
    before = "".join(line for i, line in enumerate(doc.lines[:at]) if i not in drop)
    after = "".join(doc.lines[at:])
    if before and not before.endswith("\n"):
        before += nl
    # one blank line on each side of the new anchor, whatever was there (the lines around
    # it are kept as they are)
    before = before.rstrip("\r\n") + nl if before.strip() else ""
    head = nl if before else ""
    tail = nl if after.strip() and after[:1] not in ("\n", "\r") else ""
    return before + head + block + tail + after, anchor_id


def _cjk(text: str) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", text))


def new_file_text(chinese: bool) -> str:
    if chinese:
        return (
            "# 锚点 (Anchors)\n\n> 本项目的架构决策记录；索引由 `wukong-lint anchors fmt` 生成。\n"
        )
    return (
        "# Anchors\n\n> Architecture decision records; "
        "the index is generated by `wukong-lint anchors fmt`.\n"
    )


# ------------------------------------------------------------------ escaping

# Candidate text comes from an agent's reflection step: a line of it must never open a code
# fence, an HTML comment or a block, nor start a heading or an anchor, or the anchors after it
# in the file would be hidden (inside the fence/comment) or cut short.
_LINE_OPENERS = re.compile(r"^([ \t]*)(`{3,}|~{3,}|#|\[|\*\*\[|-{3,}|\*{3,}|_{3,}|=+[ \t]*$)")


def escape_inline(text: str) -> str:
    """Text that cannot open or close an HTML comment or a block marker wherever it stands."""
    return text.replace("<!--", "&lt;!--").replace("-->", "--&gt;")


def escape_block(text: str) -> str:
    """Multi-line candidate text, each line neutralised (see _LINE_OPENERS): a backslash
    before the opening character, which markdown renders as the character itself."""
    out = []
    for line in escape_inline(text).splitlines():
        m = _LINE_OPENERS.match(line)
        if m:
            line = m.group(1) + "\\" + line[m.end(1) :]
        out.append(line)
    return "\n".join(out)


def escape_title(title: str) -> str:
    return escape_inline(title)


# ------------------------------------------------------------------ add (write flow)


@dataclass
class Outcome:
    action: str  # "added" | "merged" | "conflict" | "skipped"
    title: str
    anchor_id: str = ""
    reason: str = ""


@dataclass
class Candidate:
    type: str
    title: str
    values: dict[str, str] = field(default_factory=dict)
    repeated: int = 0
    high_impact: bool = False
    reusable: bool = False

    def meets_threshold(self) -> bool:
        return self.repeated >= 2 or self.high_impact or self.reusable


# the type words of upstream's 2.0 anchor and candidate stores (anchor_manager.py, on_stop.py)
_STORE_TYPES = {"decision": "D", "constraint": "C", "interface": "I", "problem": "P",
                "lesson": "P", "pattern": "M", "preference": "U", "checklist": "CK",
                "domain": "DN", "domain note": "DN"}  # fmt: skip
_IMPACT_WORDS = ("high", "large", "big", "大", "高", "architecture", "security", "performance")


def parse_candidates(data: Any) -> list[Candidate]:
    """Candidates from the JSON of the reflection step: a list, or {"candidates": [...]}.

    Each has `title`, `type` (or an `id` whose prefix gives it), the six fields (English or
    Chinese keys), and what makes it worth keeping: `repeated` (count), `impact`
    ("high"...) or `high_impact`, `reusable`.
    """
    if isinstance(data, dict):
        data = data.get("candidates", data.get("anchors"))
    if isinstance(data, dict):  # the 2.0 stores: {"candidates": {cand_id: {...}}} (on_stop.py)
        data = [dict(item, id=item.get("id", key)) if isinstance(item, dict) else item
                for key, item in data.items()]  # fmt: skip
    if not isinstance(data, list):
        raise ValueError('expected a list of candidates or {"candidates": [...]}')
    result = []
    words = {w: k for k, (en, zh) in FIELD_LABELS.items() for w in (k, en.lower(), zh)}
    words.update({"理由": "why", "原因": "why", "reason": "why", "影响": "impact"})
    for number, item in enumerate(data, 1):
        if not isinstance(item, dict):
            raise ValueError(f"candidate {number}: expected an object")
        title = str(item.get("title") or "").strip()
        kind = str(item.get("type") or item.get("id") or "D").strip()
        word = _STORE_TYPES.get(kind.lower())  # (a 2.0 store's type word: "constraint")
        if word is None and re.match(r"(?:anc|cand)_", kind):
            word = "D"  # (a 2.0 id says nothing of the type)
        kind = word or re.match(r"[A-Za-z]*", kind).group().upper() or "D"  # type: ignore[union-attr]
        if not title or "\n" in title:
            raise ValueError(f"candidate {number}: a one-line title is required")
        if kind not in TYPES:
            raise ValueError(f"candidate {number}: unknown type {kind!r}")
        values = {}
        if isinstance(item.get("content"), str) and item["content"].strip() != title:
            values["decision"] = item["content"].strip()  # (a 2.0 record's body)
        if isinstance(item.get("evidence_level"), str):
            values["evidence"] = item["evidence_level"].strip()
        for key, value in item.items():
            target = words.get(str(key).lower())
            if target and value is not None:
                if isinstance(value, list):
                    value = "\n".join(f"- {v}" for v in value)
                values[target] = str(value).strip()
        impact = item.get("impact_level", item.get("high_impact", False))
        high = impact is True or (
            isinstance(impact, str) and any(w in impact.lower() for w in _IMPACT_WORDS)
        )
        try:
            repeated = int(item.get("repeated", item.get("occurrences", 0)) or 0)
        except (TypeError, ValueError):
            raise ValueError(f"candidate {number}: repeated must be a number") from None
        # (an anchor of a 2.0 anchors store was promoted there: it met upstream's criteria)
        reusable = bool(item.get("reusable", False)) or bool(item.get("promoted_at"))
        result.append(Candidate(kind, title, values, repeated, high, reusable))
    return result


def _same(a: str, b: str) -> bool:
    norm = lambda s: re.sub(r"[\W_]+", "", s.casefold())  # noqa: E731
    x, y = norm(a), norm(b)
    return x == y or (bool(x) and bool(y) and (x in y or y in x))


def add_candidates(text: str, candidates: list[Candidate], threshold: float = 0.8):
    """Apply the write flow to `text`: threshold, then merge (> threshold title
    similarity) or add; a merge whose decision differs marks the anchor ⚠️ 待验证."""
    from wukong_lint.anchors.checks import similarity

    outcomes: list[Outcome] = []
    for cand in candidates:
        if not cand.meets_threshold():
            outcomes.append(
                Outcome(
                    "skipped",
                    cand.title,
                    reason="below the threshold (not repeated, not high impact, not reusable)",
                )
            )
            continue
        doc = parse(text)
        best: Anchor | None = None
        best_ratio = 0.0
        for a in doc.anchors:
            ratio = similarity(a.title, cand.title)
            if ratio > best_ratio:
                best, best_ratio = a, ratio
        if best is not None and best_ratio > threshold:
            text, outcome = _merge(doc, best, cand)
            outcomes.append(outcome)
            continue
        text, anchor_id = insert_anchor(
            text,
            cand.type,
            escape_title(cand.title),
            values=cand.values,
            status="✅ 生效" if chinese_text(parse(text)) or _cjk(cand.title) else "✅ Active",
        )
        outcomes.append(Outcome("added", cand.title, anchor_id))
    return text, outcomes


def _merge(doc: Doc, a: Anchor, cand: Candidate) -> tuple[str, Outcome]:
    existing = field_texts(doc, a)
    chinese = chinese_text(doc)
    nl = doc.newline
    conflict = bool(
        cand.values.get("decision")
        and existing.get("decision")
        and not _same(cand.values["decision"], existing["decision"])
    )
    additions: list[tuple[str, str]] = []  # (field, line)
    compact = a.form == "compact"
    for key in FIELDS:
        value = cand.values.get(key, "").strip()
        if not value or _same(value, existing.get(key, "")):
            continue
        en, zh = FIELD_LABELS[key]
        if key == "decision" and conflict:
            label = "冲突的候选决策" if chinese else "Conflicting candidate decision"
        else:
            label = f"补充 {zh}" if chinese else f"Added {en}"
        value = escape_inline(" ".join(value.split()))
        # a compact anchor is its title line and the bullets under it: the merged facts are
        # bullets of it, or they would stand detached after it
        additions.append((key, f"- {label}: {value}" if compact else f"**{label}**: {value}"))
    lines = list(doc.lines)
    if conflict:
        marked = "⚠️ 待验证" if chinese else "⚠️ Pending"
        if a.status is not None:
            _, start, end = a.status
            i = max(k for k in range(a.first, a.last) if doc.offsets[k] <= start)
            col = start - doc.offsets[i]
            lines[i] = lines[i][:col] + marked + lines[i][end - doc.offsets[i] :]
        else:
            key = "状态" if chinese else "Status"
            if compact:
                head = lines[a.first] if lines[a.first].endswith("\n") else lines[a.first] + nl
                lines[a.first] = head + f"- {key}: {marked}{nl}"
            else:
                lines[a.first] = lines[a.first] + f"{nl}**{key}**: {marked}{nl}"
    # Each fact goes to the end of its own field of a full anchor (a conflicting decision
    # under Decision, not after the last field, Rollback, where it would read as the way
    # back); a compact anchor, or a field it lacks, takes them at its end.
    ends = {} if compact else _field_ends(a)
    groups: dict[int, list[str]] = {}
    for key, line in additions:
        groups.setdefault(ends.get(key, a.last), []).append(line)
    for end in sorted(groups, reverse=True):  # (from the bottom: earlier indexes stay put)
        at = end
        while at > a.first + 1 and not lines[at - 1].strip():
            at -= 1
        block = ("" if compact else nl) + nl.join(groups[end]) + nl
        if not lines[at - 1].endswith("\n"):
            block = nl + block
        lines.insert(at, block)
    text = "".join(lines)
    if conflict:
        return text, Outcome("conflict", cand.title, a.id, "decision differs; marked pending")
    return text, Outcome("merged", cand.title, a.id)


def _field_ends(a: Anchor) -> dict[str, int]:
    """Field key -> the line its section of the anchor ends at (the next field's label, or
    the anchor's end), for the first occurrence of each field."""
    entries = a.fields
    ends: dict[str, int] = {}
    for k, entry in enumerate(entries):
        if entry.key and entry.key not in ends:
            ends[entry.key] = entries[k + 1].line if k + 1 < len(entries) else a.last
    return ends


# ------------------------------------------------------------------ hints

T1 = ("P", "C", "M")
T2 = ("D", "I")
# Seed 001's 分身惯性提示配置: which hints each avatar gets before its task
AVATAR_STAGES = {
    "眼": ("t1",),
    "耳": (),
    "意": ("t2",),
    "身": ("t1", "t2"),
    "舌": ("t1",),
    "鼻": ("t1", "t2"),
}
_AVATAR_NAMES = {"eye": "眼", "ear": "耳", "mind": "意", "body": "身", "tongue": "舌", "nose": "鼻"}


def avatar_stages(avatar: str) -> list[str] | None:
    """The hint stages of an avatar (Chinese or English name, `@眼` too), None if unknown."""
    name = avatar.strip().lstrip("@").casefold()
    name = _AVATAR_NAMES.get(name, name)
    stages = AVATAR_STAGES.get(name)
    return None if stages is None else list(stages)


def _matches(doc: Doc, a: Anchor, keywords: list[str]) -> bool:
    if not keywords:
        return True
    body = "".join(doc.lines[a.first : a.last]).casefold()
    return any(k.casefold() in body for k in keywords)


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def hints(docs: list[Doc], stage: str, keywords: list[str], limit: int = 5) -> str:
    """The T1 (risks, constraints, patterns) or T2 (decisions, interfaces) inertia hint."""
    wanted = T1 if stage == "t1" else T2
    picked: dict[str, list[tuple[Doc, Anchor]]] = {t: [] for t in wanted}
    seen: set[str] = set()
    for doc in docs:
        for a in sorted(doc.anchors, key=Anchor.sort_key):
            if a.type not in wanted or a.id in seen:
                continue
            if a.status is not None and status_class(a.status[0]) == "deprecated":
                continue
            if _matches(doc, a, keywords) and len(picked[a.type]) < limit:
                picked[a.type].append((doc, a))
                seen.add(a.id)
    out: list[str] = []
    if stage == "t1":
        out += ["## [识 T1] 启动提示", ""]
        for kind, heading in (("P", "⚠️ **相关风险**:"), ("C", "📌 **约束提醒**:"),
                              ("M", "🔄 **可复用模式**:")):  # fmt: skip
            if picked[kind]:
                out.append(heading)
                out += [f"- [{a.id}] {a.title}" for _, a in picked[kind]]
                out.append("")
        if not any(picked.values()):
            out += ["*暂无相关锚点*", ""]
        out += ["---", "> 仅供参考，不影响决策"]
    else:
        out += ["## [识 T2] 设计参考", ""]
        if picked["D"]:
            out += ["📜 **历史决策**:", "| ID | 决策 | 理由 |", "|----|------|------|"]
            for doc, a in picked["D"]:
                why = field_texts(doc, a).get("why", "")
                out.append(f"| [{a.id}] | {_short(a.title).replace('|', '/')} | "
                           f"{_short(why).replace('|', '/')} |")  # fmt: skip
            out.append("")
        if picked["I"]:
            out.append("🔌 **相关接口**:")
            out += [f"- [{a.id}] {a.title}" for _, a in picked["I"]]
            out.append("")
        rollbacks = [
            (a, field_texts(doc, a).get("rollback", "")) for doc, a in picked["D"] + picked["I"]
        ]
        rollbacks = [(a, r) for a, r in rollbacks if r]
        if rollbacks:
            out.append("🔙 **回滚经验**:")
            out += [f"- {a.id}: {_short(r, 60)}" for a, r in rollbacks]
            out.append("")
        if not any(picked.values()):
            out += ["*暂无相关锚点*", ""]
        out += ["---", "> 仅供参考，决策权在本体"]
    return "\n".join(out) + "\n"


def fmt_file_text(path: str, text: str, force: bool):
    """fmt for one file: anchors files and files that define anchors; others stay as they are.

    The cyclic garbage collector is paused meanwhile: parse and fmt allocate hundreds of
    thousands of small objects and free none of them, so its passes over a large file found
    nothing and cost a sixth of the time."""
    from wukong_lint.anchors.fmt import FmtResult

    enabled = gc.isenabled()
    gc.disable()
    try:
        doc = parse(text)
        if not wants_index(path, doc):
            return FmtResult(text)
        # a template (no anchors yet, no index of ours) gets no empty index block
        index = bool(doc.anchors) or any(b.signature is not None for b in doc.blocks)
        return fmt_doc(doc, force=force, index=index)
    finally:
        if enabled:
            gc.enable()


__all__ = [
    "TYPE_NAMES",
    "add_candidates",
    "compact_anchor",
    "default_files",
    "fmt_file_text",
    "hints",
    "insert_anchor",
    "parse_candidates",
]
