"""A secret repeated in a big file read in parts (sources/chunked.py) keeps the fingerprints
of a whole read: one per occurrence, distinct, stable across the part boundaries. (Each part
counted its occurrences from zero: the third copy had the first copy's fingerprint, so a
baseline or a SARIF consumer took different findings for the same one.)"""

from __future__ import annotations

import json

import pytest

from wukong_lint.cli import main
from wukong_lint.sources import chunked, dispatch

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8"


def log(copies: int, lines: int = 3000) -> str:
    out = []
    for n in range(lines):
        out.append(f"2024-05-01 12:00:{n % 60:02d} INFO served /api/items?id={n} in 3 ms\n")
        if n % (lines // copies) == 7:
            out.append(f"export GH_TOKEN={TOKEN}\n")
    return "".join(out)


def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parts of 16 KB overlapping by 4 KB: the file's copies fall in many parts."""
    monkeypatch.setattr(dispatch, "WHOLE_FILE_LIMIT", 20_000)
    monkeypatch.setattr(chunked, "CHUNK_BYTES", 16_384)
    monkeypatch.setattr(chunked, "CHUNK_OVERLAP", 4_096)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["check", "--jobs", "1", "--format", "json", "--select", "secret", *args])
    return code, json.loads(capsys.readouterr().out)


def findings(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict]]:
    code, report = run(capsys, *args)
    return code, report["findings"]


def test_repeated_secret_keeps_whole_read_fingerprints(tmp_path, monkeypatch, capsys):
    path = tmp_path / "app.log"
    path.write_text(log(12))
    _, whole = findings(capsys, str(path))
    small_parts(monkeypatch)
    code, parts = findings(capsys, str(path))
    assert code == 1 and len(parts) == len(whole) == 12
    assert [(f["line"], f["fingerprint"]) for f in parts] == [
        (f["line"], f["fingerprint"]) for f in whole
    ]
    assert len({f["fingerprint"] for f in parts}) == 12  # one per occurrence


def test_baseline_of_a_big_file_reports_only_a_new_copy(tmp_path, monkeypatch, capsys):
    small_parts(monkeypatch)
    path = tmp_path / "app.log"
    path.write_text(log(10))
    baseline = tmp_path / "baseline.json"
    args = ["--select", "secret", "--jobs", "1", "-o", str(baseline), str(path)]
    assert main(["baseline", "create", *args]) == 0
    capsys.readouterr()
    code, report = run(capsys, "--baseline", str(baseline), str(path))
    assert code == 0 and report["stats"]["suppressed"] == 10, report["stats"]
    assert [f for f in report["findings"] if not f.get("suppressed")] == []
    with open(path, "a") as handle:  # one more copy, at the end of the last part
        handle.write(f"export GH_TOKEN={TOKEN}\n")
    code, report = run(capsys, "--baseline", str(baseline), str(path))
    new = [f for f in report["findings"] if not f.get("suppressed")]
    assert code == 1 and report["stats"]["suppressed"] == 10
    assert len(new) == 1 and new[0]["line"] == path.read_text().count("\n")
