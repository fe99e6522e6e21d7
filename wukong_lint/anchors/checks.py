"""Rule kinds `anchors` and `memory-bank`: their matchers (the YAML models are in
models.py, so that a scan never imports pydantic).

Each rule names one `check`; the matcher parses the unit once (the parse is shared by all
rules that look at the same unit) and yields hits on the offending ID, marker or heading.
This module is resolved whenever one of its rules is a candidate for a unit, so it imports
the parser only when a unit it applies to actually reaches it.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.util.walk import walk

if TYPE_CHECKING:
    from wukong_lint.anchors.parse import Doc
    from wukong_lint.engine.rules import CompiledRule
    from wukong_lint.model import Unit

# ------------------------------------------------------------------ the protocol's forms

_FACTS: list[dict[str, Any]] = []


def protocol_facts() -> dict[str, Any]:
    """The anchor dialects and context forms every 戒 protocol version writes
    (rules/protocol/*.yaml, read through the engine's data documents): a file in any
    version's form is not wrong, whichever version the project follows."""
    if not _FACTS:
        from wukong_lint.engine.data_docs import documents

        dialects: list[list[str]] = []
        forms: list[dict[str, Any]] = []
        for data in documents("protocol-version").values():
            for dialect in data["anchors"]["dialects"]:
                if dialect["fields"] not in dialects:
                    dialects.append(list(dialect["fields"]))
            for form in data["compact_form"]:
                if form["marker"] and form not in forms:
                    forms.append(form)
        _FACTS.append({"dialects": dialects, "compact_variants": forms})
    return _FACTS[0]


# ------------------------------------------------------------------ shared parse

_last: tuple[str, Doc] | None = None


def doc_of(unit: Unit) -> Doc:
    from wukong_lint.anchors.parse import parse

    global _last
    if _last is not None and _last[0] is unit.text:
        return _last[1]
    doc = parse(unit.text)
    _last = (unit.text, doc)
    return doc


def _hit(start: int, end: int, note: str = "") -> Hit:
    return Hit(start, end, start, end, note)


# ------------------------------------------------------------------ anchors


def match_anchors(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    from wukong_lint.anchors.parse import TYPE_NAMES, is_valid_id
    from wukong_lint.anchors.render import date_valid, status_class

    params = rule.params or {}
    doc = doc_of(unit)
    check = params["check"]
    if check == "dangling-reference":
        yield from _dangling(doc, unit.path)
        return
    if check == "near-duplicate":
        yield from _near_duplicates(doc, params.get("threshold", 0.8))
        return
    if check == "duplicate-id":
        seen: dict[str, int] = {}
        for a in doc.anchors:
            if a.id in seen:
                line = seen[a.id] + 1
                yield _hit(a.id_start, a.id_end, f"{a.id} is also defined on line {line}")
            else:
                seen[a.id] = a.first
        return
    if check == "id-format":  # the 2.0 anchor and candidate stores' own ids (anc_…, cand_…)
        yield from _store_ids(doc)
    for a in doc.anchors:
        if check == "fields":
            note = _field_note(a, params)
            if note:
                yield _hit(a.id_start, a.id_end, note)
        elif check == "id-format":
            if not is_valid_id(a.id):
                yield _hit(a.id_start, a.id_end, f"{a.id}: expected a prefix and 3+ digits")
            elif a.meta_id and a.meta_id[0].strip().strip("`*") not in ("", a.id):
                value, s, e = a.meta_id
                yield _hit(s, e, f"the ID line says {value.strip()[:12]}, the heading {a.id}")
        elif check == "section-prefix":
            if a.section and a.type and a.section != a.type:
                name = TYPE_NAMES[a.section][0]
                yield _hit(a.id_start, a.id_end, f"{a.id} under the {name} ({a.section}) section")
        elif check == "status":
            if a.status is not None:
                value, s, e = a.status
                cls = status_class(value)
                if cls == "multiple":
                    yield _hit(s, e, "the template's choices are still all there; keep one")
                elif cls is None:
                    yield _hit(s, e)
        elif check == "date" and a.date is not None and not date_valid(a.date[0]):
            yield _hit(a.date[1], a.date[2])
        elif check == "vague-title":
            from wukong_lint.anchors.titles import vague

            if vague(a.title, params["generic_words"], params["min_cjk"], params["min_words"]):
                end = a.title_start + len(a.title)
                yield _hit(a.title_start, end, f"{a.id}: say what was decided, not its topic")


# the ID line of a record of upstream's 2.0 stores (templates/anchors.md, candidates.md:
# `**ID**: `anc_3f9a1c2e7b40``), and the id its anchor_manager.py generates (^anc_[a-z0-9]+$)
_STORE_ID_LINE = re.compile(r"\*\*ID\*\*\s*[:：]\s*`?((?:anc|cand)_[^`\s]*)`?\s*$")
STORE_ID = re.compile(r"(?:anc|cand)_[a-z0-9]+\Z")


def _store_ids(doc: Doc) -> Iterator[Hit]:
    """A 2.0 store record whose id is not `anc_`/`cand_` + lower-case letters and digits
    (what upstream generates and looks records up by); the records are not [D001] anchors,
    so this is their only id check."""
    if "anc_" not in doc.text and "cand_" not in doc.text:
        return
    for i, line in enumerate(doc.lines):
        if doc.role[i] != "text" or "_" not in line:
            continue
        found = _STORE_ID_LINE.search(line.rstrip("\r\n"))
        if found and not STORE_ID.match(found.group(1)):
            start = doc.offsets[i] + found.start(1)
            yield _hit(start, start + len(found.group(1)),
                       f"{found.group(1)[:40]}: expected anc_ or cand_ and lower-case "
                       "letters and digits")  # fmt: skip


def _field_note(a: Any, params: dict[str, Any]) -> str:
    from wukong_lint.anchors.parse import FIELD_LABELS, FIELDS

    have = a.field_keys()
    if a.form == "full":
        required = params.get("required") or {}
        wanted = required.get(a.type or "", required.get("default", list(FIELDS)))
        dialects = params.get("dialects") or {}
        sets = [wanted, *dialects.get(a.type or "", dialects.get("default", []))]
        if params.get("protocol_forms") and (a.type or "") not in dialects:
            sets += protocol_facts()["dialects"]  # the dialects the 戒 versions write
        # judged against the set it comes closest to (a problem anchor written with
        # 症状/根因/解决/预防 is told what it lacks of that set, not of the decision one)
        wanted = min(sets, key=lambda s: (sum(1 for k in s if k not in have), -len(s)))
    else:
        wanted = params.get("compact_required", [])
    missing = [FIELD_LABELS[k][0] for k in wanted if k not in have]
    empty = [FIELD_LABELS[f.key][0] for f in a.fields if f.key in wanted and f.empty]
    parts = []
    if missing:
        parts.append("missing " + ", ".join(missing))
    if empty:
        parts.append("empty " + ", ".join(dict.fromkeys(empty)))
    return "; ".join(parts)


_TITLE_NOISE = re.compile(r"[\W_]+")


def _norm_title(title: str) -> str:
    return _TITLE_NOISE.sub("", title.casefold())


def similarity(a: str, b: str) -> float:
    from difflib import SequenceMatcher

    a, b = _norm_title(a), _norm_title(b)
    if not a or not b:
        return 0.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def _near_duplicates(doc: Doc, threshold: float) -> Iterator[Hit]:
    from difflib import SequenceMatcher

    titles = [(a, _norm_title(a.title)) for a in doc.anchors]
    for j, (b, tb) in enumerate(titles):
        for a, ta in titles[:j]:
            if a.id == b.id or not ta or not tb:
                continue
            if 2 * min(len(ta), len(tb)) / (len(ta) + len(tb)) <= threshold:
                continue
            matcher = SequenceMatcher(None, ta, tb, autojunk=False)
            if matcher.real_quick_ratio() <= threshold or matcher.quick_ratio() <= threshold:
                continue
            ratio = matcher.ratio()
            if ratio > threshold:
                yield _hit(b.id_start, b.id_end, f"title {ratio:.2f} similar to {a.id}")
                break


# Definitions elsewhere in the project: anchors files and memory-bank folders found from the
# unit's folder up to the repository root, parsed once per process.
_file_ids: dict[str, tuple[float, frozenset[str]]] = {}
_dir_ids: dict[str, frozenset[str]] = {}


def _ids_in_file(path: str) -> frozenset[str]:
    from wukong_lint.anchors.parse import parse

    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return frozenset()
    cached = _file_ids.get(path)
    if cached and cached[0] == mtime:
        return cached[1]
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return frozenset()
    ids = frozenset(a.id for a in parse(text).anchors)
    _file_ids[path] = (mtime, ids)
    return ids


def _markdown_under(folder: str, limit: int = 2000) -> list[str]:
    found = []
    for root, dirs, files in walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".git"))
        found += [os.path.join(root, f) for f in sorted(files) if f.endswith(".md")]
        if len(found) >= limit:
            break
    return found[:limit]


def project_ids(path: str) -> frozenset[str]:
    folder = os.path.dirname(os.path.abspath(path))
    cached = _dir_ids.get(folder)
    if cached is not None:
        return cached
    ids: set[str] = set()
    current = folder
    for _ in range(12):
        for name in ("anchors.md", os.path.join(".wukong", "context", "anchors.md")):
            ids |= _ids_in_file(os.path.join(current, name))
        for sub in ("memory-bank", os.path.join(".wukong", "context", "anchors")):
            if os.path.isdir(os.path.join(current, sub)):
                for file in _markdown_under(os.path.join(current, sub)):
                    ids |= _ids_in_file(file)
        parent = os.path.dirname(current)
        if os.path.exists(os.path.join(current, ".git")) or parent == current:
            break
        current = parent
    _dir_ids[folder] = result = frozenset(ids)
    return result


_TEMPLATE_NAME = re.compile(r"template|模板", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\{[^{}\n]*[^\W\d_][^{}\n]*\}")  # {决策描述}, {name}; not {} or {1}


def _dangling(doc: Doc, path: str) -> Iterator[Hit]:
    from wukong_lint.anchors.parse import is_valid_id

    if _TEMPLATE_NAME.search(os.path.basename(path)):
        return  # a template's IDs are examples
    refs = doc.references()
    if not refs:
        return
    local = {a.id for a in doc.anchors}
    known: frozenset[str] | None = None
    for anchor_id, start, end in refs:
        if anchor_id in local or not is_valid_id(anchor_id):
            continue
        line = bisect.bisect_right(doc.offsets, start) - 1
        if _PLACEHOLDER.search(doc.lines[line]):
            continue  # `| [D002] | {决策描述} |`: a template row
        if known is None:
            known = project_ids(path)
        if anchor_id not in known:
            yield _hit(start, end, f"{anchor_id} is not defined in any anchors file")


# ------------------------------------------------------------------ memory bank


def match_memory_bank(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    from wukong_lint.anchors.render import marker_problems

    params = rule.params or {}
    doc = doc_of(unit)
    check = params["check"]
    if check == "markers":
        for line, _, message in marker_problems(doc):
            start = doc.offsets[line] + len(doc.lines[line]) - len(doc.lines[line].lstrip())
            yield _hit(start, doc.offsets[line] + len(doc.content(line)), message)
        return
    if _TEMPLATE_NAME.search(os.path.basename(unit.path)):
        return  # a template of the forms, with placeholders: not a context
    for start, end, body, _title in _forms(doc, unit.path, params):
        if check == "session-summary":
            headings = {
                _norm_title(m.group(1)) for m in re.finditer(r"^#{1,6}[ \t]+(.+)$", body, re.M)
            }
            missing = [
                s for s in params.get("sections", [])
                if not any(_norm_title(s) in h for h in headings)
            ]  # fmt: skip
            if missing:
                yield _hit(start, end, "missing " + ", ".join(missing))
            continue
        size = len(re.sub(r"\s+", "", body))
        low, high = params.get("min_chars"), params.get("max_chars")
        sections = params.get("sections", [])
        variant = _variant(body) if params.get("protocol_forms") else None
        if variant is not None:  # a form the protocol's own tools write (hui-extract.py)
            high = variant["max_chars"]
            if sections:
                sections = [s for s in variant["sections"] if s not in variant["optional"]]
        if high is not None and size > high:
            yield _hit(start, end, f"{size} characters, limit {high}")
        elif low is not None and size < low:
            yield _hit(start, end, f"{size} characters, at least {low}")
        missing = [s for s in sections if s not in body]
        if missing:
            yield _hit(start, end, "missing " + "".join(missing))


def _variant(body: str) -> dict[str, Any] | None:
    """The protocol's form a context form is written in, by its marker line (None: none)."""
    for form in protocol_facts()["compact_variants"]:
        if form["marker"] in body:
            return form
    return None


_FORM_NAMES = ("缩形态", "常形态", "巨形态")


def _forms(doc: Doc, path: str, params: dict[str, Any]) -> Iterator[tuple[int, int, str, str]]:
    """(start, end of the heading, body text, heading) of each context form in the file."""
    heading = params.get("heading", "")
    found = False
    if heading:
        for i, line in enumerate(doc.lines):
            if doc.role[i] != "text" or not line.startswith("#") or heading not in line:
                continue
            if sum(name in line for name in _FORM_NAMES) > 1 or line.rstrip().endswith(("?", "？")):
                continue  # `### 为什么常形态 2000 字符，缩形态 500 字符？`: about the forms
            level = len(line) - len(line.lstrip("#"))
            stop = len(doc.lines)
            for k in range(i + 1, len(doc.lines)):
                other = doc.lines[k]
                if (
                    doc.role[k] == "text"
                    and other.startswith("#")
                    and len(other) - len(other.lstrip("#")) <= level
                ):
                    stop = k
                    break
            body = "".join(
                doc.lines[k] for k in range(i + 1, stop) if doc.role[k] in ("text", "fence")
            )
            found = True
            yield doc.offsets[i], doc.offsets[i] + len(doc.content(i)), body, line.strip()
    names = params.get("file_names", [])
    if not found and names and os.path.basename(path) in names and ".wukong" in path:
        body = "".join(
            doc.lines[k] for k in range(len(doc.lines)) if doc.role[k] in ("text", "fence")
        )
        if body.strip():
            first = next((k for k, line in enumerate(doc.lines) if line.strip()), 0)
            yield doc.offsets[first], doc.offsets[first] + len(doc.content(first)), body, ""
