"""Credential files decide by format (issue 30): a password field reports whatever its value
looks like, high when it looks real and low when it is a well-known placeholder; nothing for
an empty field or a reference. The formats the issue names, one file each."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from wukong_lint.cli import main
from wukong_lint.secrets.values import LIVE, PLACEHOLDER, grade

REAL = "Rq7vN2" + "mKx9Lp"  # fake, real-looking


@pytest.mark.parametrize(
    "value, verdict",
    [
        (REAL, LIVE), ("password", PLACEHOLDER), ("changeme", PLACEHOLDER), ("xxx", PLACEHOLDER),
        ("<password>", PLACEHOLDER), ("hunter2", PLACEHOLDER), ("your_password_here", PLACEHOLDER),
        ("", ""), ("none", ""), ("${GIT_TOKEN}", ""), ("!pass show mail", ""),
        ("{{ db_password }}", ""), ("<%= ENV['DB_PASSWORD'] %>", ""), ("$(vault read x)", ""),
    ],
)  # fmt: skip
def test_grade(value: str, verdict: str):
    assert grade(value, "password") == verdict


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


FILES = {
    ".git-credentials": f"https://bob:{REAL}@git.example.net\nhttps://al:changeme@github.com\n",
    ".pgpass": f"db:5432:app:bob:{REAL}\ndb:5432:app:al:changeme\n",
    "recentservers.xml": f'<Server><Pass encoding="base64">{_b64(REAL)}</Pass></Server>\n'
    f'<Server><Pass encoding="base64">{_b64("password")}</Pass></Server>\n',
    "config/database.yml": f"production:\n  password: {REAL}\ndevelopment:\n  password: password\n",
    "config/mongoid.yml": f"production:\n  uri: mongodb://app:{REAL}@m.example.com/app\n"
    "development:\n  uri: mongodb://app:changeme@localhost/app\n",
    "ventrilo_srv.ini": f"[Server]\nAdminPassword={REAL}\nPassword=changeme\n",
    ".esmtprc": f'password "{REAL}"\npassword "xxx"\n',
    ".fetchmailrc": f'poll a user "b" password "{REAL}"\npoll c user "d" password "changeme"\n',
    ".my.cnf": f"[client]\npassword={REAL}\n[mysqldump]\npassword=password\n",
    ".s3cfg": f"[default]\nsecret_key = {REAL}{REAL}\n[other]\nsecret_key = changeme\n",
    ".boto": f"[Credentials]\ngs_secret_access_key = {REAL}{REAL}\n"
    "[x]\naws_secret_access_key = xxx\n",
    ".vault-token": f"hvs.{REAL}{REAL}\n",
    ".terraform.d/credentials.tfrc.json": json.dumps(
        {"credentials": {"a.example.com": {"token": REAL + REAL}, "b.example": {"token": "xxx"}}},
        indent=1,
    ),
    ".cargo/credentials.toml": f'[registry]\ntoken = "{REAL}{REAL}"\n'
    '[registries.x]\ntoken = "changeme"\n',
}


def test_each_format_reports_real_high_and_placeholders_low(tmp_path: Path, capsys):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    main(["check", "--format", "json", "--jobs", "1", "--select", "secret", str(tmp_path)])
    out = capsys.readouterr().out
    assert REAL not in out and "changeme" not in out
    report = json.loads(out)
    by_file: dict[str, list[tuple[int, str]]] = {}
    for f in report["findings"]:
        by_file.setdefault(f["path"][len(str(tmp_path)) + 1 :], []).append(
            (f["line"], f["severity"])
        )
    for name in FILES:
        found = sorted(by_file.get(name, []))
        if name == ".vault-token":
            assert [line for line, _ in found] == [1], name
            continue
        assert found[0][1] in ("high", "critical"), (name, found)
        assert [s for _, s in found[1:]] == ["low"], (name, found)
        assert found[0][0] < found[1][0], (name, found)


def test_references_and_empty_fields_are_not_reported(tmp_path: Path, capsys):
    (tmp_path / ".pgpass").write_text("db:5432:app:bob:\n# db:5432:app:bob:x\n")
    (tmp_path / ".git-credentials").write_text("https://bob:${TOKEN}@host.example\n")
    (tmp_path / ".msmtprc").write_text('passwordeval "pass show mail"\n')
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "database.yml").write_text(
        "production:\n  password: <%= ENV['DB_PASSWORD'] %>\n  url: <%= ENV['DATABASE_URL'] %>\n"
    )
    code = main(["check", "--format", "json", "--jobs", "1", "--select", "secret", str(tmp_path)])
    assert code == 0 and not json.loads(capsys.readouterr().out)["findings"]
