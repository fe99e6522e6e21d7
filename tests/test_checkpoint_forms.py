"""CHECKPOINTs written as keyed YAML-like lines or a JSON record (protocol/checkpoint_forms.py)
read as the numbered questions, with the same Layer 1 and Layer 2 verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import wukong_report
from wukong_lint.protocol.checkpoint import parse_checkpoint

YAML = """```yaml
checkpoint:
  skill_match: no
  explore: no
  code_change: yes, about {lines} lines
  design: no
  independent_files: 1
  decision: {decision}
```"""
JSON = (
    'CHECKPOINT {{"skill": false, "explore": false, "code_change": "yes, {lines} lines", '
    '"design": false, "files": 1, "decision": "{decision}"}}'
)


@pytest.mark.parametrize("form", [YAML, JSON])
def test_keyed_forms_read_as_the_questions(form):
    found = parse_checkpoint(form.format(lines=40, decision="summon @body"))
    assert found is not None
    assert (found.skill, found.explore, found.code, found.lines, found.design, found.files) == (
        False, False, True, 40, False, 1,
    )  # fmt: skip
    assert found.decision == "delegate" and found.avatars == ("body",)


def test_numbered_answers_win_over_keyed_ones():
    text = "CHECKPOINT\nQ1: yes\nexplore: no\nQ2: no\nDecision: summon @eye"
    found = parse_checkpoint(text)
    assert found is not None and found.explore is True


def test_keys_outside_a_checkpoint_are_not_answers():
    assert parse_checkpoint("files: a.py, b.py\ndesign: a cache\nexplore: done") is None


def _session(tmp: Path, text: str) -> Path:
    edit = {"file_path": "/tmp/p/a.py", "old_string": "a", "new_string": "\n".join("x" * 40)}
    records = [
        {"type": "user", "message": {"role": "user", "content": "add retries to a.py"}},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": text}]}},
        {"type": "assistant", "message": {"content": [
            {"type": "tool_use", "id": "t1", "name": "Edit", "input": edit}]}},
        {"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    ]  # fmt: skip
    path = tmp / "s.jsonl"
    path.write_text("".join(json.dumps({"cwd": "/tmp/p", **r}) + "\n" for r in records))
    return path


def _rules(path: Path) -> set[str]:
    return {f["rule_id"] for f in wukong_report(path, "--select", "body-boundary")}


@pytest.mark.parametrize("form", [YAML, JSON])
def test_a_keyed_checkpoint_is_a_checkpoint_and_its_decision_is_judged(form, tmp_path):
    found = _rules(_session(tmp_path, form.format(lines=40, decision="execute directly (body)")))
    assert not any("checkpoint-missing" in r or "incomplete" in r for r in found), found
    assert any("decision" in r for r in found), found  # 40 lines but 本体执行: to 身


@pytest.mark.parametrize(
    ("text", "added"),
    [
        ("CHECKPOINT\nQ1. yes\nQ2. no", ""),  # the numbered form: nothing keyed
        ("CHECKPOINT\rexplore: yes", "\nQ1: yes"),  # a break only splitlines() sees
        ("CHECKPOINT\u2028explore: yes\x85files: 3", "\nQ1: yes\nQ4: 3"),
        ("CHECKPOINT x\r\ncode_change: 40 lines", "\nQ2: 40 lines"),
        ("explore: yes", ""),  # no marker: not a CHECKPOINT
    ],
)
def test_keyed_lines_at_every_line_break(text: str, added: str) -> None:
    """Keyed answers are found on the lines str.splitlines() makes (the shortcut for texts
    without a keyed line must not miss one after a \\r or a U+2028)."""
    from wukong_lint.protocol.checkpoint_forms import keyed_questions

    assert keyed_questions(text) == text + added
