"""Command-line conventions: --exit-zero, --quiet, --color with NO_COLOR/FORCE_COLOR, the
concise format, the summary line beside -o, JUnit failures by --fail-on, SARIF tags and
rule list, error messages with a usage line and "did you mean", `rules list`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from wukong_lint.cli import main

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
CONCISE = re.compile(r"^[^:\n]+:\d+:\d+: (low|medium|high|critical) [a-z0-9._-]+ \S.*$")


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "app.py").write_text(f'T = "{TOKEN}"\n')  # critical
    (tmp_path / "deploy.sh").write_text("#!/bin/sh\nsudo systemctl restart app\n")
    (tmp_path / "anchors.md").write_text(  # an anchor with missing fields: medium
        "# Anchors\n\n## [D001] Use Postgres\n\n### Decision (决策)\nUse it.\n"
    )
    (tmp_path / "clean.py").write_text("x = 1\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def command(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("wukong-lint", path=os.path.dirname(sys.executable))
    assert exe
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [exe, *args], cwd=cwd, capture_output=True, text=True, env={**clean, **(env or {})}
    )


def test_exit_zero_and_quiet(project: Path, capsys):
    code, out, _ = run(capsys, "check", "app.py")
    assert code == 1
    code, out_zero, _ = run(capsys, "check", "--exit-zero", "app.py")
    # the same report (but for the time it took), only the exit status changes
    assert code == 0 and out_zero.split(" in 0.")[0] == out.split(" in 0.")[0]
    code, out, err = run(capsys, "check", "--quiet", "app.py")
    assert code == 1 and "secret.github-pat" in out
    assert "finding" not in out and "category" not in out  # no summary line, no table
    code, out, err = run(capsys, "check", "-q", "clean.py")
    assert (code, out, err) == (0, "", "")


def test_concise_format(project: Path, capsys):
    code, out, _ = run(capsys, "check", "--format", "concise", "--fail-on", "medium", ".")
    lines = out.splitlines()
    assert code == 1
    assert lines[-1].startswith("3 findings")
    for line in lines[:-1]:
        assert CONCISE.match(line), line
    assert lines[0] == "anchors.md:3:5: medium anchor.missing-field " + lines[0].split(" ", 3)[3]
    assert "app.py:1:6: critical secret.github-pat GitHub personal access token" in out
    assert TOKEN not in out
    code, quiet, _ = run(capsys, "check", "--format", "concise", "-q", ".")
    assert quiet.splitlines() == lines[:-1]


def test_summary_line_when_the_report_goes_to_a_file(project: Path, capsys):
    code, out, err = run(capsys, "check", "--format", "json", "-o", "r.json", ".")
    assert code == 1 and out == ""
    assert err.startswith("3 findings (1 critical, 1 high, 1 medium) in 3 files;")
    assert err.rstrip().endswith("Report: r.json") and err.count("\n") == 1
    assert json.loads((project / "r.json").read_text())["findings"]
    code, out, err = run(capsys, "check", "--format", "sarif", "-o", "r.sarif", "-q", ".")
    assert (code, out, err) == (1, "", "")


def test_color_choices_and_environment(project: Path):
    def colored(*args: str, env: dict | None = None) -> bool:
        proc = command("check", *args, "app.py", cwd=project, env=env)
        assert proc.returncode == 1 and "secret.github-pat" in proc.stdout
        assert TOKEN not in proc.stdout
        return bool(ANSI.search(proc.stdout))

    assert not colored()  # a pipe: auto means no colour
    assert colored("--color", "always")
    assert colored(env={"FORCE_COLOR": "1"})
    assert not colored(env={"FORCE_COLOR": "0"})
    assert not colored(env={"FORCE_COLOR": "1", "NO_COLOR": "1"})  # NO_COLOR wins over FORCE
    assert colored("--color", "always", env={"NO_COLOR": "1"})  # the command line wins
    assert not colored("--color", "never", env={"FORCE_COLOR": "1"})
    assert colored("--color", "always", env={"TERM": "dumb"})  # asked for: not undone


def test_junit_fails_exactly_what_fails_the_run(project: Path, capsys):
    (project / "app.py").write_text(f'T = "{TOKEN}"  \nK = "{TOKEN}"  # wukong-lint: ignore\n')
    code, out, _ = run(capsys, "check", "--format", "junit", "--fail-on", "critical", ".")
    assert code == 1
    root = ET.fromstring(out)
    cases = {c.get("name").split(" at ")[0]: c for c in root.iter("testcase")}
    failures = [c for c in root.iter("testcase") if c.find("failure") is not None]
    assert [c.get("name").split(" at ")[0] for c in failures] == ["secret.github-pat"]
    assert root.get("failures") == "1" and root.get("skipped") == "1"
    # findings below --fail-on are passed test cases with their message as output
    below = [c for c in root.iter("testcase") if c.find("system-out") is not None]
    assert below == [cases["anchor.missing-field"], cases["dangerous-command.sudo"]]
    for case in below:
        assert case.find("failure") is None and case.find("skipped") is None
    assert "high dangerous-command.sudo: Privilege escalation" in below[1].find("system-out").text
    assert TOKEN not in out
    # --fail-on low: every active finding is a failure
    code, out, _ = run(capsys, "check", "--format", "junit", "--fail-on", "low", ".")
    root = ET.fromstring(out)
    assert int(root.get("failures")) == len(below) + 1


def test_sarif_security_tags_only_on_security_categories(project: Path, capsys):
    code, out, _ = run(capsys, "check", "--format", "sarif", "--fail-on", "low", ".")
    assert code == 1
    document = json.loads(out)
    jsonschema.Draft7Validator(SCHEMA).validate(document)
    run_ = document["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    results = run_["results"]
    # only the rules that results refer to, and the indexes point at them
    assert sorted(r["id"] for r in rules) == sorted({r["ruleId"] for r in results})
    assert len(rules) == 3
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    by_category = {r["properties"]["category"]: r["properties"] for r in rules}
    assert "security" in by_category["secret"]["tags"]
    assert by_category["secret"]["security-severity"] == "9.5"
    assert "security" in by_category["dangerous-command"]["tags"]
    anchor = by_category["anchor"]
    assert "security" not in anchor["tags"] and "maintainability" in anchor["tags"]
    assert "security-severity" not in anchor
    assert len(out) < 20_000  # was every rule's docs: hundreds of KB for a few results
    # a clean scan: no rules at all
    clean = json.loads(run(capsys, "check", "--format", "sarif", "clean.py")[1])
    jsonschema.Draft7Validator(SCHEMA).validate(clean)
    assert clean["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_agent_rules_are_quality():
    from wukong_lint.model import Finding, Report, Severity, Stats
    from wukong_lint.report.sarif import to_sarif

    finding = Finding("body-boundary.x", "body-boundary", Severity.HIGH, "m", "s.jsonl", 1, 1, 1,
                      "", "f")  # fmt: skip
    document = to_sarif(Report((finding,), Stats()))
    jsonschema.Draft7Validator(SCHEMA).validate(document)
    (rule,) = document["runs"][0]["tool"]["driver"]["rules"]
    assert rule["properties"]["tags"] == ["body-boundary", "quality"]
    assert "security-severity" not in rule["properties"]


@pytest.mark.parametrize(
    ("args", "usage", "error"),
    [
        (["check", "--selct", "secret"], "usage: wukong-lint check [options] [PATH ...]",
         "wukong-lint: error: check: unrecognized arguments: --selct (did you mean '--select'?)"),
        (["chek", "."], "usage: wukong-lint [options] COMMAND",
         "(did you mean 'check'?)"),
        (["check", "--format", "jsn"], "usage: wukong-lint check",
         "check: argument --format: invalid choice: 'jsn'"),
        (["check", "--color", "alwys"], "usage: wukong-lint check", "(did you mean 'always'?)"),
        (["rules", "lst"], "usage: wukong-lint rules [options] ACTION",
         "(did you mean 'list'?)"),
    ],
)  # fmt: skip
def test_usage_errors(project: Path, capsys, args, usage, error):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(usage)
    assert lines[1].startswith("wukong-lint: error: ") and error in lines[1]
    assert "error: wukong-lint" not in err  # the prefix once


def test_rules_show_suggests_and_rules_list_is_sorted_aligned_and_json(project: Path, capsys):
    code, _, err = run(capsys, "rules", "show", "secret.githb-pat")
    assert code == 2 and "did you mean 'secret.github-pat'" in err
    code, _, err = run(capsys, "rules", "show", "secret.github")  # a prefix: its rules
    assert code == 2 and "'secret.github-pat'" in err
    code, out, _ = run(capsys, "rules", "list")
    table, _, engines = out.partition("\n\n")  # the table, then which engine runs the regexes
    assert engines.startswith("regex rules: ")
    lines = table.splitlines()
    ids = [line.split()[0] for line in lines[1:]]
    assert ids == sorted(ids) and len(ids) > 100
    starts = {line.index(line.split()[1], len(line.split()[0])) for line in lines}
    assert len(starts) == 1  # the second column starts at the same place on every line
    assert lines[0].split() == ["ID", "CATEGORY", "SEVERITY", "KIND", "ENABLED"]
    code, out, _ = run(capsys, "rules", "list", "--format", "json")
    listed = json.loads(out)["rules"]
    assert [r["id"] for r in listed] == ids
    assert set(listed[0]) == {"id", "category", "severity", "kind", "enabled"}
    split = json.loads(out)["engines"]
    assert split["hyperscan"] + split["regex"] == sum(r["kind"] == "regex" for r in listed)
