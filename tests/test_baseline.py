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


WEAK = "hunter22x"  # a weak password, found by the generic rule below


def _sha256(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


def test_baseline_stores_a_salted_slow_hash_not_the_sha256(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(f'TOKEN = "{TOKEN}"\n')
    assert main(["baseline", "create"]) == 0
    data = json.loads((repo / BASELINE).read_text())
    assert data["version"] == 2
    spec = data["hash"]
    assert spec["algorithm"] == "scrypt" and len(spec["salt"]) == 32
    (entry,) = data["findings"]
    bare = _sha256(TOKEN)
    text = (repo / BASELINE).read_text()
    # neither the secret nor its bare hash (nor the old fingerprint made from it) is stored
    assert bare not in text and TOKEN not in text
    import hashlib

    expected = hashlib.scrypt(
        bare.encode(),
        salt=bytes.fromhex(spec["salt"]),
        n=spec["n"],
        r=spec["r"],
        p=spec["p"],
        dklen=16,
    ).hex()
    assert entry["hash"] == expected
    # a second baseline of the same finding has another salt, so another hash
    assert main(["baseline", "create", "-o", "other.json"]) == 0
    other = json.loads((repo / "other.json").read_text())
    assert other["hash"]["salt"] != spec["salt"]
    assert other["findings"][0]["hash"] != entry["hash"]
    capsys.readouterr()
    assert check(capsys, "--baseline", "other.json") == (0, [])


def test_version_1_baseline_still_matches_and_update_upgrades_it(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(f'TOKEN = "{TOKEN}"\nNEW = "{OTHER}"\n')
    legacy = {
        "version": 1,
        "tool": "wukong-lint",
        "findings": [
            {
                "rule_id": "secret.github-pat",
                "path": "app.py",
                "hash": _sha256(TOKEN),
                "fingerprint": "0" * 32,
            },
        ],
    }
    (repo / BASELINE).write_text(json.dumps(legacy))
    code, findings = check(capsys, "--baseline", BASELINE)
    assert code == 1 and [f["line"] for f in findings] == [2]  # the old entry still matches
    assert main(["baseline", "update"]) == 0
    out = capsys.readouterr().out
    assert "1 added, 0 no longer found" in out and "upgraded" in out
    data = json.loads((repo / BASELINE).read_text())
    assert data["version"] == 2 and _sha256(TOKEN) not in json.dumps(data)
    assert check(capsys, "--baseline", BASELINE) == (0, [])


def test_tampered_hash_parameters_are_a_one_line_error(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(f'TOKEN = "{TOKEN}"\n')
    assert main(["baseline", "create"]) == 0
    data = json.loads((repo / BASELINE).read_text())
    for bad in ({**data["hash"], "n": 2**30}, {**data["hash"], "n": 1000}, "sha256", None):
        (repo / BASELINE).write_text(json.dumps({**data, "hash": bad}))
        capsys.readouterr()
        assert main(["check", "--baseline", BASELINE]) == 2
        err = capsys.readouterr().err
        assert "bad 'hash'" in err and "Traceback" not in err


def test_fingerprints_of_guessable_values_are_slow_and_follow_the_key(
    repo: Path, monkeypatch, capsys
):
    from wukong_lint.model import fingerprint

    monkeypatch.chdir(repo)
    weak = f"{WEAK}Zq7#"
    (repo / "app.py").write_text(f'password = "{weak}"\nTOKEN = "{TOKEN}"\n')
    code, findings = check(capsys, "app.py")
    assert code == 1 and [f["line"] for f in findings] == [1, 2]
    password, token = findings
    # the pre-version-2 fingerprint, computable by anyone guessing the value, is not used for
    # a guessable password; a generated token's fast hash cannot be reversed and stays
    assert password["fingerprint"] != fingerprint(password["rule_id"], "app.py", _sha256(weak), 0)
    assert token["fingerprint"] == fingerprint(token["rule_id"], "app.py", _sha256(TOKEN), 0)
    again = check(capsys, "app.py")[1]
    assert [f["fingerprint"] for f in again] == [f["fingerprint"] for f in findings]  # stable
    monkeypatch.setenv("WUKONG_LINT_FINGERPRINT_KEY", "ci-secret")
    keyed = check(capsys, "app.py")[1]
    assert keyed[0]["fingerprint"] != password["fingerprint"]
    assert keyed[1]["fingerprint"] == token["fingerprint"]
