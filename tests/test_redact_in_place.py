"""`redact --in-place PATH...`: sessions, sub-agent files, folders and --agent-history cleaned
where they are: atomically, mode and mtime kept, every record still loads and keeps its ids,
a manifest without the secret, --dry-run, --backup DIR (0600), and a session an agent is
still appending to loses no line and gets no cut line."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

from wukong_lint.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "history"
TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
STRIPE = "sk_live_" + "Ot8AvlknV8DstR6Dpsyzouga"


def history(tmp_path: Path) -> Path:
    root = tmp_path / "history"
    for agent in ("claude", "codex", "gemini"):
        shutil.copytree(FIXTURES / agent, root / agent)
    return root


def ids(path: Path) -> list[object]:
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)  # every record still loads
        found.append((record.get("uuid"), record.get("id"), record.get("tool_id")))
    return found


def test_folders_are_cleaned_in_place_keeping_mode_mtime_and_ids(tmp_path: Path, capsys):
    root = history(tmp_path)
    jsonl = sorted(root.rglob("*.jsonl"))
    old = time.time() - 5 * 86400
    for path in jsonl:
        os.chmod(path, 0o640)
        os.utime(path, (old, old))
    before = {p: ids(p) for p in jsonl}
    originals = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    manifest = tmp_path / "manifest.jsonl"
    backup = tmp_path / "backup"
    code = main(["redact", "--in-place", str(root), "--manifest", str(manifest),
                 "--backup", str(backup)])  # fmt: skip
    assert code == 0
    err = capsys.readouterr().err
    assert "redacted on 72 line(s)" in err
    for path in jsonl:
        assert ids(path) == before[path]
        info = path.stat()
        assert stat.S_IMODE(info.st_mode) == 0o640 and abs(info.st_mtime - old) < 1
    entries = [json.loads(line) for line in manifest.read_text().splitlines()]
    assert len(entries) == 72 and all(set(e) == {"file", "line", "rules"} for e in entries)
    changed = {e["file"] for e in entries}
    for path, data in originals.items():
        copy = backup / str(path.resolve()).lstrip(os.sep)
        if str(path) in changed:
            assert copy.read_bytes() == data and stat.S_IMODE(copy.stat().st_mode) == 0o600
            assert TOKEN not in path.read_text(encoding="utf-8")
    # clean now: check finds no secret, and a second run changes nothing
    main(["check", "--format", "json", "-o", "-", "--exit-zero", "--select", "secret", str(root)])
    assert json.loads(capsys.readouterr().out)["findings"] == []
    snapshot = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert main(["redact", "--in-place", str(root)]) == 0
    assert capsys.readouterr().out == ""
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == snapshot


def test_dry_run_lists_and_changes_nothing(tmp_path: Path, capsys):
    root = history(tmp_path)
    originals = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert main(["redact", "--in-place", "--dry-run", str(root / "gemini")]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines and "would be redacted" in err
    assert all("AIza" not in json.dumps(e) for e in lines)  # never the secret
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == originals


def test_a_named_session_cleans_its_subagents_and_agent_history_works(
    tmp_path: Path, capsys, monkeypatch
):
    home = tmp_path / "home"
    shutil.copytree(FIXTURES / "claude", home / ".claude")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    (session,) = (home / ".claude").rglob("7*.jsonl")
    (sub,) = (home / ".claude").rglob("agent-*.jsonl")
    assert main(["redact", "--in-place", str(session)]) == 0
    out = capsys.readouterr().out
    assert str(sub) in out and "[REDACTED:" in sub.read_text()
    assert main(["redact", "--in-place", "--agent-history", "claude-code", "--since", "1d"]) == 0
    assert main(["redact", "--agent-history", "-o", "x"]) == 2  # needs --in-place


APPENDER = r"""
import json, os, sys, time
path, count, token = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for n in range(count):
    line = json.dumps({"type": "user", "uuid": f"late-{n}", "seq": n,
                       "message": {"role": "user", "content": f"late {n} token {token}"}})
    line += "\n"
    if n % 7 == 3:  # a line written in two appends: the reader may meet half of it
        half = len(line) // 2
        for piece in (line[:half], line[half:]):
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            os.write(fd, piece.encode())
            os.close(fd)
            time.sleep(0.002)
    else:  # as an agent appends a record: open, append, close
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        os.write(fd, line.encode())
        os.close(fd)
    time.sleep(0.004)  # (over seconds: while the rewrites read and replace the file)
"""


def test_appends_during_redact_are_never_lost_or_cut(tmp_path: Path, capsys):
    session = tmp_path / "session.jsonl"
    filler = "x" * 2000
    with session.open("w", encoding="utf-8") as handle:
        for n in range(6000):
            content = f"line {n} {STRIPE if n % 50 == 0 else filler}"
            message = {"role": "user", "content": content}
            record = {"type": "user", "uuid": f"u-{n}", "seq": n, "message": message}
            handle.write(json.dumps(record) + "\n")
    warm = tmp_path / "warm.jsonl"  # (imports and rule compiling paid before the race)
    warm.write_text(json.dumps({"type": "user", "message": {"content": TOKEN}}) + "\n")
    assert main(["redact", "--in-place", str(warm)]) == 0
    capsys.readouterr()
    appender = subprocess.Popen([sys.executable, "-c", APPENDER, str(session), "800", TOKEN])
    try:
        time.sleep(0.2)  # (appending already)
        rounds = grew = 0
        while appender.poll() is None or rounds == 0:
            assert main(["redact", "--in-place", str(session)]) == 0
            grew += "appended meanwhile" in capsys.readouterr().err
            rounds += 1
    finally:
        appender.wait(timeout=60)
    lines = session.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""  # the file ends with a whole line
    records = [json.loads(line) for line in lines[:-1]]  # no cut line: every one loads
    uuids = [r["uuid"] for r in records]
    assert uuids[:6000] == [f"u-{n}" for n in range(6000)]
    assert sorted(u for u in uuids[6000:]) == sorted(f"late-{n}" for n in range(800))
    assert len(uuids) == 6800  # none lost, none twice
    assert STRIPE not in session.read_text(encoding="utf-8")
    assert rounds >= 1
    assert grew >= 1  # the race was run: a rewrite met lines appended while it read
