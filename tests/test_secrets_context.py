"""Issue 13 (secrets-providers part): the generic grammar in real files, quiet documentation,
test-fixture keys, sample credentials, and the provider examples measured on held-out draws."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from wukong_lint.cli import main

PASSWORD = "Qm7vLx2pRt9kWz4N"
GHP = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
KEY = (Path(__file__).parent.parent / "examples" / "shop-api" / "deploy" / "deploy_key").read_text()


def scan(capsys, *paths: str, fmt: str = "json") -> tuple[int, list[dict], str]:
    code = main(["check", *paths, "--format", fmt])
    out = capsys.readouterr().out
    return code, (json.loads(out)["findings"] if fmt == "json" else []), out


def by_line(findings: list[dict]) -> dict[int, tuple[str, str]]:
    return {f["line"]: (f["rule_id"], f["severity"]) for f in findings}


def test_docstrings_are_quiet_but_provider_shapes_stay_low(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("mod.py").write_text(
        f'"""Module docs.\n\n    password = "{PASSWORD}"\n"""\n\n\n'  # 1-4
        "def call():\n"  # 7
        '    """Send it like this::\n\n'  # 8-9
        "        Authorization: Basic ZGVwbG95OlFtN3ZMeDJwUnQ5a1d6NE4=\n"  # 10
        f'        token = "{GHP}"\n'  # 11
        '    """\n'
        "    return 1\n\n\n"
        f'SQL = """\npassword = "{PASSWORD}"\n"""\n'  # 16-18: a string, not a docstring
    )
    code, findings, _ = scan(capsys, "mod.py")
    assert by_line(findings) == {
        11: ("secret.github-pat", "low"),
        17: ("secret.generic-assignment", "high"),
    }
    low = next(f for f in findings if f["line"] == 11)
    assert "in a docstring" in low["message"]
    assert code == 1  # the string outside a docstring still fails the run


def test_example_documents(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("docs").mkdir()
    Path("docs/usage.rst").write_text(
        f'Example\n=======\n\n  "NewPassword": "{PASSWORD}"\n  {GHP}\n'
    )
    Path("examples-1.json").write_text(json.dumps({"input": {"Password": PASSWORD}}, indent=1))
    Path("README.md").write_text(f'    password = "{PASSWORD}"\n')  # Markdown: not an example doc
    code, findings, _ = scan(capsys, ".")
    got = {(f["path"], f["rule_id"], f["severity"]) for f in findings}
    assert got == {
        ("docs/usage.rst", "secret.github-pat", "low"),
        ("README.md", "secret.generic-assignment", "high"),
    }
    assert code == 1


def test_private_keys_under_test_paths_are_medium_with_the_path(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("tests/fixtures").mkdir(parents=True)
    Path("tests/fixtures/server.key").write_text(KEY)
    Path("deploy").mkdir()
    Path("deploy/id_rsa").write_text(KEY)
    code, findings, _ = scan(capsys, ".")
    got = {f["path"]: (f["severity"], f["message"]) for f in findings}
    assert got["deploy/id_rsa"][0] == "critical"
    severity, message = got["tests/fixtures/server.key"]
    assert severity == "medium" and "tests/fixtures/" in message
    assert code == 1


SAMPLES = [
    'resp = {"access_token": "2YotnFZFEjr1zCsicMWpAA", "refresh_token": "tGzv3JOkF0XG5Qx2TlKWIA"}',
    'headers = {"Authorization": "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW"}',
    'oauth_token = "hh5s93j4hdidpola"',
    'aws_secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY"',
    'DATABASE_URL = "oracle://scott:tiger@db.acme.io/orcl"',
    "private_key: Ed448PrivateKey = load_key()",
    "FooPrivateKey = Ed25519PrivateKey",
    'curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA==" https://api.acme.io',
]


@pytest.mark.parametrize("line", SAMPLES)
def test_samples_and_type_names_are_not_reported(tmp_path, monkeypatch, capsys, line):
    monkeypatch.chdir(tmp_path)
    Path("app.py").write_text(line + "\n")
    assert scan(capsys, "app.py")[:2] == (0, [])


GRAMMAR = [
    ("main.go", f'var dbPassword string = "{PASSWORD}"', "secret.generic-assignment"),
    ("Makefile", f"DB_PASSWORD ?= {PASSWORD}", "secret.generic-assignment"),
    ("BUILD.mk", f"API_TOKEN ::= {PASSWORD}", "secret.generic-assignment"),
    ("config.php", f"$db_password .= '{PASSWORD}';", "secret.generic-assignment"),
    ("web.config", f'<add key="SmtpPassword" value="{PASSWORD}" />', "secret.xml-credential"),
    ("app.xml", f"<password>{PASSWORD}</password>", "secret.xml-credential"),
    ("call.sh", f'curl -H "Authorization: Bearer {PASSWORD}aB9" https://x.acme.io', None),
    ("deploy.sh", f"curl -u deploy:{PASSWORD} https://api.acme.io", "secret.cli-password"),
    ("backup.sh", f"mysqldump -u root -p{PASSWORD} shop > shop.sql", "secret.cli-password"),
    ("ssh.sh", f"sshpass -p '{PASSWORD}' ssh deploy@10.0.0.5", "secret.cli-password"),
    ("remote.txt", f"https://jane@acme.io:{PASSWORD}@git.acme.io/r.git", "secret.url-basic-auth"),
]


@pytest.mark.parametrize(("name", "line", "rule"), GRAMMAR)
def test_generic_grammar_is_found_and_never_printed(
    tmp_path, monkeypatch, capsys, name, line, rule
):
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(line + "\n")
    code, findings, _ = scan(capsys, name)
    assert code == 1 and len(findings) == 1
    assert rule is None or findings[0]["rule_id"] == rule
    for fmt in ("json", "text", "sarif", "github", "junit", "concise"):
        assert PASSWORD not in scan(capsys, name, fmt=fmt)[2]


def test_provider_rules_on_held_out_draws():
    """The provider rules on examples drawn with another seed than their own (bench measure:
    recall >= 0.95, false positives <= 3 % per rule)."""
    bench = str(Path(__file__).parent.parent / "bench")
    sys.path.insert(0, bench)
    try:
        import provider_shapes
    finally:
        sys.path.remove(bench)
    assert provider_shapes.main(["--seed", "3", "-n", "40"]) == 0


HOSTILE = {
    "pipes.md": "| " + "1234567890123456|" * 30000 + "\n",
    "xml.config": "<add key='password' value='" * 20000 + "\n",
    "headers.sh": 'curl -H "Authorization: Bearer ' * 20000 + "\n",
    "users.sh": "curl -u a:" * 30000 + "\n",
    "yandex.txt": "t1." * 100000 + "\n",
    "octopus.txt": "API-" * 100000 + "\n",
    # (many candidates in one file: kept small, the rule's time limit is not what is tested)
    "docstrings.py": 'def f():\n    """\n    token = "Qm7vLx2pRt9kWz4N"\n    """\n' * 1000,
}


def test_new_rules_on_hostile_lines_finish_without_rule_timeouts(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name, text in HOSTILE.items():
        Path(name).write_text(text)
    code = main(["check", ".", "--format", "json", "--select", "secret", "--jobs", "1"])
    report = json.loads(capsys.readouterr().out)
    assert code in (0, 1)
    assert report["errors"] == []
    assert not [f for f in report["findings"] if f["path"] == "docstrings.py"]
