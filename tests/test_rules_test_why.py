"""`rules test` says why an example failed (issue 28): the step that dropped a `match`
example (keywords, pattern, entropy, a named filter, an allow pattern, the paths), the rules
that fired on it instead, and where a `no_match` example fired."""

from __future__ import annotations

from pathlib import Path

from wukong_lint.cli import main

RULE = """\
id: custom.demo-token
category: secret
severity: high
kind: regex
message: Demo token
docs: A token of a made-up service.
keywords: [demotok_]
regex: 'demotok_([a-z0-9]{8,})'
entropy: 2.5
filters: [placeholder]
allow:
  - {regex: 'fixture', target: line}
applies_to: [file]
examples:
  match:
    - "x = demotok_aaaaaaaaaa"
    - "y = demotok_ab12cd34ef  # fixture"
    - "z = DEMO_TOKEN"
    - "w = demotok_abc"
    - "u = demotok_yourtokenhere"
  no_match:
    - "v = demotok_q8w7e6r5t4"
    - "t = demotok_k3j4h5g6f7  # fixture"
"""
PATHS = """\
id: custom.conf-password
category: secret
severity: medium
kind: regex
message: Password in a .conf file
docs: A password in a service's .conf file.
keywords: [password]
regex: 'password\\s*=\\s*(\\S{6,})'
paths: ["*.conf"]
applies_to: [file]
examples:
  match:
    - "password = hunter2hunter2"
  no_match:
    - "password = x"
"""
WIDER = """\
id: custom.any-demotok
category: secret
severity: low
kind: regex
message: Any demo token
docs: Wider than custom.demo-token.
keywords: [demotok_]
regex: 'demotok_(\\w+)'
applies_to: [file]
examples:
  match:
    - "k = demotok_q1w2e3r4"
  no_match:
    - "k = demo"
"""


def test_each_failed_example_says_why(tmp_path: Path, capsys) -> None:
    (tmp_path / "demo.yaml").write_text(RULE)
    (tmp_path / "wider.yaml").write_text(WIDER)
    assert main(["rules", "test", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    blocks = {b.split("\n")[0]: b for b in out.split("custom.demo-token: ")[1:]}

    def why(example: str) -> str:
        (block,) = [b for first, b in blocks.items() if example in first]
        return block.split("why: ", 1)[1].split("\n")[0]

    assert "entropy 0.00, under the rule's 2.5" in why("demotok_aaaaaaaaaa")
    assert "allow pattern on the line (fixture)" in why("demotok_ab12cd34ef")
    assert "none of its keywords (demotok_) occurs" in why("DEMO_TOKEN")
    assert why("demotok_abc") == (
        "its pattern matches nothing in the example; fired instead: custom.any-demotok")
    assert "filter `placeholder` drops" in why("yourtokenhere")
    assert why("demotok_q8w7e6r5t4").startswith("it fired at line 1, column ")
    assert "demotok_q8w7e6r5t4" not in why("demotok_q8w7e6r5t4")  # (masked as reports are)
    assert "demotok_k3j4h5g6f7" not in blocks  # (allowed: no problem to explain)
    assert out.endswith("2 rules tested, 6 problem(s).\n")


def test_a_path_restricted_rule_names_its_paths(tmp_path: Path, capsys) -> None:
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.runner.example_why import why_not_matched

    (tmp_path / "paths.yaml").write_text(PATHS)
    (rule,) = load_rules((str(tmp_path),), builtin=False).rules
    why = why_not_matched(rule, "password = hunter2hunter2", "notes.txt", [])
    assert why == "the rule's paths (*.conf) do not take the example path 'notes.txt'"
    assert main(["rules", "test", str(tmp_path)]) == 0  # (its example path is a .conf)
