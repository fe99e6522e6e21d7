"""SARIF (validated against the official 2.1.0 schema), GitHub annotations, JUnit XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import git
from wukong_lint.cli import main
from wukong_lint.report.github import command, escape_data, escape_property

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(["check", *args])
    return code, capsys.readouterr().out


def validate(document: dict) -> None:
    jsonschema.Draft7Validator(SCHEMA).validate(document)


@pytest.fixture
def project(repo: Path, monkeypatch) -> Path:
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text(
        f'import os\ntoken = "{TOKEN}"\nkey = "{STRIPE}"  # wukong-lint: ignore[secret]\n'
    )
    (repo / "odd name, with: colon.txt").write_text(f"t={TOKEN}\n")
    (repo / "clean.py").write_text("x = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    monkeypatch.chdir(repo)
    return repo


def test_sarif_of_real_scans_is_valid_and_complete(project: Path, monkeypatch, capsys):
    reports = []
    code, out = run(capsys, "--format", "sarif", ".")
    assert code == 1
    reports.append(json.loads(out))
    # from a sub-folder: URIs stay repository-relative
    monkeypatch.chdir(project / "src")
    reports.append(json.loads(run(capsys, "--format", "sarif", ".")[1]))
    monkeypatch.chdir(project)
    # a clean scan, a staged scan and a range scan
    reports.append(json.loads(run(capsys, "--format", "sarif", "clean.py")[1]))
    (project / "new.py").write_text(f"T = '{TOKEN}'\n")
    git(project, "add", "new.py")
    reports.append(json.loads(run(capsys, "--format", "sarif", "--staged")[1]))
    git(project, "commit", "-qm", "new")
    reports.append(json.loads(run(capsys, "--format", "sarif", "--diff", "HEAD~1..HEAD")[1]))
    for document in reports:
        validate(document)
        assert document["version"] == "2.1.0"
    full, sub, clean, staged, ranged = (r["runs"][0] for r in reports)

    rules = full["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(r["id"] for r in rules)
    pat = next(r for r in rules if r["id"] == "secret.github-pat")
    for key in ("name", "shortDescription", "fullDescription", "help", "defaultConfiguration"):
        assert pat[key]
    assert pat["defaultConfiguration"]["level"] == "error"
    assert "secret" in pat["properties"]["tags"]

    by_uri = {}
    for result in full["results"]:
        location = result["locations"][0]["physicalLocation"]
        by_uri.setdefault(location["artifactLocation"]["uri"], []).append(result)
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["partialFingerprints"]["wukongFingerprint/v1"]
        assert {"startLine", "startColumn", "endLine"} <= set(location["region"])
    assert set(by_uri) == {"src/app.py", "odd%20name%2C%20with%3A%20colon.txt"}
    pat_result, stripe_result = by_uri["src/app.py"]
    assert pat_result["ruleId"] == "secret.github-pat" and pat_result["level"] == "error"
    assert pat_result["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    assert "suppressions" not in pat_result
    assert stripe_result["suppressions"] == [
        {"kind": "inSource", "justification": "suppressed by inline"}
    ]
    sub_uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sub["results"]
    }
    assert sub_uris == {"src/app.py"}
    assert clean["results"] == []
    for run_ in (staged, ranged):
        (result,) = run_["results"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "new.py"
    assert TOKEN not in json.dumps(reports) and STRIPE not in json.dumps(reports)


def test_sarif_fingerprints_survive_line_shifts(project: Path, capsys):
    first = json.loads(run(capsys, "--format", "sarif", "src")[1])
    text = (project / "src" / "app.py").read_text()
    (project / "src" / "app.py").write_text("\n" * 30 + text)
    second = json.loads(run(capsys, "--format", "sarif", "src")[1])
    a, b = first["runs"][0]["results"][0], second["runs"][0]["results"][0]
    assert a["partialFingerprints"] == b["partialFingerprints"]
    region = b["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == 32


def test_github_escaping():
    assert escape_data("100%\r\nnext") == "100%25%0D%0Anext"
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"
    line = command("error", "bad: x, y\nz", file="dir/a,b:c.py", line=3, title="r.x")
    assert line == "::error file=dir/a%2Cb%3Ac.py,line=3,title=r.x::bad: x, y%0Az"


def test_github_annotations(project: Path, capsys):
    (project / "notes.md").write_text("low finding\n")
    code, out = run(capsys, "--format", "github", "src", "odd name, with: colon.txt")
    assert code == 1
    lines = out.splitlines()
    annotations = [line for line in lines if line.startswith("::")]
    assert len(annotations) == 2  # the suppressed finding is not annotated
    assert annotations[0] == (
        "::error file=odd name%2C with%3A colon.txt,line=1,endLine=1,col=3,"
        "title=secret.github-pat::GitHub personal access token (classic) [critical]%0At=ghp_****"
    )
    assert annotations[1].startswith("::error file=src/app.py,line=2,endLine=2,col=10,")
    assert lines[-1].startswith("2 findings")
    assert TOKEN not in out


def test_junit_xml(project: Path, capsys):
    code, out = run(capsys, "--format", "junit", ".")
    assert code == 1
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("3", "2", "1")
    (suite,) = root.findall("testsuite")
    assert suite.get("name") == "wukong-lint.secret"
    cases = suite.findall("testcase")
    assert [c.get("classname") for c in cases] == [
        "odd name, with: colon.txt",
        "src/app.py",
        "src/app.py",
    ]
    assert cases[1].find("failure").get("type") == "critical"
    assert cases[2].find("skipped") is not None
    assert TOKEN not in out
    clean = ET.fromstring(run(capsys, "--format", "junit", "clean.py")[1])
    assert (clean.get("tests"), clean.get("failures")) == ("1", "0")


def test_report_file_is_written(project: Path, capsys):
    code, out = run(capsys, "--format", "sarif", "-o", "out/report.sarif", "src")
    assert code == 2  # the folder does not exist: one-line error
    (project / "out").mkdir()
    code, out = run(capsys, "--format", "sarif", "-o", "out/report.sarif", "src")
    assert code == 1 and out == ""
    validate(json.loads((project / "out" / "report.sarif").read_text()))
