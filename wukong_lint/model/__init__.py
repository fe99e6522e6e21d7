"""Core records shared by sources, matchers, filters and reporters.

Everything here is immutable and cheap to import: this module is on the pre-commit hot path,
so it uses only the standard library. model/events.py holds the agent events (tool call,
tool result, message) and the units made from them.

Layer: the bottom, with `util`. May import `util` only.
"""

import enum
from collections.abc import Set as AbstractSet
from typing import Any, NamedTuple

CATEGORIES = (
    "secret",
    "dangerous-command",
    "sensitive-path",
    "guard-integrity",
    "injection",
    "info-leak",
    "body-boundary",
    "avatar-boundary",
    "context",
    "transcript-integrity",
    "anchor",
    "memory-bank",
    "hardcoded-config",
)

UNIT_KINDS = ("file", "diff", "transcript", "memory", "change", "weakening")
# Units that are not a file's text: the change as a whole, and what a commit range changes in
# the scan's own setup (config, baseline, inline ignores; sources/weakening.py). Not counted
# as files; their findings are reported as part of the diff.
CHANGE_KINDS = frozenset({"change", "weakening"})
# What a rule applies to when it does not say: every kind of text. A `change` unit is not
# text to read but a staged change or commit range as a whole (its changed paths, one a
# line); only rules that name it see it.
DEFAULT_APPLIES_TO = ("file", "diff", "transcript", "memory")


class Severity(enum.IntEnum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Severity":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            names = ", ".join(s.label for s in cls)
            raise ValueError(f"unknown severity {text!r} (expected one of: {names})") from None


class Source(NamedTuple):
    """Where a unit came from, beyond its path (the `source` object of the JSON report)."""

    kind: str = "file"
    tool: str | None = None
    agent: str | None = None
    record: int | None = None
    commit: str | None = None


class TextWindow:
    """The `added_lines` of a part of a long text cut anywhere, also inside a line (a big
    file's part, a record too large to parse): the matches that start at offsets [start,
    end) of the unit's text are reported (each once: the parts overlap). Every line is in it.
    `column`: the column, in its line of the file, where the unit's text starts."""

    __slots__ = ("column", "end", "start")

    def __init__(self, start: int, end: int, column: int = 1) -> None:
        self.start, self.end, self.column = start, end, column

    def __contains__(self, line: object) -> bool:
        return True

    def __repr__(self) -> str:
        return f"TextWindow({self.start}, {self.end}, {self.column})"


class Unit(NamedTuple):
    """Text with provenance: the input of every matcher.

    `added_lines` is None when every line counts (plain files); for diffs it holds the line
    numbers (1-based, in the new file) that the change added. The whole new file is kept in
    `text` so that matchers see full context, and findings are kept only on added lines.
    """

    path: str
    text: str
    source: Source = Source()
    # (a set; a TextWindow for the parts of a long text: sources/chunked.py)
    added_lines: AbstractSet[int] | range | TextWindow | None = None
    first_line: int = 1
    # Bytes read from the source (0: unknown, count the text instead).
    size: int = 0
    # The line number, in the real file, of each line of `text` when the text is pieced
    # together from non-adjacent lines (the added lines of a commit's hunks).
    line_numbers: tuple[int, ...] | None = None


class Finding(NamedTuple):
    rule_id: str
    category: str
    severity: Severity
    message: str
    path: str
    line: int
    column: int
    end_line: int
    snippet: str
    fingerprint: str
    source: Source = Source()
    # sha256 of the matched text (for secrets: of the secret itself). Never the value.
    match_hash: str = ""
    suppressed: bool = False
    # why: "" or "inline" (a comment on the line), "baseline", "config" (per-path ignores)
    suppressed_by: str = ""

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.rule_id)


class ScanError(NamedTuple):
    """An input that could not be scanned (unreadable file, regex timeout): reported, not fatal."""

    path: str
    message: str


class Stats(NamedTuple):
    files: int = 0
    bytes: int = 0
    units: int = 0
    seconds: float = 0.0
    suppressed: int = 0
    skipped: int = 0


class ShardInfo(NamedTuple):
    """Which part of a scan split with `check --shard K/N` a report covers: `indexes` is
    (K,) for one shard's report, the shards merged for a `wukong-lint merge` of them."""

    count: int
    indexes: tuple[int, ...]

    @property
    def label(self) -> str:
        """`2/3` for one shard; `1-3/3` (all merged), `1,3/3` (some) for merged ones."""
        if len(self.indexes) == 1:
            return f"{self.indexes[0]}/{self.count}"
        if self.indexes == tuple(range(1, self.count + 1)):
            return f"1-{self.count}/{self.count}"
        return f"{','.join(map(str, self.indexes))}/{self.count}"

    @property
    def missing(self) -> tuple[int, ...]:
        return tuple(k for k in range(1, self.count + 1) if k not in self.indexes)


class Report(NamedTuple):
    findings: tuple[Finding, ...]
    stats: Stats
    errors: tuple[ScanError, ...] = ()
    # set by `check --shard K/N` (and by `merge`): the part of the scan this report covers
    shard: ShardInfo | None = None

    def failing(self, threshold: Severity) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if not f.suppressed and f.severity >= threshold)

    @property
    def active(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if not f.suppressed)


_SHA256: Any = None


def _sha256(data: bytes) -> str:
    # The built-in SHA-256 imports in microseconds; hashlib loads OpenSSL first (~4 ms, paid on
    # every failing pre-commit run). Same digest either way. Resolved once: a failed import is
    # retried on every call, and that search of sys.path is slow.
    global _SHA256
    if _SHA256 is None:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found]  # Python 3.12+
        except ImportError:
            try:
                from _sha256 import sha256  # type: ignore[import-not-found,no-redef]
            except ImportError:
                from hashlib import sha256  # type: ignore[no-redef]
        _SHA256 = sha256
    return _SHA256(data).hexdigest()


def sha256_hex(text: str) -> str:
    return _sha256(text.encode("utf-8", "surrogatepass"))


def fingerprint(rule_id: str, path: str, match_hash: str, occurrence: int) -> str:
    """A stable identity for a finding that survives line shifts.

    It depends on what was found and where (file), plus the occurrence number of the same
    value in the same file, so that moving a secret keeps its fingerprint while a second copy
    gets a new one.
    """
    raw = f"{rule_id}\0{path}\0{match_hash}\0{occurrence}".encode("utf-8", "surrogatepass")
    if _SHA256 is None:  # (resolved by the first hash; after it, no call of _sha256)
        return _sha256(raw)[:32]
    return _SHA256(raw).hexdigest()[:32]
