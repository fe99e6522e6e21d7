"""Lines of any length are scanned (issue 29): a plain-text line longer than a big file's part
is read in overlapping parts with exact columns, and a transcript record too large to parse
(over 32 MiB) is scanned as text in parts and reported as a low integrity finding."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from wukong_lint.cli import main
from wukong_lint.sources import chunked, dispatch
from wukong_lint.sources.transcripts import stream

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def token(rng: random.Random) -> str:
    return "ghp_" + "".join(rng.choice(ALPHABET) for _ in range(36))


def findings(capsys, path: Path, *args: str) -> list[dict]:
    main(["check", "--format", "json", "-o", "-", "--exit-zero", *args, str(path)])
    return json.loads(capsys.readouterr().out)["findings"]


def one_line(size: int, marks: list[int], rng: random.Random) -> tuple[str, list[int]]:
    """A minified one-line dump of about `size` characters with a token at each mark (their
    columns returned)."""
    parts: list[str] = []
    length = 0
    columns = []
    marks = sorted(marks)
    while length < size:
        if marks and length >= marks[0]:
            marks.pop(0)
            piece = '{"token":"'
            columns.append(length + len(piece) + 1)
            piece += token(rng) + '"},'
        else:
            piece = '{"row":"' + "y" * 90 + '"},'
        parts.append(piece)
        length += len(piece)
    return "".join(parts), columns


def test_a_plain_line_longer_than_a_part_is_scanned_whole_with_exact_columns(
    tmp_path: Path, capsys, monkeypatch
):
    # small parts (the real ones are 8 MiB with 1 MiB overlap): the same cuts, in kilobytes
    monkeypatch.setattr(dispatch, "WHOLE_FILE_LIMIT", 50_000)
    monkeypatch.setattr(chunked, "CHUNK_BYTES", 16_384)
    monkeypatch.setattr(chunked, "CHUNK_OVERLAP", 4_096)
    rng = random.Random(29)
    line, columns = one_line(200_000, [100, 16_370, 40_000, 131_000, 199_000], rng)
    path = tmp_path / "dump.txt"
    path.write_text("first line\n" + line + "\nlast " + token(rng) + "\n", encoding="utf-8")
    found = [(f["line"], f["column"]) for f in findings(capsys, path)]
    assert found == [(2, c) for c in columns] + [(3, 6)]


@pytest.mark.slow
def test_a_record_over_32_mib_is_scanned_as_text_and_reported(tmp_path: Path, capsys):
    rng = random.Random(7)
    line, _ = one_line(34 << 20, [1 << 20, 17 << 20, 33 << 20], rng)
    assert len(line) > stream.LINE_LIMIT
    first = {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s1",
             "message": {"role": "user", "content": "print the dump"}}  # fmt: skip
    big = {"type": "user", "uuid": "u2", "parentUuid": "u1", "sessionId": "s1",
           "message": {"role": "user", "content": "x"},
           "toolUseResult": {"stdout": line}}  # fmt: skip
    after = {**first, "uuid": "u3", "parentUuid": "u2",
             "message": {"role": "user", "content": "and " + token(rng)}}  # fmt: skip
    path = tmp_path / "session.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for record in (first, big, after):
            handle.write(json.dumps(record) + "\n")
    found = findings(capsys, path, "--jobs", "1")
    secrets = [f["line"] for f in found if f["rule_id"] == "secret.github-pat"]
    assert secrets == [2, 2, 2, 3]  # all three in the dump, and the record after it is read
    integrity = [f for f in found if f["rule_id"] == "transcript-integrity.malformed-record"]
    assert [(f["line"], f["severity"]) for f in integrity] == [(2, "low")]
