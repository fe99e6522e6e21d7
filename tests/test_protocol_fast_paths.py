"""The short cuts of the 戒 protocol checks find exactly what the plain checks find.

- A turn-budget group's gate made from its rules' limits (`gate_for`) turns away only calls on
  which none of those rules finds anything.
- The long-operation rules' memo (`memo_key`) gives the hits that running them gives.
"""

from __future__ import annotations

import itertools

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.rules import RuleSet
from wukong_lint.model.events import Context, Event, make_unit
from wukong_lint.protocol import behaviour

RULES = load_rules()
BUDGET = [r for r in RULES.rules if r.kind == "turn-budget"]
LONG = [r for r in RULES.rules if r.kind == "long-operation"]


def _call(tool: str, facts: dict | None, command: str | None = None, data=None) -> object:
    event = Event("call", 3, Context("wukong"))
    event.tool, event.agent, event.is_main = tool, "main", True
    event.command, event.input, event.protocol = command, data, facts
    return make_unit("s.jsonl", event, command or tool)


def _facts() -> list[dict | None]:
    paths = ["a.py", "memory-bank/x.md", "b.py", "anchors.md", "c.py", "d.py"]
    found: list[dict | None] = [None, {}, {"first": True}]
    for n in range(len(paths)):
        found.append({"reads": (tuple(paths[:n]), paths[n])})
        found.append({"reads": (tuple(paths[: n + 1]), "memory-bank/y.md")})
    found += [{"searches": n} for n in range(6)]
    found += [{"edit": (b, s)} for b, s in itertools.product(range(0, 25, 3), range(0, 25, 2))]
    return found


def _budget_rules(limits: tuple) -> list:
    """The three built-in turn-budget rules with other limits (a team's rule-params); a
    fourth item renames the edit rule's check (the matcher reads any other check as edits)."""
    by_check = {"reads": limits[0], "searches": limits[1], "edit-lines": limits[2]}
    rules = []
    for rule in BUDGET:
        params = {**rule.params, "limit": by_check[rule.params["check"]]}
        if len(limits) > 3 and rule.params["check"] == "edit-lines":
            params["check"] = limits[3]
        rules.append(rule._replace(params=params))
    return rules


def test_the_budget_gate_turns_away_only_calls_no_rule_reports() -> None:
    assert {r.params["check"] for r in BUDGET} == {"reads", "searches", "edit-lines"}
    turned_away = 0
    for limits in [(2, 1, 10), (0, 0, 0), (1, 3, 4), (5, 2, 20), (2, 1, 10, "edits")]:
        rules = _budget_rules(limits)
        gate = behaviour.match_turn_budget.gate_for(rules)
        for facts, tool in itertools.product(_facts(), ["Read", "Grep", "Edit", "Bash"]):
            unit = _call(tool, facts)
            found = [h for r in rules for h in behaviour.match_turn_budget(r, unit, None)]
            if not gate(unit):
                turned_away += 1
                assert not found, (limits, facts, tool)
    assert turned_away > 100  # (the gate does turn calls away)


def test_the_budget_gate_lets_through_the_call_that_goes_over() -> None:
    gate = behaviour.match_turn_budget.gate_for(_budget_rules((2, 1, 10)))
    assert gate(_call("Read", {"reads": (("a.py", "b.py"), "c.py")}))
    assert not gate(_call("Read", {"reads": (("a.py",), "b.py")}))
    assert gate(_call("Grep", {"searches": 2}))
    assert not gate(_call("Grep", {"searches": 3}))  # (reported on the 2nd already)
    assert gate(_call("Edit", {"edit": (8, 4)}))
    assert not gate(_call("Edit", {"edit": (12, 4)}))


def test_the_long_operation_memo_gives_the_hits_of_the_rules() -> None:
    ruleset = RuleSet(LONG)
    commands = ["sleep 45", "sleep 5", "npm install", "docker build .", "ls", "sleep 60 &",
                "pip install -r req.txt", "terraform apply", "make"]  # fmt: skip
    inputs = [None, {}, {"run_in_background": True}, {"timeout": 60000}, {"timeout": 5},
              {"timeout": True}, {"timeout": "60000"}, {"run_in_background": "yes"}]  # fmt: skip
    for _ in range(2):  # (the second round answers from the memo)
        for command, extra in itertools.product(commands, inputs):
            data = None if extra is None else {"command": command, **extra}
            unit = _call("Bash", {}, command, data)
            memo = list(ruleset.runnable(unit))
            plain = [(r, list(behaviour.match_long_operation(r, unit, None))) for r in LONG]
            got = [(rule, list(matcher(rule, unit, offsets))) for rule, matcher, offsets in memo]
            assert got == [(r, hits) for r, hits in plain if hits], (command, extra)


def test_a_checkpoint_read_again_is_the_one_read_first() -> None:
    from wukong_lint.protocol import turn_facts as protocol
    from wukong_lint.protocol.checkpoint import parse_checkpoint

    texts = [
        "📋 TASK CHECKPOINT\nQ1. 探索/研究？ 否\nQ2. 代码修改？ 是 预估 40 行\n"
        "⚡ 决策: 召唤分身: @身",
        "Q1: yes\nQ2: no\nDecision: delegate to @eye",
        "no checkpoint here",
        "Q1: no\nQ2: 3 lines\nQ3: no\nQ4: 1\nDecision: 本体执行" + " pad" * 2000,  # (too long)
    ]
    for _ in range(2):
        for text in texts:
            assert protocol._parse([text]) == parse_checkpoint(text)
    assert texts[0] in protocol._PARSED and texts[3] not in protocol._PARSED


def test_sections_read_again_follow_the_contract_asked() -> None:
    from wukong_lint.protocol import contracts

    output = "## Files\n- a.py\n## Summary\nDone.\n"
    eye, body = contracts.CONTRACTS["eye"], contracts.CONTRACTS["body"]
    for _ in range(2):
        assert contracts.sections(output, eye) == contracts._sections(output, eye)
        assert contracts.sections(output, body) == contracts._sections(output, body)
    assert contracts.sections(output, eye) != contracts.sections(output, body)
    declared = contracts._declared((("files", True), ("notes", False)), {})
    assert contracts.sections(output, declared) == {"files": "- a.py", "notes": None}


def test_the_usage_gate_turns_away_only_rises_no_rule_reports() -> None:
    from wukong_lint.protocol import context_budget

    rules = [r for r in RULES.rules if r.kind == "context-usage"]
    assert len(rules) == 3
    gate = context_budget.match_context_usage.gate_for(rules)
    window = 200_000
    marks = sorted({window * r.params[k] // 100 + d for r in rules
                    for k in ("threshold", "below") for d in (-1, 0, 1)} | {0, 5000})  # fmt: skip
    passed = 0
    for before, used, known in itertools.product(marks, marks, [None, window, 1_000_000]):
        event = Event("context", 9, Context("wukong"))
        event.protocol = {"usage": (before, used, known)}
        unit = make_unit("s.jsonl", event, "")
        found = [h for r in rules for h in context_budget.match_context_usage(r, unit, None)]
        assert gate(unit) == bool(found), (before, used, known)
        passed += bool(found)
    assert passed > 10


def _record(kind: str, content: object, n: int) -> str:
    import json

    return json.dumps({"type": kind, "uuid": f"{kind[0]}{n}", "message": {"role": kind,
                       "content": content}, "cwd": "/proj"})  # fmt: skip


def test_a_file_created_through_the_shell_counts_however_far_the_scan_reads_ahead(
    tmp_path,
) -> None:
    """The scan takes units in batches (engine/scan.py `_batches`), so the transcript has been
    read past a call when its unit is scanned: a later call touching the file the shell
    created must not make that file 'seen before' (body-boundary.shell-create)."""
    from tests.conftest import wukong_report

    lines = [_record("user", "add a config file", 0)]
    for n, (tool, data) in enumerate([
        ("Bash", {"command": "touch notes/new-config.yaml"}),
        ("Read", {"file_path": "notes/new-config.yaml"}),
        ("Bash", {"command": "echo hi > notes/other.txt"}),
    ], 1):  # fmt: skip
        use = [{"type": "tool_use", "id": f"t{n}", "name": tool, "input": data}]
        lines.append(_record("assistant", use, n))
        done = [{"type": "tool_result", "tool_use_id": f"t{n}", "content": "ok"}]
        lines.append(_record("user", done, n))
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for jobs in ("1", "2"):  # (read in one process and batched, or read by the parent)
        found = wukong_report(path, "--jobs", jobs)
        created = sorted(f["snippet"] for f in found if f["rule_id"].endswith(".shell-create"))
        assert created == ["echo hi > notes/other.txt", "touch notes/new-config.yaml"], jobs


def test_the_spawn_memo_gives_the_hits_of_the_rules() -> None:
    """The spawn rules (background, Max, nesting, unfamiliar types) answer once per memo key:
    the same hits as running each rule, summons after summons, in both versions."""
    from wukong_lint.protocol import contracts

    spawns = [r for r in RULES.rules if r.kind == "spawn"]
    ruleset = RuleSet(spawns)
    kinds = ["eye", "body", "mind", "tongue", "eyes", "general-purpose", "眼", "planner"]
    running_sets = [(), (("body", None),), (("body", "worktree"),),
                    (("tongue", None), ("tongue", None), ("tongue", None))]  # fmt: skip
    for version in ("jie-2026-01", "jie-current"):
        ctx = Context("wukong")
        ctx.version = version
        for kind, bg, isolation, running, main, new in itertools.product(
            kinds, (True, False), (None, "worktree"), running_sets, (True, False), (True, False)
        ):
            for _ in range(2):  # (the second time from the memo)
                event = Event("call", 3, ctx)
                event.tool, event.is_main = "Agent", main
                event.agent = "main" if main else "sub:a1"
                event.input = {"subagent_type": kind, "prompt": "p", "run_in_background": bg,
                               "isolation": isolation}  # fmt: skip
                event.protocol = {"running": running, "new_kind": new}
                unit = make_unit("s.jsonl", event, "Agent")
                plain = sorted(
                    (r.id, h) for r in spawns for h in contracts.match_spawn(r, unit, None)
                )
                memo = sorted((r.id, h) for r, matcher, offsets in ruleset.runnable(unit)
                              for h in matcher(r, unit, offsets))  # fmt: skip
                assert memo == plain, (version, kind, bg, isolation, running, main, new)
