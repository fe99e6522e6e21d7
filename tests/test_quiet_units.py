"""Transcript units that no rule can reach are counted, not made (`Session.unit`, `Quiet`):
a scan gives exactly what scanning every unit gives.

Each transcript is scanned twice in process: by `tally` as the CLI does (its sessions know
the rule set, so a record that meets no rule becomes a `Quiet` count) and by scanning the
units of a read made outside any tally (every unit made, the path before the short cut).
Findings, errors, files, bytes and units must be equal, with every profile.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wukong_lint.engine import scan
from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import Counter, Quiet, reaching, scan_unit, tally
from wukong_lint.sources import transcripts

RULES = load_rules().select(lambda rule: rule.enabled)
FIXTURES = Path(__file__).parent / "fixtures"
GHP = "ghp_" + "Zq7Lm2Rx9Tb4Wc8Nd1Vf6Hk3Jp5Ys0Ga2Qe7"


def _record(kind: str, content: object, **extra: object) -> str:
    return json.dumps({"type": kind, "message": {"role": kind, "content": content}, **extra})


def _hostile(folder: Path) -> Path:
    """A session with what a reader turns into units in odd ways: a line that is not JSON
    (salvaged as a raw message and a call), blank lines, a keyword only after lower-casing
    a non-ASCII letter (U+212A KELVIN SIGN lowers to `k`), escapes, a call without id."""
    lines = [
        _record("user", "plain words, nothing to see"),
        _record("assistant", [{"type": "text", "text": "no keyword here either"}]),
        '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input"'
        ':{"command":"echo hello',  # cut short: not JSON
        "",
        "   ",
        _record("user", "ASIA IS A \u212aEYWORD TEST: s\u212a-live and \u0130stanbul"),
        # (written by hand: the keyword `ghp_` is there only once the escapes are decoded)
        '{"type":"user","message":{"role":"user","content":"token\\u003d gh\\u0070_'
        + GHP[4:]
        + ' and \\"quoted\\" text"}}',
        _record("assistant", [{"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}]),
        _record(
            "assistant",
            [{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": ".env"}}],
        ),
        _record("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "A=1\nB=2"}]),
        json.dumps({"type": "summary", "summary": "a summary without secrets"}),
        json.dumps({"type": "progress", "data": {"note": f"GITHUB_TOKEN={GHP}"}}),
        _record("user", "the last words"),
    ]
    path = folder / "hostile.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _every_unit(path: Path) -> tuple[list, list, int, int, int]:
    """Findings, errors, files, bytes, units of scanning every unit a plain read makes."""
    assert reaching() is None
    units = list(transcripts.open_transcript(str(path), str(path)))  # (no tally: no Quiet)
    assert not any(type(u) is Quiet for u in units)
    counter = Counter()
    for unit in units:
        if counter.count(unit):
            counter.add(*scan_unit(RULES, unit))
    return counter.findings, counter.errors, counter.files, counter.size, counter.units


def _cases(tmp: Path) -> list[Path]:
    paths = sorted((FIXTURES / "transcripts").glob("*.json*"))
    paths += sorted((FIXTURES / "protocol").glob("*.jsonl"))
    paths += [FIXTURES / "transcripts" / "react-history.txt", _hostile(tmp)]
    return paths


@pytest.mark.parametrize("profile", [None, "generic", "wukong"])
def test_quiet_units_change_nothing(tmp_path: Path, profile: str | None) -> None:
    quiet = 0
    try:
        for path in _cases(tmp_path):
            fmt = "react" if path.suffix == ".txt" else None
            transcripts.configure(profile, None, fmt)
            expected = _every_unit(path)
            got = tally(RULES, transcripts.open_transcript(str(path), str(path)))
            assert (got.findings, got.errors, got.files, got.bytes, got.units) == expected, path
            assert got.units > 0
            # the units the short cut left unmade (read as a tally reads them)
            scan._REACHING.append(RULES)
            try:
                made = list(transcripts.open_transcript(str(path), str(path)))
            finally:
                scan._REACHING.pop()
            quiet += sum(1 for u in made if type(u) is Quiet)
    finally:
        transcripts.configure()
    assert quiet > 0  # the short cut was taken, and changed nothing


def test_hostile_session_is_scanned_as_before(tmp_path: Path) -> None:
    """The secret in a record no reader understands, the malformed line's salvaged command
    and its integrity finding are all still found with the short cut."""
    path = _hostile(tmp_path)
    transcripts.configure("generic", None, None)
    try:
        got = tally(RULES, transcripts.open_transcript(str(path), str(path)))
    finally:
        transcripts.configure()
    rules = {f.rule_id for f in got.findings}
    assert "transcript-integrity.malformed-record" in rules
    assert "secret.github-pat" in rules
    assert {f.line for f in got.findings if f.rule_id == "secret.github-pat"} == {7, 12}
    assert reaching() is None  # the tally's rule set is forgotten when it ends


def test_a_session_made_outside_a_scan_makes_every_unit(tmp_path: Path) -> None:
    """The hook and the rule examples read sessions outside any tally: no unit is left
    unmade there (they scan the units with rules of their own)."""
    path = _hostile(tmp_path)
    units = list(transcripts.open_transcript(str(path), str(path)))
    assert units and not any(type(u) is Quiet for u in units)


@pytest.mark.pure_python  # (patches Prefilter.hits)
def test_a_unit_out_of_memory_is_reported_and_the_rest_scanned(tmp_path: Path, monkeypatch) -> None:
    """A MemoryError while the short cut searches a text is the scan's to report, for that
    unit only (as when the scan searched it): the records after it are still scanned."""
    from wukong_lint.engine import rules as rules_module

    real = rules_module.Prefilter.hits

    def hits(self, text):  # type: ignore[no-untyped-def]
        if "nothing to see" in text:
            raise MemoryError
        return real(self, text)

    monkeypatch.setattr(rules_module.Prefilter, "hits", hits)
    path = _hostile(tmp_path)
    got = tally(RULES, transcripts.open_transcript(str(path), str(path)))
    assert [e.path for e in got.errors if scan.is_out_of_memory(e)] == [str(path)]
    assert {f.line for f in got.findings if f.rule_id == "secret.github-pat"} == {7, 12}


def _cut_arrays(folder: Path) -> list[Path]:
    """JSON-array transcripts cut short in their last element (a Claude `loglines` export and
    an OpenAI chat array): the reader reports the broken rest as a malformed record."""
    loglines = folder / "export.json"
    loglines.write_text(
        '{"loglines": [\n' + _record("user", "hello there") + ",\n"
        '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"cut',
        encoding="utf-8",
    )
    chat = folder / "chat.json"
    chat.write_text(
        '[\n{"role":"user","content":"hello there"},\n{"role":"assistant","content":"cut sho',
        encoding="utf-8",
    )
    return [loglines, chat]


def test_a_selection_that_leaves_integrity_units_quiet_changes_nothing(tmp_path: Path) -> None:
    """With only the secret rules running, a malformed record's integrity unit meets no rule
    and is counted, not made: the readers of JSON arrays must not hand on that absence as a
    record (it crashed the Claude reader and made the OpenAI reader count a unit twice)."""
    global RULES
    saved = RULES
    RULES = saved.select(lambda rule: rule.category == "secret")
    try:
        for path in [*_cases(tmp_path), *_cut_arrays(tmp_path)]:
            fmt = "react" if path.suffix == ".txt" else None
            transcripts.configure("wukong", None, fmt)
            expected = _every_unit(path)
            got = tally(RULES, transcripts.open_transcript(str(path), str(path)))
            assert (got.findings, got.errors, got.files, got.bytes, got.units) == expected, path
    finally:
        RULES = saved
        transcripts.configure()


def _failing_read(monkeypatch, at: int) -> None:
    """The JSONL decoder's input fails with a disk error at the `at`-th record: a real
    mid-file read error cannot be made on this machine (root reads any file)."""
    from wukong_lint.sources.transcripts import stream

    real, seen = stream.loads, [0]

    def loads(raw):  # type: ignore[no-untyped-def]
        seen[0] += 1
        if seen[0] == at:
            raise OSError(5, "Input/output error")
        return real(raw)

    monkeypatch.setattr(stream, "loads", loads)


@pytest.mark.parametrize("at", [3, 10])
def test_units_read_before_a_disk_error_still_count(tmp_path: Path, monkeypatch, at) -> None:
    path = FIXTURES / "transcripts" / "session-1.jsonl"
    transcripts.configure("generic", None, None)
    try:
        _failing_read(monkeypatch, at)
        expected = _every_unit(path)  # (the error is the reader's own: ScanError, not raised)
        _failing_read(monkeypatch, at)
        got = tally(RULES, transcripts.open_transcript(str(path), str(path)))
    finally:
        transcripts.configure()
    assert (got.findings, got.errors, got.files, got.bytes, got.units) == expected
    assert got.units > 0 and [e.message for e in got.errors] == ["cannot read: Input/output error"]


def test_a_transcript_unreadable_midway_fails_the_check(tmp_path: Path, monkeypatch, capsys):
    """Fail closed: a file the user named that could not be read to its end is exit 2, unless
    --allow-skipped accepts it."""
    from wukong_lint.cli import main

    path = FIXTURES / "transcripts" / "session-1.jsonl"
    _failing_read(monkeypatch, 10)
    assert main(["check", "--format", "json", "--jobs", "1", str(path)]) == 2
    err = capsys.readouterr().err
    assert "cannot read: Input/output error" in err and "1 input(s) not scanned: unreadable" in err
    _failing_read(monkeypatch, 10)
    code = main(["check", "--format", "json", "--jobs", "1", "--allow-skipped", str(path)])
    assert code in (0, 1)
