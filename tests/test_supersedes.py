"""A path rule's `supersedes`: one event, one finding. Profile wukong's denial of reading a
secrets file replaces the generic 'touches a secrets file' finding on that read; each place
of the command is replaced on its own (writing a secrets file is no finding of either since
issue 26: what the agent writes is already in its context)."""

from __future__ import annotations

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model.events import Context, call_event, make_unit

READ = "sensitive-path.wukong-secret-file-read"
TOUCH = "sensitive-path.secret-file"


def _rules(profile: str, command: str) -> list[str]:
    ctx = Context(profile, False, {}, "/home/dev/project")
    event, text = call_event(ctx, 1, "Bash", {"command": command}, None, "main", None, True)
    found, errors = scan_unit(load_rules(), make_unit("<hook>", event, text))
    assert errors == []
    return sorted(f.rule_id for f in found if f.category == "sensitive-path")


def test_the_wukong_read_finding_replaces_the_generic_one():
    assert _rules("generic", "cat .env") == [TOUCH]
    assert _rules("wukong", "cat .env") == [READ]


def test_each_place_is_replaced_on_its_own():
    assert _rules("generic", "cat .env && cat secrets.yaml") == [TOUCH, TOUCH]
    assert _rules("wukong", "cat .env && cat secrets.yaml") == [READ, READ]
    assert _rules("wukong", "cat .env && echo x > secrets.yaml") == [READ]
