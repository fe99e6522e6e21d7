"""A Claude Code session is one unit however it is named (issue 29): the session file, a
`subagents/agent-*.jsonl` file, the `subagents/` folder or the session folder. A sub-agent
transcript named without its session file is read in full, with the session read for
context when it exists (and a note either way), never skipped in silence."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_named_inputs import wukong

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
SUB_ID = "a2898e3"


def _line(record: dict) -> str:
    return json.dumps(record) + "\n"


def _session(root: Path, with_parent: bool = True) -> tuple[Path, Path]:
    """A session that spawns a `code-reviewer` sub-agent whose own file prints a token."""
    parent = root / "proj" / "s1.jsonl"
    subs = root / "proj" / "s1" / "subagents"
    subs.mkdir(parents=True)
    if with_parent:
        parent.write_text(
            _line({"type": "user", "uuid": "u1", "parentUuid": None,
                   "message": {"role": "user", "content": "review the deploy script"}})
            + _line({"type": "assistant", "uuid": "u2", "parentUuid": "u1",
                     "message": {"role": "assistant", "content": [
                         {"type": "tool_use", "id": "toolu_t", "name": "Task",
                          "input": {"subagent_type": "code-reviewer", "prompt": "look"}}]}})
            + _line({"type": "user", "uuid": "u3", "parentUuid": "u2",
                     "toolUseResult": {"agentId": SUB_ID},
                     "message": {"role": "user", "content": [
                         {"type": "tool_result", "tool_use_id": "toolu_t",
                          "content": "done"}]}}),
            encoding="utf-8",
        )  # fmt: skip
    sub = subs / f"agent-{SUB_ID}.jsonl"
    sub.write_text(
        _line({"type": "user", "uuid": "s1", "parentUuid": None, "isSidechain": True,
               "message": {"role": "user", "content": "look"}})
        + _line({"type": "assistant", "uuid": "s2", "parentUuid": "s1", "isSidechain": True,
                 "message": {"role": "assistant", "content": [
                     {"type": "tool_use", "id": "toolu_b", "name": "Bash",
                      "input": {"command": "cat scripts/deploy.sh"}}]}})
        + _line({"type": "user", "uuid": "s3", "parentUuid": "s2", "isSidechain": True,
                 "message": {"role": "user", "content": [
                     {"type": "tool_result", "tool_use_id": "toolu_b",
                      "content": f"GH_TOKEN={TOKEN}"}]}}),
        encoding="utf-8",
    )  # fmt: skip
    (subs / f"agent-{SUB_ID}.meta.json").write_text('{"agentType": "code-reviewer"}')
    return parent, sub


def _secrets(stdout: str) -> list[tuple[str, int, str]]:
    report = json.loads(stdout)
    assert report["stats"]["units"] > 0
    return [
        (f["path"].rsplit("/", 1)[-1], f["line"], f["rule_id"])
        for f in report["findings"]
        if f["rule_id"].startswith("secret.")
    ]


def test_a_subagent_file_named_in_every_way_is_scanned(tmp_path: Path):
    _, sub = _session(tmp_path)
    expected = [(sub.name, 3, "secret.github-pat")]
    for named in (sub, sub.parent, sub.parent.parent):
        proc = wukong("check", "--format", "json", str(named.relative_to(tmp_path)),
                      cwd=tmp_path)  # fmt: skip
        assert proc.returncode == 1, proc.stderr
        assert _secrets(proc.stdout) == expected
        assert "read with that session for context" in proc.stderr
        assert "proj/s1.jsonl" in proc.stderr
        assert TOKEN not in proc.stdout + proc.stderr
    # the sub-agent's type comes from its session: the finding names it
    proc = wukong("check", str(sub), cwd=tmp_path)
    assert f"code-reviewer:{SUB_ID}" in proc.stdout


def test_a_session_named_with_its_subagent_file_reads_it_once(tmp_path: Path):
    parent, sub = _session(tmp_path)
    for args in ([str(parent)], [str(parent), str(sub)], [str(tmp_path / "proj")]):
        proc = wukong("check", "--format", "json", *args, cwd=tmp_path)
        assert proc.returncode == 1, proc.stderr
        assert _secrets(proc.stdout) == [(sub.name, 3, "secret.github-pat")]
        assert "sub-agent transcript" not in proc.stderr  # its session reads it


def test_a_subagent_file_without_its_session_is_read_alone(tmp_path: Path):
    _, sub = _session(tmp_path, with_parent=False)
    for named in (sub, sub.parent):
        proc = wukong("check", "--format", "json", str(named), cwd=tmp_path)
        assert proc.returncode == 1, proc.stderr
        assert _secrets(proc.stdout) == [(sub.name, 3, "secret.github-pat")]
        assert "session file not found, read alone" in proc.stderr


def test_zero_units_from_a_non_empty_transcript_is_an_error(tmp_path: Path, monkeypatch):
    from wukong_lint.model import ScanError
    from wukong_lint.sources import transcripts

    path = tmp_path / "t.jsonl"
    path.write_text('{"type": "user", "message": {"role": "user", "content": "hi"}}\n')
    monkeypatch.setattr(transcripts, "transcript_units", lambda *a: iter(()))
    items = list(transcripts.open_transcript(str(path), "t.jsonl"))
    assert len(items) == 1 and isinstance(items[0], ScanError)
    assert items[0].message.startswith("cannot read")  # fails the run: engine.scan.is_unread
