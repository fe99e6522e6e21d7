"""Never print a secret, never half-write a file (issue 7): a corpus full of secrets of several
providers (in code, config, a private key, a connection string and a transcript) is scanned in
every output format and written as SARIF, a baseline and a redacted copy; no secret value nor
a long piece of one appears anywhere. Every file the tool writes goes through fsutil."""

from __future__ import annotations

import json
import os
import random
import re
import stat
import string
from pathlib import Path

import pytest

from wukong_lint.cli import main

PROJECT = Path(__file__).parent.parent
FORMATS = ("text", "json", "sarif", "github", "junit", "jie")
_RNG = random.Random(7)


def _random(alphabet: str, size: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(size))


ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
SECRETS = {
    "github": "ghp_" + _random(ALNUM, 36),
    "aws-id": "AKIA" + _random(string.ascii_uppercase + "234567", 16),
    "aws-secret": _random(B64, 40),
    "slack": "xoxb-" + "-".join(_random(string.digits, n) for n in (12, 13)) + "-"
    + _random(ALNUM, 24),
    "stripe": "sk_live_" + _random(ALNUM, 32),
    "openai": "sk-proj-" + _random(ALNUM, 40) + "T3BlbkFJ" + _random(ALNUM, 40),
    "db-password": _random(ALNUM, 14) + "9Qz",
    "key-body": _random(B64, 64),
}  # fmt: skip
PRIVATE_KEY = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    + "\n".join(SECRETS["key-body"][:64] if i == 0 else _random(B64, 64) for i in range(8))
    + "\n-----END RSA PRIVATE KEY-----\n"
)
KEY_LINES = PRIVATE_KEY.splitlines()[1:-1]


def write_corpus(root: Path) -> None:
    s = SECRETS
    (root / "app").mkdir(parents=True)
    (root / "app" / "settings.py").write_text(
        f'GITHUB_TOKEN = "{s["github"]}"\n'
        f'STRIPE_KEY = "{s["stripe"]}"\n'
        f'OPENAI_API_KEY = "{s["openai"]}"\n'
        f'DATABASE_URL = "postgres://app:{s["db-password"]}@db.internal:5432/shop"\n'
    )
    (root / "app" / "aws.ini").write_text(
        f"[default]\naws_access_key_id = {s['aws-id']}\naws_secret_access_key = {s['aws-secret']}\n"
    )
    (root / "app" / "notify.js").write_text(f'const slack = "{s["slack"]}";\n')
    (root / "deploy.pem").write_text(PRIVATE_KEY)
    message = {"role": "user", "content": f"use {s['github']} and {s['stripe']}"}
    record = {"type": "user", "uuid": "u", "sessionId": "s", "message": message}
    (root / "session.jsonl").write_text(json.dumps(record) + "\n")


def pieces(secret: str) -> list[str]:
    """The secret, and long pieces of it beyond a public prefix."""
    out = [secret, secret[len(secret) // 2 :], secret[8:24]]
    return [p for p in out if len(p) >= 12]


def assert_clean(text: str, where: str) -> None:
    for name, secret in SECRETS.items():
        for piece in pieces(secret):
            assert piece not in text, (where, name)
    for line in KEY_LINES:
        assert line[16:48] not in text, (where, "private key body")


@pytest.fixture
def corpus(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "corpus"
    write_corpus(root)
    monkeypatch.chdir(root)
    return root


def test_secrets_are_found_then_never_printed_in_any_format(corpus, capsys):
    for leaky in (corpus / "app" / "settings.py", corpus / "deploy.pem"):  # the check bites
        with pytest.raises(AssertionError):
            assert_clean(leaky.read_text(), "self-check")
    code = main(["check", "--format", "json", "--jobs", "1", "."])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    lines = {(Path(f["path"]).name, f["line"], f["rule_id"]) for f in report["findings"]}
    for expected in [
        ("settings.py", 1, "secret.github-pat"),
        ("settings.py", 4, "secret.connection-string"),
        ("aws.ini", 2, "secret.aws-access-key-id"),
        ("aws.ini", 3, "secret.aws-secret-access-key"),
        ("notify.js", 1, "secret.slack-bot-token"),
        ("deploy.pem", 1, "secret.private-key"),
        ("session.jsonl", 1, "secret.github-pat"),
    ]:
        assert expected in lines, (expected, sorted(lines))
    rules = {r for _, _, r in lines}
    assert any("stripe" in r for r in rules) and any("openai" in r for r in rules), rules

    for fmt in FORMATS:
        # to stdout, and to a file with -o
        code = main(["check", "--format", fmt, "--jobs", "1", "."])
        captured = capsys.readouterr()
        assert code == 1 and captured.out.count("\n") > 5, fmt
        assert_clean(captured.out + captured.err, f"{fmt} stdout")
        out = corpus.parent / f"report.{fmt}"
        assert main(["check", "--format", fmt, "--jobs", "1", "-o", str(out), "."]) == 1
        captured = capsys.readouterr()
        assert_clean(out.read_text() + captured.out + captured.err, f"{fmt} -o")


def test_baseline_and_redacted_copy_hold_no_secret(corpus, capsys):
    baseline = corpus.parent / "baseline.json"
    assert main(["baseline", "create", "-o", str(baseline), "."]) == 0
    text = baseline.read_text()
    assert json.loads(text) and text.count("secret.") >= 7
    assert_clean(text, "baseline")
    clean = corpus.parent / "clean.jsonl"
    assert main(["redact", str(corpus / "session.jsonl"), "-o", str(clean)]) == 0
    captured = capsys.readouterr()
    assert_clean(clean.read_text() + captured.out + captured.err, "redact")
    assert json.loads(clean.read_text())["type"] == "user"


WRITE_CALL = re.compile(
    r"""open\([^)]*["'][wax]b?\+?["']|\.write_(text|bytes)\(|os\.open\(|os\.replace\(|os\.rename\("""
)


def test_every_file_write_goes_through_the_atomic_writers():
    offenders = []
    for path in sorted((PROJECT / "wukong_lint").rglob("*.py")):
        if path.name == "fsutil.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if WRITE_CALL.search(line):
                offenders.append(f"{path.relative_to(PROJECT)}:{number}: {line.strip()}")
    assert not offenders, "write through wukong_lint.util.fsutil instead:\n" + "\n".join(offenders)


def test_output_to_a_pipe_or_device_is_written_in_place(tmp_path):
    """`-o /dev/null` must not rename a temporary file over the device (as root it replaced
    /dev/null with a regular file): a path that is not a regular file is written as it is."""
    import threading

    from wukong_lint.util.fsutil import atomic_write_text

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    atomic_write_text(fifo, "report\n")
    reader.join(10)
    assert received == [b"report\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]  # no temporary file left
