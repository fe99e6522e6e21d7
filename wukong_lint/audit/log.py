"""Append and read audit records (`$STATE/wukong-lint/audit/YYYY-MM-DD.jsonl`)."""

from __future__ import annotations

import json
import os
import time
from typing import Any, NamedTuple

MODES = ("decisions", "all", "off")  # the config's `audit:` (decisions: every non-allow)
DEFAULT_MODE = "decisions"
MAX_DAY = 32 << 20  # bytes of one day's file: past it, records of that day are dropped
MAX_SUBJECT = 2000  # characters of the command or path kept in a record
VERDICTS = ("deny", "ask", "allow", "redact")  # (redact: a session file cleaned)


class Record(NamedTuple):
    time: str  # UTC, ISO 8601
    agent: str
    session: str | None
    cwd: str | None
    event: str  # the agent's own event name
    tool: str | None
    subject: str | None  # the command, path or `<prompt>`: masked
    verdict: str
    rules: tuple[str, ...]
    latency_ms: float

    def to_json(self) -> str:
        data = self._asdict()
        data["rules"] = list(self.rules)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def audit_dir() -> str | None:
    explicit = os.environ.get("WUKONG_LINT_AUDIT_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    if base.startswith("~"):  # no home folder
        return None
    return os.path.join(base, "wukong-lint", "audit")


def wanted(mode: str | None, verdict: str) -> bool:
    mode = mode or DEFAULT_MODE
    return mode == "all" or (mode == "decisions" and verdict != "allow")


def mask(subject: str | None, ruleset: Any = None) -> str | None:
    """The subject with its secrets replaced by `[REDACTED:rule-id]` (and cut to
    MAX_SUBJECT characters); withheld whole when it cannot be masked."""
    if subject is None:
        return None
    try:
        from wukong_lint.engine.masking.redactor import Redactor

        if ruleset is None:
            from wukong_lint.engine.loader import load_rules

            ruleset = load_rules((), details=False)
        masked = Redactor(ruleset).text(subject[: MAX_SUBJECT * 2])
    except Exception:  # masking must never let a secret through: keep nothing
        return "(withheld: could not be masked)"
    return masked if len(masked) <= MAX_SUBJECT else masked[:MAX_SUBJECT] + "…"


def append(record: Record, folder: str | None = None) -> str | None:
    """Write one record; the path written, or None (no folder, capped, or a write error:
    never raised)."""
    folder = folder or audit_dir()
    if not folder:
        return None
    path = os.path.join(folder, record.time[:10] + ".jsonl")
    try:
        from wukong_lint.util.fsutil import append_record

        os.makedirs(folder, mode=0o700, exist_ok=True)
        return path if append_record(path, record.to_json(), MAX_DAY) else None
    except (OSError, ValueError):
        return None


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def parse_since(text: str) -> float:
    """`30m`, `12h`, `1d`, `2w` (ago) or a date `YYYY-MM-DD` as a Unix time; ValueError."""
    units = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
    text = text.strip()
    if text[-1:] in units and text[:-1].isdigit():
        return time.time() - int(text[:-1]) * units[text[-1]]
    import calendar

    return float(calendar.timegm(time.strptime(text, "%Y-%m-%d")))


def read(since: float | None = None, verdict: str | None = None,
         folder: str | None = None) -> tuple[list[dict[str, Any]], int]:  # fmt: skip
    """(records, lines that could not be read) of the log, oldest first."""
    folder = folder or audit_dir()
    if not folder or not os.path.isdir(folder):
        return [], 0
    first_day = time.strftime("%Y-%m-%d", time.gmtime(since)) if since is not None else ""
    records: list[dict[str, Any]] = []
    bad = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".jsonl") or name[:10] < first_day:
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            bad += 1
            continue
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                bad += 1
                continue
            if not isinstance(record, dict) or not isinstance(record.get("time"), str):
                bad += 1
                continue
            if since is not None and _stamp(record["time"]) < since:
                continue
            if verdict and record.get("verdict") != verdict:
                continue
            records.append(record)
    return records, bad


def _stamp(text: str) -> float:
    import calendar

    try:
        return float(calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return 0.0
