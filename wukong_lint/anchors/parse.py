"""The parse model of anchors files and memory-bank markdown.

A document is a list of lines (each keeps its own line ending, so nothing is ever lost) with
a role per line: plain text, fenced code, HTML comment, or the inside of a MACHINE_BLOCK /
USER_BLOCK. On the text lines it finds anchors in both forms of the Ruyi protocol:

* full form: a heading `## [D001] title`, metadata lines (`**ID**`, `**日期**`/`**Date**`,
  `**状态**`/`**Status**`) and field sections written as headings (`### Decision (决策)`) or
  as `**Why**: ...` lines;
* compact form: a line `[D001] title` followed by bullets `- Why: ...`;

plus the per-type section headings they are grouped under, and every `[D001]` reference.
Anything inside code fences, HTML comments and blocks is never an anchor (example anchors in
a comment stay examples).
"""

from __future__ import annotations

import bisect
import functools
import io
import itertools
import operator
import re
from dataclasses import dataclass, field
from typing import Any

TYPES = ("D", "C", "I", "P", "M", "U", "CK", "DN")
TYPE_ORDER = {t: i for i, t in enumerate(TYPES)}
TYPE_NAMES = {
    "D": ("Decision", "决策"),
    "C": ("Constraint", "约束"),
    "I": ("Interface", "接口"),
    "P": ("Problem", "问题"),
    "M": ("Pattern", "模式"),
    "U": ("Preference", "偏好"),
    "CK": ("Checklist", "检查清单"),
    "DN": ("Domain note", "领域笔记"),
}
FIELDS = ("decision", "alternatives", "why", "impact", "verification", "rollback")
# Fields of the other dialects (the rule's `dialects`): the upstream ADR template's 背景
# (context), and problem anchors' 症状 / 根因 / 解决 / 预防. Known labels, never templated.
EXTRA_FIELDS = ("context", "symptom", "cause", "solution", "prevention", "evidence")
FIELD_LABELS = {
    "decision": ("Decision", "决策"),
    "alternatives": ("Alternatives", "备选方案"),
    "why": ("Why", "理由"),
    "impact": ("Impact", "影响范围"),
    "verification": ("Verification", "验证方式"),
    "rollback": ("Rollback", "回滚方式"),
    "context": ("Context", "背景"),
    "symptom": ("Symptom", "症状"),
    "cause": ("Root cause", "根因"),
    "solution": ("Solution", "解决"),
    "prevention": ("Prevention", "预防"),
    "evidence": ("Evidence", "证据"),
}
_FIELD_WORDS = {
    "decision": ("decision", "决策", "决定"),
    "alternatives": (
        "alternatives",
        "alternative",
        "options",
        # the usual ADR headings
        "alternatives considered",
        "options considered",
        "considered alternatives",
        "considered options",
        "备选方案",
        "备选",
        "替代方案",
        "选项",
    ),
    "why": ("why", "reason", "reasons", "rationale", "justification", "理由", "原因"),
    "impact": ("impact", "scope", "consequences", "影响范围", "影响", "后果"),
    "verification": ("verification", "verify", "validation", "验证方式", "验证"),
    "rollback": ("rollback", "roll back", "回滚方式", "回滚"),
    "context": ("context", "background", "背景"),
    "symptom": ("symptom", "symptoms", "症状", "现象"),
    "cause": ("root cause", "cause", "根因", "根本原因"),
    "solution": ("solution", "resolution", "解决", "解决方案", "解决办法"),
    "prevention": ("prevention", "预防", "预防措施"),
    # the context index's dialect (时间 / Context / Decision / Evidence / Impact / Tags)
    "evidence": ("evidence", "证据", "依据"),
    # metadata
    "id": ("id", "编号"),
    "date": ("date", "日期", "时间", "created"),
    "status": ("status", "状态"),
}
WORD_TO_KEY = {w: key for key, words in _FIELD_WORDS.items() for w in words}
METADATA = ("id", "date", "status")

# Section headings: the first type whose words occur in the heading (problems before patterns,
# so "Anti-patterns" is P).
_SECTION_WORDS = (
    (
        "P",
        ("anti-pattern", "antipattern", "problem", "pitfall", "issues", "问题", "陷阱", "反模式"),
    ),
    ("CK", ("checklist", "检查清单", "清单")),
    ("DN", ("domain note", "domain knowledge", "领域")),
    ("D", ("decision", "决策", "adr")),
    ("C", ("constraint", "约束")),
    ("I", ("interface", "接口")),
    ("M", ("pattern", "模式")),
    ("U", ("preference", "偏好")),
)

ID_CANDIDATE = r"[A-Za-z]{1,3}-?\d{1,6}"
VALID_ID = re.compile(r"(CK|DN|[DCIPMU])(\d{3,})\Z")
_ID_PARTS = re.compile(r"([A-Za-z]+)-?(\d+)\Z")
MARKER = re.compile(r"^[ \t]*<!--[ \t]*(MACHINE|USER)_BLOCK_(START|END)[ \t]*-->[ \t]*\r?$")
HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*\r?$")
ANCHOR_TITLE = re.compile(
    r"^(?:\*\*)?\[(" + ID_CANDIDATE + r")\](?:\*\*)?(?:[ \t]*[:：\-–—])?[ \t]*(.*?)[ \t]*$"
)
# `## 约束 [C001]`: a heading of one anchor written as its type's name, then the ID (some
# tools write anchors so); group 1 is the ID, group 2 the type name (the title)
TYPED_TITLE = re.compile(
    r"^(?=[^\[\]]*\[(" + ID_CANDIDATE + r")\][ \t]*$)([^\[\]*#]{1,20}?)[ \t]*\[[^\]]*\][ \t]*$"
)
_TYPE_WORDS = {w.casefold(): t for t, names in TYPE_NAMES.items() for w in names}


def anchor_title(text: str) -> re.Match[str] | None:
    """The match of an anchor heading's text (`[D001] title`, or `决策 [D001]` when the name
    is the ID's type), or None."""
    if "[" not in text:
        return None
    m = ANCHOR_TITLE.match(text)
    if m is None:
        m = TYPED_TITLE.match(text)
        if m is None or _TYPE_WORDS.get(m.group(2).strip().casefold()) != (
            split_id(m.group(1))[0].upper()
        ):
            return None
    return m


COMPACT_START = re.compile(r"^(?:\*\*)?\[(" + ID_CANDIDATE + r")\](?:\*\*)?[ \t]+(\S.*?)[ \t]*\r?$")
# `**Key**: value`, `**Key:** value`, `- **Key**：value`
BOLD_FIELD = re.compile(
    r"^([ \t]*(?:[-*+][ \t]+)?)\*\*([^*\n]{1,40}?)[ \t]*([:：]?)\*\*[ \t]*([:：]?)[ \t]*(.*?)\r?$"
)
# `- Why: value` (compact bullets)
BULLET_FIELD = re.compile(r"^([ \t]*[-*+][ \t]+)([^:：*\n]{1,30}?)[ \t]*[:：][ \t]*(.*?)\r?$")
FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
HR = re.compile(r"^[ \t]{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*\r?$")
REFERENCE = re.compile(r"\[(" + ID_CANDIDATE + r")\]")
COMMENT_SPAN = re.compile(r"<!--.*?-->", re.S)
SIGNATURE = re.compile(r"^<!-- wukong-lint: anchors index .*?sha256:([0-9a-f]{16}) -->\r?$")
_SPLIT_LABEL = re.compile(r"[()（）/|]|\s[-–—]\s")
_PUNCT = re.compile(r"[^\w\s-]")


@functools.lru_cache(maxsize=4096)
def label_key(label: str) -> str | None:
    """The field or metadata key a label names ("Decision (决策)" -> "decision"), or None."""
    text = _PUNCT.sub(" ", label.replace("（", "(").replace("）", ")")).casefold()
    parts = [" ".join(p.split()) for p in _SPLIT_LABEL.split(label.casefold())]
    parts = [_PUNCT.sub("", p).strip() for p in parts]
    parts = [p for p in parts if p]
    if not parts:
        return None
    keys = {WORD_TO_KEY.get(p) for p in parts}
    if len(keys) == 1 and None not in keys:
        return keys.pop()
    whole = " ".join(text.split())
    return WORD_TO_KEY.get(whole)


def section_type(heading_text: str) -> str | None:
    """The anchor type of a section heading ("## 决策 (Decisions)" -> "D"), or None. A heading
    that names one anchor ("## 约束 [C001]", "## [D001] ...") is not a section."""
    if "[" in heading_text and any(is_valid_id(m) for m in REFERENCE.findall(heading_text)):
        return None
    if REFERENCE.search(heading_text) and ANCHOR_TITLE.match(heading_text):
        return None
    lowered = heading_text.casefold()
    if label_key(heading_text) in FIELDS:
        return None  # a field heading ("### Decision"), not a section
    for kind, words in _SECTION_WORDS:
        if any(w in lowered for w in words):
            return kind
    return None


@functools.lru_cache(maxsize=65536)
def _id_facts(anchor_id: str) -> tuple[str | None, tuple[int, int, str]]:
    """The type of an ID (None when its prefix is none of TYPES) and its sort key."""
    prefix, number = split_id(anchor_id)
    prefix = prefix.upper()
    kind = prefix if prefix in TYPE_ORDER else None
    return kind, (TYPE_ORDER.get(prefix, len(TYPES)), number or 0, anchor_id)


@functools.lru_cache(maxsize=65536)
def split_id(anchor_id: str) -> tuple[str, int | None]:
    m = _ID_PARTS.match(anchor_id)
    if not m:
        return anchor_id, None
    return m.group(1), int(m.group(2))


def is_valid_id(anchor_id: str) -> bool:
    return VALID_ID.match(anchor_id) is not None


@dataclass(slots=True)
class FieldEntry:
    key: str  # a FIELDS key, or "" for an unknown field
    label: str
    style: str  # "heading" | "bold" | "bullet"
    line: int  # index of the label line
    start: int  # offsets of the label line
    end: int
    # where the value is: (doc, value start column, the next label line or the anchor's
    # end, the anchor's end); whether it is empty is computed when asked (lint only)
    value: tuple[Any, int, int, int] | None = field(default=None, repr=False)
    _empty: bool | None = field(default=None, repr=False)

    @property
    def empty(self) -> bool:
        if self._empty is None:
            self._empty = self.value is not None and _value_empty(self, *self.value)
        return self._empty


@dataclass(slots=True)
class Anchor:
    id: str
    title: str
    form: str  # "full" | "compact"
    level: int  # heading level (0 for the compact form)
    first: int  # line range [first, last)
    last: int
    start: int  # offsets of that range
    end: int
    id_start: int
    id_end: int
    title_start: int
    section: str | None = None  # the type of the enclosing section heading
    # The field sections and the metadata lines (status, date, ID: value and offsets) are
    # read from the document when first asked for: fmt needs only status and date.
    doc: Doc | None = field(default=None, repr=False, compare=False)
    _fields: list[FieldEntry] | None = field(default=None, repr=False, compare=False)
    _meta: dict[str, tuple[str, int, int]] | None = field(default=None, repr=False, compare=False)

    @property
    def fields(self) -> list[FieldEntry]:
        if self._fields is None:
            self._fields = []
            _scan(self.doc, self, True)  # type: ignore[arg-type]
        return self._fields

    def _metadata(self) -> dict[str, tuple[str, int, int]]:
        if self._meta is None:
            self._meta = {}
            _scan(self.doc, self, False)  # type: ignore[arg-type]
        return self._meta

    @property
    def status(self) -> tuple[str, int, int] | None:
        return self._metadata().get("status")

    @property
    def date(self) -> tuple[str, int, int] | None:
        return self._metadata().get("date")

    @property
    def meta_id(self) -> tuple[str, int, int] | None:
        return self._metadata().get("id")

    @property
    def prefix(self) -> str:
        return split_id(self.id)[0]

    @property
    def number(self) -> int | None:
        return split_id(self.id)[1]

    @property
    def type(self) -> str | None:
        return _id_facts(self.id)[0]

    def sort_key(self) -> tuple[int, int, str]:
        return _id_facts(self.id)[1]

    def field_keys(self) -> set[str]:
        return {f.key for f in self.fields if f.key}


@dataclass
class Block:
    kind: str  # "MACHINE" | "USER"
    first: int  # the START marker line
    last: int  # the END marker line (or the last line when unclosed)
    closed: bool
    start: int = 0
    end: int = 0
    signature: str | None = None  # the checksum of our index block, when it is ours


@dataclass
class Section:
    type: str
    level: int
    line: int
    title: str
    end: int = 0  # the line where the section ends (the next section, a heading of its level
    # or higher outside anchors, or the end of the file)


@dataclass
class Doc:
    text: str
    lines: list[str]  # each with its own line ending
    offsets: list[int]  # offset of each line
    role: list[str]  # "text" | "fence" | "comment" | "block"
    anchors: list[Anchor] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    markers: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, START|END, line)
    heads: dict[int, tuple[int, str]] = field(default_factory=dict)  # line -> (level, text)
    newline: str = "\n"
    _field_lines: list[int] | None = field(default=None, repr=False)
    _meta_lines: list[int] = field(default_factory=list, repr=False)

    def line_end(self, i: int) -> int:
        return self.offsets[i] + len(self.lines[i])

    def content(self, i: int) -> str:
        return self.lines[i].rstrip("\n").rstrip("\r")

    def references(self) -> list[tuple[str, int, int]]:
        """`[ID]` references on text lines (not in code, comments or our index block)."""
        found = []
        for i, line in enumerate(self.lines):
            if self.role[i] not in ("text", "block"):
                continue
            if self.role[i] == "block" and self._in_our_block(i):
                continue
            if "[" not in line:
                continue
            stripped = COMMENT_SPAN.sub(lambda m: " " * len(m.group()), line)
            for m in REFERENCE.finditer(stripped):
                before = stripped[m.start() - 1] if m.start() else ""
                after = stripped[m.end()] if m.end() < len(stripped) else ""
                if (before and before in "`[") or (
                    after and after in "(`["
                ):  # code, nested brackets, markdown links
                    continue
                found.append((m.group(1), self.offsets[i] + m.start(1), self.offsets[i] + m.end(1)))
        return found

    def _in_our_block(self, i: int) -> bool:
        return any(b.signature is not None and b.first <= i <= b.last for b in self.blocks)


def split_lines(text: str) -> list[str]:
    """Lines with their endings; only "\\n" ends a line ("\\r" stays with its line)."""
    return io.StringIO(text, newline="\n").readlines()  # newline="\n": no translation


def parse(text: str) -> Doc:
    lines = split_lines(text)
    offsets = list(itertools.accumulate(map(len, lines), initial=0))
    offsets.pop()
    crlf = text.count("\r\n")
    doc = Doc(text, lines, offsets, ["text"] * len(lines))
    if crlf and crlf * 2 > text.count("\n"):
        doc.newline = "\r\n"
    _roles(doc)
    _structure(doc)
    return doc


def _positions(text: str, needle: str) -> list[int]:
    found = []
    pos = text.find(needle)
    while pos >= 0:
        found.append(pos)
        pos = text.find(needle, pos + 1)
    return found


def _lines_where(flags: Any) -> list[int]:
    """The indexes of the true values of `flags` (an iterator over the lines, evaluated in C:
    `map(str.startswith, lines, repeat("#"))`)."""
    return list(itertools.compress(itertools.count(), flags))


def _lines_at(doc: Doc, positions: list[int]) -> list[int]:
    """The sorted, distinct indexes of the lines holding these offsets."""
    offsets = doc.offsets
    return sorted({bisect.bisect_right(offsets, pos) - 1 for pos in positions})


def _role_candidates(doc: Doc) -> list[int]:
    """The lines that may open or close a code fence, a comment or a block (a superset)."""
    text = doc.text
    positions = _positions(text, "<!--") + _positions(text, "-->")
    for fence in ("```", "~~~"):
        for pos in _positions(text, fence):
            start = text.rfind("\n", 0, pos) + 1
            if not text[start:pos].strip(" "):
                positions.append(pos)
    return _lines_at(doc, positions)


def heading(raw: str) -> tuple[int, str] | None:
    """(level, text) of an ATX heading line (without its "\\n"), or None."""
    if raw[:1] != "#":
        return None
    rest = raw.lstrip("#")
    level = len(raw) - len(rest)
    if level > 6 or rest[:1] not in (" ", "\t") or not rest:
        return None
    if rest[-1:] == "\r":
        rest = rest[:-1]
    return level, rest.strip(" \t")


def _roles(doc: Doc) -> None:
    """The role of each line. Only the lines `_ROLE_CANDIDATE` finds can open or close a
    fence, comment or block; every other line takes the role of the state it is in."""
    role = doc.role
    lines = doc.lines
    fence: str | None = None
    in_comment = False
    open_block: Block | None = None
    previous = -1
    for i in _role_candidates(doc):
        # The lines in between keep the current state. (Written out here and after the loop:
        # a helper called per candidate line made fmt of the 5 MB bench file ~25% slower.)
        if previous + 1 < i:
            state = (
                "block"
                if open_block is not None
                else "fence"
                if fence is not None
                else "comment"
                if in_comment
                else None
            )
            if state is not None:
                role[previous + 1 : i] = [state] * (i - previous - 1)
        previous = i
        line = lines[i]
        marker = MARKER.match(line) if fence is None and not in_comment and "<!--" in line else None
        if marker:
            kind, edge = marker.group(1), marker.group(2)
            doc.markers.append((kind, edge, i))
        if open_block is not None:
            role[i] = "block"
            if marker and marker.group(1) == open_block.kind and marker.group(2) == "END":
                open_block.last, open_block.closed = i, True
                open_block = None
            continue
        if marker and marker.group(2) == "START":
            open_block = Block(marker.group(1), i, len(lines) - 1, False)
            doc.blocks.append(open_block)
            role[i] = "block"
            continue
        if marker:  # an END without a START: a text line (lint reports it)
            continue
        fenced = line.lstrip(" ")[:3] in ("```", "~~~")
        if fence is not None:
            role[i] = "fence"
            m = FENCE.match(line) if fenced else None
            closing = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
            if closing and not line[m.end() :].strip():
                fence = None
            continue
        if in_comment:
            role[i] = "comment"
            if "-->" in line:
                in_comment = False
            continue
        m = FENCE.match(line) if fenced else None
        if m:
            fence = m.group(1)
            role[i] = "fence"
            continue
        stripped = line.lstrip(" \t")
        if stripped.startswith("<!--"):
            role[i] = "comment"
            if "-->" not in stripped[4:]:
                in_comment = True
    n = len(lines)
    if previous + 1 < n:
        state = (
            "block"
            if open_block is not None
            else "fence"
            if fence is not None
            else "comment"
            if in_comment
            else None
        )
        if state is not None:
            role[previous + 1 : n] = [state] * (n - previous - 1)
    heads = doc.heads
    for i in _lines_where(map(str.startswith, lines, itertools.repeat("#"))):
        if role[i] == "text":
            raw = lines[i].rstrip("\n")
            rest = raw.lstrip("#")
            level = len(raw) - len(rest)
            if level <= 6 and rest[:1] in (" ", "\t") and rest:  # as heading(), inlined
                if rest[-1] == "\r":
                    rest = rest[:-1]
                heads[i] = (level, rest.strip(" \t"))
    for block in doc.blocks:
        block.start = doc.offsets[block.first]
        block.end = doc.line_end(block.last)
        if block.kind == "MACHINE" and block.first + 1 <= block.last:
            m = SIGNATURE.match(doc.lines[block.first + 1].rstrip("\n"))
            if m:
                block.signature = m.group(1)


def _compact_start(doc: Doc, i: int) -> re.Match[str] | None:
    if doc.role[i] != "text" or not doc.lines[i].startswith(("[", "**[")):
        return None
    m = COMPACT_START.match(doc.lines[i].rstrip("\n"))
    if not m or i + 1 >= len(doc.lines) or doc.role[i + 1] != "text":
        return None
    bullet = BULLET_FIELD.match(doc.lines[i + 1].rstrip("\n"))
    if bullet and label_key(bullet.group(2)) is not None:
        return m
    bold = BOLD_FIELD.match(doc.lines[i + 1].rstrip("\n"))
    if bold and bold.group(1).strip() and label_key(bold.group(2)) is not None:
        return m
    return None


def _structure(doc: Doc) -> None:
    n = len(doc.lines)
    lines, role, heads = doc.lines, doc.role, doc.heads
    # the only lines that can start an anchor or a section, or end a full-form anchor
    starts = set(_lines_where(map(str.startswith, lines, itertools.repeat(("[", "**[")))))
    cands = sorted(starts.union(heads, (b.first for b in doc.blocks)))
    section: Section | None = None
    i = 0
    k = 0
    while k < len(cands):
        i = cands[k]
        k += 1
        head = heads.get(i)
        if head is not None:
            level, htext = head
            m = anchor_title(htext)
            if m:
                end = _full_end(doc, i + 1, level, cands, k)
                doc.anchors.append(_make_anchor(doc, i, end, m, "full", level, section))
                k = bisect.bisect_left(cands, end, k)
                continue
            kind = section_type(htext)
            if kind is not None:
                if section is not None:
                    section.end = i
                section = Section(kind, level, i, htext, n)
                doc.sections.append(section)
            elif section is not None and level <= section.level:
                section.end = i
                section = None
            continue
        m = _compact_start(doc, i) if i in starts else None
        if m:
            end = i + 1
            while end < n and role[end] == "text":
                line = lines[end]
                if line.lstrip(" \t").startswith(("-", "*", "+")) or (
                    line[:2] in ("  ", "\t") and line.strip()
                ):
                    end += 1
                else:
                    break
            doc.anchors.append(_make_anchor(doc, i, end, m, "compact", 0, section))
            k = bisect.bisect_left(cands, end, k)


def _full_end(doc: Doc, i: int, level: int, cands: list[int], k: int) -> int:
    """Where a full-form anchor whose body starts at line i ends: the next block, heading of
    its level or higher, anchor heading or compact anchor (cands[k:] are the lines after
    its heading that may be one of those)."""
    heads = doc.heads
    role = doc.role
    for index in range(k, len(cands)):
        j = cands[index]
        if role[j] == "block":
            return j
        head = heads.get(j)
        if head is not None:
            if head[0] <= level or anchor_title(head[1]):
                return j
        elif _compact_start(doc, j):
            return j
    return len(doc.lines)


def _make_anchor(
    doc: Doc, first: int, last: int, m: re.Match[str], form: str, level: int, sec: Section | None
) -> Anchor:
    line = doc.lines[first]
    id_col = line.index("[" + m.group(1) + "]") + 1
    start = doc.offsets[first]
    title_col = line.find(m.group(2), id_col + len(m.group(1))) if m.group(2) else -1
    if m.group(2) and title_col < 0:  # `## 约束 [C001]`: the title comes first
        title_col = line.find(m.group(2))
    anchor = Anchor(
        id=m.group(1),
        title=m.group(2).strip(),
        form=form,
        level=level,
        first=first,
        last=last,
        start=start,
        end=doc.offsets[last] if last < len(doc.lines) else len(doc.text),
        id_start=start + id_col,
        id_end=start + id_col + len(m.group(1)),
        title_start=start + (title_col if title_col >= 0 else id_col),
        section=sec.type if sec is not None else None,
        doc=doc,
    )
    return anchor


def _value_empty(entry: FieldEntry, doc: Doc, col: int, stop: int, last: int) -> bool:
    j = entry.line
    if entry.style == "heading":
        level = len(doc.lines[j]) - len(doc.lines[j].lstrip("#"))
        for k in range(j + 1, stop):
            head = doc.heads.get(k)
            if head is not None and head[0] <= level:
                stop = k
                break
    elif entry.style == "bullet":
        stop = j + 1
        while stop < last and doc.lines[stop][:1] in (" ", "\t") and doc.lines[stop].strip():
            stop += 1
    chunks = [doc.content(j)[col:]]
    for k in range(j + 1, stop):
        if doc.role[k] == "comment":
            continue
        chunks.append(doc.lines[k])
    text = COMMENT_SPAN.sub("", "".join(chunks))
    text = re.sub(r"\{[^{}\n]*\}", "", text)  # template placeholders
    words = re.sub(r"[\s\-*_>|`#.:：…]+", "", text).casefold()
    return words in ("", "todo", "tbd", "待补充", "待定", "无内容")


def _field_candidates(doc: Doc) -> list[int]:
    """The sorted lines that may be a field label: headings, lines with `**`, bullets."""
    if doc._field_lines is None:
        lines = doc.lines
        bold = _lines_where(map(operator.contains, lines, itertools.repeat("**")))
        bullets = _lines_where(
            map(str.startswith, map(str.lstrip, lines), itertools.repeat(("-", "*", "+")))
        )
        doc._meta_lines = sorted(set(bold).union(bullets))
        doc._field_lines = sorted(set(doc._meta_lines).union(doc.heads))
    return doc._field_lines


def _scan(doc: Doc, anchor: Anchor, with_fields: bool) -> None:
    """The metadata lines of one anchor and, `with_fields`, its field sections and where their
    values are."""
    labels: list[tuple[int, FieldEntry | None, int]] = []  # (line, entry, value start col)
    heads = doc.heads
    role = doc.role
    lines = doc.lines
    offsets = doc.offsets
    fields: list[FieldEntry] = []
    meta: dict[str, tuple[str, int, int]] = {}
    candidates = _field_candidates(doc)
    if not with_fields:
        candidates = doc._meta_lines
    first = bisect.bisect_right(candidates, anchor.first)
    stop = bisect.bisect_left(candidates, anchor.last, first)
    for j in candidates[first:stop]:
        line = lines[j]
        head = heads.get(j) if with_fields else None
        if head is None:
            if "**" not in line and not (
                (":" in line or "：" in line) and line.lstrip(" \t")[:1] in ("-", "*", "+")
            ):
                continue
            if role[j] != "text":
                continue
        raw = line.rstrip("\n").rstrip("\r")
        if head is not None:
            key = label_key(head[1])
            entry = FieldEntry(
                key if key in FIELDS or key in EXTRA_FIELDS else "",
                head[1],
                "heading",
                j,
                offsets[j],
                offsets[j] + len(raw),
            )
            fields.append(entry)
            labels.append((j, entry, len(raw)))
            continue
        m = BOLD_FIELD.match(raw) if "**" in raw else None
        bullet = None
        if not (m and (m.group(3) or m.group(4))):
            m = None
            bullet = BULLET_FIELD.match(raw)
        if m is not None:
            label, value, value_col = m.group(2), m.group(5), m.start(5)
        elif bullet is not None:
            label, value, value_col = bullet.group(2), bullet.group(3), bullet.start(3)
        else:
            continue
        key = label_key(label)
        if key is None:
            if m is not None:  # an unknown bold field ends the previous value
                labels.append((j, None, len(raw)))
            continue
        vstart = offsets[j] + value_col
        if key in METADATA:
            meta[key] = (value, vstart, vstart + len(value))
            labels.append((j, None, len(raw)))
            continue
        if not with_fields:
            continue
        entry = FieldEntry(key, label, "bold" if m is not None else "bullet", j, offsets[j], vstart)
        fields.append(entry)
        labels.append((j, entry, value_col))
    anchor._meta = meta
    if not with_fields:
        return
    anchor._fields = fields
    last = anchor.last
    for index, (_, entry, col) in enumerate(labels):
        if entry is not None:
            stop = labels[index + 1][0] if index + 1 < len(labels) else last
            entry.value = (doc, col, stop, last)
