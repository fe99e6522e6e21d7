"""`baseline create|update` and `check --baseline`: moved secrets stay baselined, copies are new."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import git
from wukong_lint.cli import main

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
OTHER = "ghp_" + "Zt3Qm8Lw2Rx5Vn7Kp9Hs4Jd6Fb1Gc0Ya8Ue3"
BASELINE = ".wukong-lint-baseline.json"


def check(capsys, *args: str) -> tuple[int, list[dict]]:
    code = main(["check", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)["findings"]


def test_create_moves_and_copies(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    app = repo / "app.py"
    app.write_text(f'import os\nTOKEN = "{TOKEN}"\n')
    assert main(["baseline", "create"]) == 0
    text = (repo / BASELINE).read_text()
    assert TOKEN not in text and TOKEN[4:] not in text
    data = json.loads(text)
    (entry,) = data["findings"]
    assert set(entry) == {"rule_id", "path", "hash", "fingerprint"}
    assert entry["path"] == "app.py" and "line" not in text
    capsys.readouterr()

    assert check(capsys, "--baseline", BASELINE) == (0, [])
    # moved down 50 lines: still baselined
    app.write_text("import os\n" + "\n" * 50 + f'TOKEN = "{TOKEN}"\n')
    assert check(capsys, "--baseline", BASELINE) == (0, [])
    # a second copy is new
    app.write_text(app.read_text() + f'COPY = "{TOKEN}"\n')
    code, findings = check(capsys, "--baseline", BASELINE)
    assert code == 1 and [f["line"] for f in findings] == [53]
    # another secret is new; without --baseline everything is reported
    app.write_text(f'A = "{TOKEN}"\nB = "{OTHER}"\n')
    code, findings = check(capsys, "--baseline", BASELINE)
    assert [f["line"] for f in findings] == [2]
    assert len(check(capsys)[1]) == 2
    # also for staged scans from a sub-folder (paths written differently)
    git(repo, "add", "app.py")
    (repo / "sub").mkdir()
    monkeypatch.chdir(repo / "sub")
    code, findings = check(capsys, "--staged", "--baseline", f"../{BASELINE}")
    assert [f["line"] for f in findings] == [2]


def test_update_is_sorted_stable_and_reports_changes(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "b.py").write_text(f'T = "{TOKEN}"\n')
    (repo / "a.py").write_text(f'T = "{OTHER}"\n')
    assert main(["baseline", "create", "-o", "ci/baseline.json"]) == 0
    first = (repo / "ci" / "baseline.json").read_text()
    assert [e["path"] for e in json.loads(first)["findings"]] == ["../a.py", "../b.py"]
    assert main(["baseline", "create", "-o", "ci/baseline.json"]) == 2  # exists
    capsys.readouterr()
    assert main(["baseline", "update", "-o", "ci/baseline.json"]) == 0
    assert (repo / "ci" / "baseline.json").read_text() == first  # no timestamps, same bytes
    assert "0 added, 0 no longer found" in capsys.readouterr().out
    (repo / "a.py").write_text("fixed = True\n")
    assert main(["baseline", "update", "-o", "ci/baseline.json"]) == 0
    assert "0 added, 1 no longer found" in capsys.readouterr().out
    assert check(capsys, "--baseline", "ci/baseline.json") == (0, [])


def test_baseline_errors_are_one_line(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    assert main(["check", "--baseline", "missing.json"]) == 2
    (repo / "bad.json").write_text("{not json")
    assert main(["check", "--baseline", "bad.json"]) == 2
    assert main(["baseline", "update"]) == 2
    assert main(["baseline"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 4


def test_baseline_from_config_and_sarif_marks_it_external(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(f'T = "{TOKEN}"\n')
    (repo / ".wukong-lint.yaml").write_text("baseline: .secrets-baseline.json\n")
    assert main(["baseline", "create"]) == 0
    assert (repo / ".secrets-baseline.json").exists()
    capsys.readouterr()
    assert main(["check", "--format", "sarif"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert result["suppressions"][0]["kind"] == "external"
