"""Avatars summoned the way earlier Wukong releases did it: `Task(subagent_type=
"general-purpose", prompt=<the avatar's skill file> + the task)`. The avatar is the one whose
skill opens the prompt (protocol/spawn_types.py), so its Do/Don't and its spawn rules apply as
to `subagent_type="eye"`. A real session file, the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import wukong_report
from wukong_lint.protocol.spawn_types import skill_avatar, spawn_type

CHECKPOINT = (
    "CHECKPOINT\nQ0 skill: no\nQ1 explore: yes\nQ2 code change: no\nQ3 design: no\n"
    "Q4 files: 1\nDecision: summon @eye (explorer)"
)
EXPLORER = "# Explorer Skill (探索技能)\n\nYou are **眼分身** - the Eye Avatar.\n\n## YOUR TASK\n"


def _session(tmp: Path, prompt: str, background: bool, sub_tool: str) -> Path:
    prompt += "find the config loader"
    spawn = {"subagent_type": "general-purpose", "prompt": prompt,
             "description": "explore", "run_in_background": background}  # fmt: skip
    base = {"sessionId": "s", "cwd": "/tmp/proj"}
    side = {**base, "isSidechain": True, "agentId": "e1"}
    records = [
        {"type": "user", "message": {"role": "user", "content": "where is the config loaded?"}},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": CHECKPOINT}]}},
        {"type": "assistant", "message": {"content": [
            {"type": "tool_use", "id": "t1", "name": "Task", "input": spawn}]}},
        {"type": "user", "message": {"role": "user", "content": prompt}, **side,
         "parentUuid": None},
        {"type": "assistant", "message": {"content": [
            {"type": "tool_use", "id": "c1", "name": sub_tool,
             "input": {"file_path": "/tmp/proj/a.py", "old_string": "a", "new_string": "b"}}]},
         **side},
        {"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": "ok"}]}, **side},
        {"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "t1",
             "content": "files: a.py\nfindings: a.py:1 loader\nsummary: in a.py\nagentId: e1"}]}},
    ]  # fmt: skip
    path = tmp / "s.jsonl"
    path.write_text("".join(json.dumps({**base, **r}) + "\n" for r in records), "utf-8")
    return path


def _rules(path: Path) -> set[str]:
    return {f["rule_id"] for f in wukong_report(path)}


def test_an_explorer_skill_spawned_as_general_purpose_is_the_eye(tmp_path):
    found = _rules(_session(tmp_path, EXPLORER, background=False, sub_tool="Edit"))
    assert "avatar-boundary.background-required" in found  # 眼 runs in the background
    assert "avatar-boundary.forbidden-tool" in found  # 眼 does not edit


def test_a_general_purpose_agent_without_a_skill_is_no_avatar(tmp_path):
    found = _rules(_session(tmp_path, "Please look around. ", background=False, sub_tool="Edit"))
    assert "avatar-boundary.background-required" not in found
    assert "avatar-boundary.forbidden-tool" not in found


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [("# Explorer Skill (探索技能)\nYou are **眼分身**", "eye"),
     ("# Implementer Skill (代码实现技能)\n\nYou are **斗战胜佛** - 战神", "body"),
     ("# Requirements Analyst Skill\nYou are **需求悟空**", "ear"),
     ("# Code Reviewer Skill (代码审查技能)\n", "nose"),
     ("# Test Engineer Skill (测试工程技能)\n", "tongue"),
     ("# System Architect Skill (系统架构技能)\n", "mind"),
     ("# 意分身\n设计缓存", "mind"),
     ("Read the explorer skill docs and summarise them", None),
     ("Implement the Implementer Skill page of the docs site", None),
     ("fix a.py", None)],
)  # fmt: skip
def test_skill_openings(prompt, expected):
    assert skill_avatar(prompt) == expected


def test_a_named_avatar_is_kept():
    assert spawn_type({"subagent_type": "eye", "prompt": "# Implementer Skill"}) == "eye"
    assert spawn_type({"subagent_type": "general-purpose", "prompt": "hi"}) == "general-purpose"
    assert spawn_type({"prompt": "# Implementer Skill"}) == "body"
    assert spawn_type("not a dict") is None
