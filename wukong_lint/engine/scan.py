"""Run a rule set over units: prefilter, match, locate, redact, suppress, fingerprint."""

from __future__ import annotations

import contextlib
import gc
import re
import time
from collections.abc import Iterable, Iterator
from functools import partial
from operator import itemgetter
from typing import Any, NamedTuple

from wukong_lint.engine.findings import make_findings, pack, unpack
from wukong_lint.engine.masking import shapes as redact
from wukong_lint.engine.matchers import Hit, RuleTimeout, match_regex
from wukong_lint.engine.quiet import Quiet
from wukong_lint.engine.rules import CompiledRule, RuleSet
from wukong_lint.model import (
    CHANGE_KINDS,
    Finding,
    Report,
    ScanError,
    Stats,
    TextWindow,
    Unit,
)
from wukong_lint.util.text import Skipped


class _Lines:
    """Offset -> (line, column) for one text, counting newlines incrementally."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._offset = 0
        self._line = 1

    def locate(self, offset: int) -> tuple[int, int]:
        if offset < self._offset:
            self._offset, self._line = 0, 1
        self._line += self.text.count("\n", self._offset, offset)
        self._offset = offset
        line_start = self.text.rfind("\n", 0, offset) + 1
        return self._line, offset - line_start + 1


class _Candidate(NamedTuple):
    rule: CompiledRule
    hit: Hit
    line: int
    column: int
    end_line: int
    anchor: int  # the offset the finding points at
    severity: int = 0  # when set, lower than the rule's (engine/doc_context.py)


_new_candidate = partial(tuple.__new__, _Candidate)


def _is_generic(rule: CompiledRule) -> bool:
    return "generic" in rule.tags


def _tier(rule: CompiledRule) -> int:
    """Which rule names a secret found twice: a provider's (0) before a rule that knows only
    what holds it (1, tag `container`: a URL's user info, a connection string, a command
    line's password, an auth header) before the catch-all assignment: a GitLab token in a
    clone URL is reported as the GitLab token, with its revocation docs. Generic rules keep
    ranking after every specific one (the deferred generic rules of `scan_unit` rely on it)."""
    container = "container" in rule.tags
    return (3 - container) if "generic" in rule.tags else int(container)


def _drop_overlaps(found: list[_Candidate]) -> list[_Candidate]:
    """One secret, one finding: where secret spans overlap, keep the most specific rule."""
    if len(found) < 2:
        return found
    secrets = [c for c in found if c.rule.category == "secret"]
    if len(secrets) < 2:
        return found
    ranked = sorted(secrets, key=lambda c: (_tier(c.rule), -c.rule.severity, c.hit.start))
    kept: list[_Candidate] = []
    for cand in ranked:
        s, e = cand.hit.secret_start, cand.hit.secret_end
        if any(s < k.hit.secret_end and k.hit.secret_start < e for k in kept):
            continue
        kept.append(cand)
    kept_ids = {id(c) for c in kept}
    return [c for c in found if c.rule.category != "secret" or id(c) in kept_ids]


MARKER_HEAD = "[REDACTED:"  # (engine/masking/redactor.py's MARKER)
MARKERS = re.compile(r"\[REDACTED:[\w.-]{1,80}\]")


def masked_spans(text: str) -> list[tuple[int, int]]:
    """The `[REDACTED:rule-id]` markers of an earlier `redact` in a text."""
    return [m.span() for m in MARKERS.finditer(text)] if MARKER_HEAD in text else []


def in_marker(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether a secret's span overlaps a marker: no secret (`-u [REDACTED:x]:` is no
    password), and never masked again (a second run changes nothing)."""
    return any(start < e and s < end for s, e in spans)


def _masked(cand: _Candidate, spans: list[tuple[int, int]]) -> bool:
    hit = cand.hit
    return cand.rule.category == "secret" and in_marker(hit.secret_start, hit.secret_end, spans)


def _drop_superseded(found: list[_Candidate]) -> list[_Candidate]:
    """One event, one finding: a rule whose `supersedes` names another drops that rule's
    findings on the same place (profile wukong's `.env` read denial says what the generic
    'touches a secrets file' says, and more)."""
    if len(found) < 2:
        return found
    over = [c for c in found if c.rule.params and c.rule.params.get("supersedes")]
    if not over:
        return found
    return [
        c
        for c in found
        if not any(
            c.rule.id in o.rule.params["supersedes"]  # type: ignore[index]
            and c.hit.start < o.hit.end
            and o.hit.start < c.hit.end
            for o in over
        )
    ]


def _in_context(unit: Unit, found: list[_Candidate]) -> list[_Candidate]:
    """Secret findings in documentation dropped or lowered, test-fixture keys lowered."""
    if unit.source.kind == "transcript" or not any(c.rule.category == "secret" for c in found):
        return found
    from wukong_lint.engine import doc_context

    context = doc_context.Context(unit.path, unit.text)
    kept = []
    for cand in found:
        if cand.rule.category == "secret":
            verdict = context.judge(cand.rule.id, _is_generic(cand.rule), cand.hit.start)
            if verdict is not None:
                severity, note = verdict
                if not severity:
                    continue
                if severity < (cand.severity or cand.rule.severity):
                    note = f"{cand.hit.note}; {note}" if cand.hit.note else note
                    cand = cand._replace(severity=severity, hit=cand.hit._replace(note=note))
        kept.append(cand)
    return kept


# A rule whose regex ran out of time this often (in this process) is not run again in the
# scan: a pathological pattern against many files cost a time limit per file.
MAX_RULE_TIMEOUTS = 3
_TIMEOUTS: dict[str, int] = {}


def is_rule_timeout(error: ScanError) -> bool:
    """Whether `error` says a rule ran out of time (the scan is then incomplete)."""
    return error.message.startswith("rule '") and " timed out after " in error.message


OUT_OF_MEMORY = "out of memory: not scanned"  # (the start of every such error's message)


def is_out_of_memory(error: ScanError) -> bool:
    """Whether `error` says an input was not scanned (or not to its end) for want of memory:
    a MemoryError, or its worker process killed (runner/worker_pool.py)."""
    return error.message.startswith((OUT_OF_MEMORY, "not scanned: the process scanning it"))


def is_unread(error: ScanError) -> bool:
    """Whether `error` says an input could not be read (or not to its end) while it was
    scanned: a disk error, a file gone or made unreadable during the scan."""
    return error.message.startswith("cannot read")


def _gather(
    rule: CompiledRule,
    run: Any,
    unit: Unit,
    lines: _Lines | None,
    pinned: bool,
    found: list[_Candidate],
    errors: list[ScanError],
) -> None:
    """Add the hits of `run()` (a rule's matcher on `unit`) to `found` as candidates (a
    time-out to `errors`)."""
    if _TIMEOUTS.get(rule.id, 0) >= MAX_RULE_TIMEOUTS:
        return  # disabled for the rest of the scan
    text = unit.text
    try:
        for hit in run():
            window = unit.added_lines
            if isinstance(window, TextWindow):  # a part of a long text: by offset
                if not window.start <= hit.start < window.end:
                    continue
            elif window is not None:
                # a change counts when it added any line of the match
                first, _ = lines.locate(hit.start)  # type: ignore[union-attr]
                last = first + text.count("\n", hit.start, max(hit.start, hit.end - 1))
                if not any(n in window for n in range(first, last + 1)):
                    continue
            # A finding points at the secret (the value of `name: value` on the next
            # line, say) unless the rule asks for the start of the whole match.
            if rule.locate == "secret":
                start, end = hit.secret_start, hit.secret_end
            else:
                start, end = hit.start, hit.end
            if pinned:
                line, column, end_line = 1, 1, 1
            else:
                line, column = lines.locate(start)  # type: ignore[union-attr]
                end_line = line + text.count("\n", start, max(start, end - 1))
                if line == 1 and isinstance(window, TextWindow):  # (it starts mid-line)
                    column += window.column - 1
            # (_Candidate's fields in order, its severity 0 unless the hit lowers it:
            # tuple.__new__ runs no Python)
            lowered = hit.severity if 0 < hit.severity < rule.severity else 0
            found.append(_new_candidate((rule, hit, line, column, end_line, start, lowered)))
    except RuleTimeout as err:
        count = _TIMEOUTS[rule.id] = _TIMEOUTS.get(rule.id, 0) + 1
        message = str(err)
        if count == MAX_RULE_TIMEOUTS:
            message += f"; disabled for the rest of the scan after {count} time-outs"
        errors.append(ScanError(unit.path, message))


def _kept_specific(found: list[_Candidate]) -> list[_Candidate]:
    """The secret candidates of specific (not generic) rules that `_drop_overlaps` keeps:
    they rank before every generic one, so generic candidates never change this set."""
    ranked = sorted(
        (c for c in found if c.rule.category == "secret" and not _is_generic(c.rule)),
        key=lambda c: (_tier(c.rule), -c.rule.severity, c.hit.start),
    )
    kept: list[_Candidate] = []
    for cand in ranked:
        s, e = cand.hit.secret_start, cand.hit.secret_end
        if not any(s < k.hit.secret_end and k.hit.secret_start < e for k in kept):
            kept.append(cand)
    return kept


def scan_unit(
    ruleset: RuleSet, unit: Unit, occurrences: dict[tuple[str, str], int] | None = None
) -> tuple[list[Finding], list[ScanError]]:
    """The findings and errors of one unit. `occurrences` counts each (rule, value) seen in
    the file so far: the parts of a big file share one, so that a value repeated across
    parts gets the fingerprints of a whole read (Counter.occurrences)."""
    text = unit.text
    kind = unit.source.kind
    errors: list[ScanError] = []
    found: list[_Candidate] = []
    # A transcript unit is one record: every finding in it is on the record's JSONL line
    # (unless the unit places its lines itself: a pretty-printed document's strings).
    pinned = kind == "transcript" and unit.line_numbers is None
    # (made when a hit needs it: most transcript records have none)
    lines = _Lines(text) if not pinned or unit.added_lines is not None else None
    deferred: list[tuple[CompiledRule, list[int] | None]] = []
    for rule, matcher, offsets in ruleset.runnable(unit):
        if matcher is match_regex and rule.category == "secret" and "generic" in rule.tags:
            deferred.append((rule, offsets))  # after the specific rules: see below
            continue
        run = partial(matcher, rule, unit, offsets)
        _gather(rule, run, unit, lines, pinned, found, errors)
    if deferred:
        # A generic secret rule's match that overlaps a secret a specific rule keeps is
        # dropped by `_drop_overlaps` (specific rules rank first), so it need not be filtered
        # at all: the filters are most of a candidate's cost (a `TOKEN=ghp_...` line).
        covered = [(c.hit.secret_start, c.hit.secret_end) for c in _kept_specific(found)]
        for rule, offsets in deferred:
            run = partial(match_regex, rule, unit, offsets, covered)
            _gather(rule, run, unit, lines, pinned, found, errors)
    if ruleset.decode and lines is not None and kind not in CHANGE_KINDS:
        found += _derived(ruleset, unit, lines, found, errors)
    if not found:
        return [], errors
    found = _drop_overlaps(found)
    spans = masked_spans(text)
    if spans:  # a value `redact` already masked is no secret (nor a password)
        found = [c for c in found if not _masked(c, spans)]
        if not found:
            return [], errors
    found = _drop_superseded(found)
    found = _in_context(unit, found)
    if len(found) > 1:  # (most units with a finding have one)
        found.sort(key=_place)
    return make_findings(ruleset, unit, found, occurrences), errors


_MAY_DECODE = re.compile(r'[A-Za-z0-9+/_\-]{8}|%[0-9A-Fa-f]{2}|\\[ux]|&#|Secret|"auth"')


def _derived(
    ruleset: RuleSet,
    unit: Unit,
    lines: _Lines,
    found: list[_Candidate],
    errors: list[ScanError],
) -> list[_Candidate]:
    """The secrets of the unit's views (decode/: decoded spans, joined values), each as a
    candidate on the span of the unit's text it was decoded or joined from, with the chain
    in its note. Only the secret regex rules run on a view, each only where its keywords
    occur in the view (the prefilter again), and a secret the plain text shows already
    (or an earlier view) is not reported twice: a plain-text finding of a rule that ranks
    after the view's (`_tier`) is replaced, from `found`."""
    near = ruleset.secret_keyword_offsets(unit.text)
    if not near and _MAY_DECODE.search(unit.text) is None:
        # no keyword to join around, and nothing a decoder reads: no encoded run of 8
        # characters (the shortest that decodes to a value worth a look), no %XX, \u/\x
        # escape, &#, Secret or "auth" (most small files: the decode stage is not imported)
        return []
    from wukong_lint.decode import views

    derived = views(unit.text, unit.path, ruleset.decode_gate(), near)
    if not derived:
        return []
    text, path = unit.text, unit.path
    prefilter = ruleset.prefilter(unit.source.kind)
    # the secret spans reported so far: a view's finding on one of them is dropped, unless it
    # names the secret better than a plain-text finding it meets (a provider's rule reading a
    # joined name/value pair, where the plain text had only the catch-all): that one goes
    taken: list[tuple[int, int, _Candidate | None]] = [
        (c.hit.secret_start, c.hit.secret_end, c) for c in found if c.rule.category == "secret"
    ]
    out: list[_Candidate] = []
    for view in derived:
        hits = prefilter.hits(view.text)
        if not hits:
            continue  # (most views: no keyword of a secret rule in the decoded text)
        sub = unit._replace(text=view.text, added_lines=None, first_line=1, line_numbers=None)
        view_lines = _Lines(view.text)
        candidates: list[_Candidate] = []
        for index, offsets in hits.items():
            rule = ruleset.rules[index]
            if rule.category != "secret" or rule.kind != "regex" or not rule.applies_to_path(path):
                continue
            run = partial(match_regex, rule, sub, offsets)
            _gather(rule, run, sub, view_lines, False, candidates, errors)
        for cand in _drop_overlaps(candidates):
            hit = cand.hit
            if cand.rule.locate == "secret":  # (as `_gather` points a finding)
                start, end = view.span(hit.secret_start, hit.secret_end)
            else:
                start, end = view.span(hit.start, hit.end)
            clash = [t for t in taken if start < t[1] and t[0] < end]
            if clash:
                tier = _tier(cand.rule)
                if not all(c is not None and tier < _tier(c.rule) for _, _, c in clash):
                    continue
                for t in clash:
                    taken.remove(t)
                    found.remove(t[2])  # type: ignore[arg-type]
            line, column = lines.locate(start)
            if unit.added_lines is not None and line not in unit.added_lines:
                continue
            end_line = line + text.count("\n", start, max(start, end - 1))
            secret = view.text[hit.secret_start : hit.secret_end]
            shown = secret[: redact.public_prefix(secret, cand.rule.keywords)]
            # the chain and the provider prefix only: never the secret, decoded or not
            note = f"{' → '.join(view.chain)} → {shown}…"
            taken.append((start, end, None))
            hit = Hit(start, end, start, end, note)
            out.append(_new_candidate((cand.rule, hit, line, column, end_line, start, 0)))
    return out


def _place(cand: _Candidate) -> tuple[int, str]:
    return cand.anchor, cand.rule.id


# The rule sets of the `tally`s under way, innermost last: a transcript session reading while
# one runs asks it which units any rule can reach (they are scanned by that tally only).
_REACHING: list[RuleSet] = []


def reaching() -> RuleSet | None:
    """The rule set that will scan the units of a source read now (None: not known)."""
    return _REACHING[-1] if _REACHING else None


@contextlib.contextmanager
def scanning_with(ruleset: RuleSet) -> Iterator[None]:
    """While it lasts, sources read here know the rule set that will scan their units
    (`reaching`): a scan loop other than `tally`'s (runner/offload.py)."""
    _REACHING.append(ruleset)
    try:
        yield
    finally:
        _REACHING.pop()


class Tally(NamedTuple):
    """What scanning a batch of source items produced."""

    findings: list[Finding]
    errors: list[ScanError]
    files: int
    bytes: int
    skipped: int
    units: int = 0  # a transcript is one file of many units

    def __reduce__(self) -> tuple[Any, ...]:
        # a worker's tally goes to the parent pickled: its findings in columns (findings.py)
        return (_unpickle_tally, (pack(self.findings), *self[1:]))


def _unpickle_tally(packed: Any, *rest: Any) -> Tally:
    return Tally(unpack(packed), *rest)


class Counter:
    """Findings, errors and counts of the items of a source, added in the source's order."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.errors: list[ScanError] = []
        self.files = self.size = self.skipped = self.units = 0
        self._transcripts: set[str] = set()
        self._part_path: str | None = None
        self._part_occurrences: dict[tuple[str, str], int] = {}
        self._out_of_memory: set[str] = set()

    def occurrences(self, unit: Unit) -> dict[tuple[str, str], int] | None:
        """For a part of a big file (sources/chunked.py: its parts come in order, one after
        the other), the occurrence counts of the file's earlier parts; else None."""
        if unit.source.kind != "file" or unit.added_lines is None:
            return None
        window = unit.added_lines
        first = unit.first_line == 1 and (type(window) is not TextWindow or window.column == 1)
        if unit.path != self._part_path or first:
            self._part_path, self._part_occurrences = unit.path, {}
        return self._part_occurrences

    def count(self, item: Unit | ScanError | Skipped | Quiet) -> bool:
        """Count `item`; whether it is a unit to scan."""
        if item is None:  # (a transcript reader's unit that is counted in its `Quiet`)
            return False
        if type(item) is Quiet:  # transcript units no rule reaches: counted only
            self.units += item.units
            self.size += item.size
            if item.path not in self._transcripts:
                self._transcripts.add(item.path)
                self.files += 1
            return False
        if isinstance(item, Unit):
            if item.source.kind in CHANGE_KINDS:  # the change as a whole: no file, no bytes
                return True
            self.units += 1
            if item.source.kind == "file" and item.added_lines is not None:
                # a part of a big file (sources/chunked.py): the file counts once
                self.size += item.size
                if item.path not in self._transcripts:
                    self._transcripts.add(item.path)
                    self.files += 1
            elif item.source.kind != "transcript":
                self.files += 1
                self.size += item.size or len(item.text)
            else:  # each unit carries the bytes of its records; the file counts once
                self.size += item.size
                if item.path not in self._transcripts:
                    self._transcripts.add(item.path)
                    self.files += 1
            return True
        if isinstance(item, ScanError):
            self.error(item)
        else:
            self.skipped += 1
        return False

    def error(self, error: ScanError) -> None:
        """Record `error`; a file out of memory once only (its reading and the scan of its
        unit may both run out: one input not scanned, one error)."""
        if is_out_of_memory(error):
            if error.path in self._out_of_memory:
                return
            self._out_of_memory.add(error.path)
        self.errors.append(error)

    def out_of_memory(self, path: str) -> None:
        self.error(ScanError(path, OUT_OF_MEMORY))

    def add(self, found: list[Finding], errors: list[ScanError]) -> None:
        self.findings += found
        self.errors += errors

    def add_part(self, batch: Tally, path: str) -> None:
        """The tally of a part of the transcript `path` (runner/offload.py)."""
        self.findings += batch.findings
        self.errors += batch.errors
        self.size += batch.bytes
        self.skipped += batch.skipped
        self.units += batch.units
        if batch.files and path not in self._transcripts:
            self._transcripts.add(path)
            self.files += 1

    def tally(self) -> Tally:
        return Tally(self.findings, self.errors, self.files, self.size, self.skipped, self.units)


# A source's items are taken a batch at a time and then scanned: reading records and
# scanning units each keep their own code and data in the CPU's caches for a whole batch
# instead of taking turns at every unit (measured on the bench session: 8 % of a transcript
# scan's time). A batch ends at this many items or once its units hold this many characters
# (a folder's files are units too: the batch holds their texts).
BATCH_ITEMS = 4096
BATCH_CHARS = 4 << 20


def _batches(items: Iterable[Any]) -> Iterator[list[Any]]:
    """`items` in lists, in order, each within BATCH_ITEMS items and (but for its last unit)
    BATCH_CHARS characters. Sources must not change what they yielded once they read on:
    the transcript readers make every fact a rule reads before they yield its unit."""
    iterator = iter(items)
    while True:
        batch: list[Any] = []
        chars = 0
        for item in iterator:
            batch.append(item)
            if type(item) is not Quiet and isinstance(item, Unit):
                chars += len(item.text)
                if chars >= BATCH_CHARS:
                    break
            if len(batch) >= BATCH_ITEMS:
                break
        if not batch:
            return
        yield batch


def tally(ruleset: RuleSet, items: Iterable[Unit | ScanError | Skipped]) -> Tally:
    """Scan the units a source yields; its errors and skips are recorded, never fatal."""
    counter = Counter()
    _REACHING.append(ruleset)  # (`items` is lazy: its sources are made in the loop)
    # A scan makes and frees a lot and keeps few cycles (352 unreachable objects after the
    # whole bench session): the collector still runs, a hundred times less often (3 % of a
    # transcript scan's time). Restored after: tests run many scans in one process.
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], 100_000), *thresholds[1:])
    try:
        for batch in _batches(items):
            for item in batch:
                if counter.count(item):
                    try:
                        counter.add(*scan_unit(ruleset, item, counter.occurrences(item)))  # type: ignore[arg-type]
                    except MemoryError:  # this unit only: the others are still scanned
                        counter.out_of_memory(item.path)  # type: ignore[union-attr]
            del batch  # (its units are not held while the next batch is read)
    finally:
        gc.set_threshold(*thresholds)
        _REACHING.pop()
    return counter.tally()


# Finding.sort_key's tuple (path, line, column, rule_id) without a Python call a finding
_SORT_KEY = itemgetter(
    *(Finding._fields.index(name) for name in ("path", "line", "column", "rule_id"))
)


class Scanner:
    """Accumulates findings, errors and stats over batches of units."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self.findings: list[Finding] = []
        self.errors: list[ScanError] = []
        self.files = self.bytes = self.units = self.skipped = 0
        self.started = time.perf_counter()
        _TIMEOUTS.clear()  # a new scan runs every rule again (workers fork after this)

    def scan(self, items: Iterable[Unit | ScanError | Skipped]) -> None:
        self.add(tally(self.ruleset, items))

    def add(self, batch: Tally) -> None:
        self.findings += batch.findings
        self.errors += batch.errors
        self.files += batch.files
        self.units += batch.units or batch.files
        self.bytes += batch.bytes
        self.skipped += batch.skipped

    def report(self) -> Report:
        findings = tuple(sorted(self.findings, key=_SORT_KEY))
        stats = Stats(
            files=self.files,
            bytes=self.bytes,
            units=self.units,
            seconds=round(time.perf_counter() - self.started, 4),
            suppressed=sum(1 for f in findings if f.suppressed),
            skipped=self.skipped,
        )
        return Report(findings, stats, tuple(self.errors))
