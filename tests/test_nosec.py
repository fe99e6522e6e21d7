"""bandit's `# nosec` honoured on the code rules when the config says `allow-comments: [bandit]`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wukong_lint.cli import main
from wukong_lint.engine.suppress import nosec_allowed

CODE = """import os
import subprocess


def run(cmd, name, cursor):
    os.system("ls " + cmd)  # nosec
    subprocess.call("echo " + cmd, shell=True)  # nosec B602
    os.popen("cat " + name)  # nosec B608
    cursor.execute("SELECT * FROM t WHERE a = '%s'" % name)  # nosec: B608, B611
    cursor.execute("DELETE FROM t WHERE a = '%s'" % name)
    value = eval(name)  # NOSEC this is checked upstream
    exec(name)  # nosec B602 - another test id
    return value
"""


def lines(capsys: pytest.CaptureFixture[str], *args: str) -> list[int]:
    main(["check", "--format", "json", "--select", "injection", "--select", "info-leak", *args])
    report = json.loads(capsys.readouterr().out)
    return sorted(f["line"] for f in report["findings"] if not f.get("suppressed"))


def test_nosec_is_ignored_by_default(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(CODE)
    assert lines(capsys, "app.py") == [6, 7, 8, 9, 10, 11, 12]


def test_nosec_honoured_when_configured(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(CODE)
    (repo / ".wukong-lint.yaml").write_text("allow-comments: [bandit]\n")
    # bare (6), matching id (7, 9), prose after nosec (11) suppress; another rule's id (8)
    # or a wrong id (12) does not; no comment (10) is reported
    assert lines(capsys, "app.py") == [8, 10, 12]
    main(["check", "--format", "json", "app.py"])
    assert json.loads(capsys.readouterr().out)["stats"]["suppressed"] == 4


def test_nosec_never_hides_secrets(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    token = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
    (repo / "app.py").write_text(f'TOKEN = "{token}"  # nosec\n')
    (repo / ".wukong-lint.yaml").write_text("allow-comments: [bandit]\n")
    assert main(["check", "--format", "json", "--select", "secret", "app.py"]) == 1
    assert len(json.loads(capsys.readouterr().out)["findings"]) == 1


def test_nosec_parsing():
    tags = ("bandit:B602", "bandit:subprocess_popen_with_shell_equals_true")
    assert nosec_allowed("x()  # nosec", tags)
    assert nosec_allowed("x()  #nosec", tags)
    assert nosec_allowed("x()  # nosec B602", tags)
    assert nosec_allowed("x()  # nosec: b404,B602", tags)
    assert nosec_allowed("x()  # nosec subprocess_popen_with_shell_equals_true", tags)
    assert nosec_allowed("x()  # nosec - reviewed, input is an enum", tags)
    assert not nosec_allowed("x()  # nosec B608", tags)
    assert not nosec_allowed("x()  # nosec hardcoded_sql_expressions", tags)
    assert not nosec_allowed("x()  # nosecurity", tags)
    assert not nosec_allowed("x()  # reviewed", tags)
    assert not nosec_allowed("x()  # nosec B608", ())
    assert nosec_allowed("x()  # nosec", ())


def test_ruff_bandit_codes():
    tags = ("bandit:B308", "bandit:mark_safe", "bandit:B703")
    assert nosec_allowed("x = mark_safe(y)  # noqa: S308", tags, ruff=True)
    assert nosec_allowed("x = mark_safe(y)  # noqa: E501, S703 - trusted", tags, ruff=True)
    assert not nosec_allowed("x = mark_safe(y)  # noqa: S308", tags)  # bandit alone
    assert not nosec_allowed("x = mark_safe(y)  # noqa: S608", tags, ruff=True)
    assert not nosec_allowed("x = mark_safe(y)  # noqa", tags, ruff=True)
    assert not nosec_allowed("x = mark_safe(y)  # noqa: E501", tags, ruff=True)
    assert not nosec_allowed("x = mark_safe(y)  # nosec", tags, ruff=True, bandit=False)


def test_ruff_codes_honoured_when_configured(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "app.py").write_text(
        "import os\n\n\ndef run(cmd):\n"
        "    os.system('ls ' + cmd)  # noqa: S605\n"
        "    os.system('cat ' + cmd)  # nosec\n"
    )
    assert lines(capsys, "app.py") == [5, 6]
    (repo / ".wukong-lint.yaml").write_text("allow-comments: [ruff]\n")
    assert lines(capsys, "app.py") == [6]
    (repo / ".wukong-lint.yaml").write_text("allow-comments: [bandit, ruff]\n")
    assert lines(capsys, "app.py") == []
