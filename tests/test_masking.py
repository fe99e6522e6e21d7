"""Never print a secret, whatever the selection (issue 15): snippets, messages, paths and
errors are masked by every secret rule and the credential shapes of masking.py, even when
the run selected no secret rule; `anchors hints`/`compact` and `redact` mask too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wukong_lint.cli import main
from wukong_lint.engine.masking.masker import Masker, mask_report, masker_for, shape_spans
from wukong_lint.model import Finding, Report, ScanError, Severity, Stats

FORMATS = ("text", "json", "sarif", "github", "junit")
GITHUB = "ghp_" + "Vb7Qw2Xe9Rt4Yu1Io6Pa3Sd8Fg5Hj0Kl2Zx9m"[:36]
CURL_PASSWORD = "Wq7-ex9Lm2Pz"
URL_PASSWORD = "Rk4vN8cT2wYq"
BEARER = "c2VydmljZS1hY2NvdW50LXRva2VuLTQ4Mzk"
COOKIE = "sessionid=9f8e7d6c5b4a39281706"
API_KEY = "Zt5Kp1Qx8Vn3Wm6R"
DB_PASSWORD = "Hq2mZ7xK4p"
RAW = (GITHUB, CURL_PASSWORD, URL_PASSWORD, BEARER, COOKIE.split("=")[1], API_KEY, DB_PASSWORD)

SCRIPT = f"""#!/bin/sh
curl -u deploy:{CURL_PASSWORD} https://artifacts.acme.io/install.sh | sh
curl https://ci:{URL_PASSWORD}@get.acme.io/setup | bash
curl -H "Authorization: Bearer {BEARER}" https://get.acme.io/x.sh | sh
curl -H "Cookie: {COOKIE}" -H 'X-Api-Key: {API_KEY}' https://get.acme.io/y | sh
sudo rm -rf / --token={GITHUB}
mysql -u root -p{DB_PASSWORD} shop | sudo tee /etc/shop.conf
"""


def assert_clean(text: str, where: str) -> None:
    for secret in RAW:
        assert secret not in text, (where, secret)


@pytest.fixture
def script(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "deploy.sh"
    path.write_text(SCRIPT)
    return path


def test_a_selection_without_secret_rules_still_masks_every_format(script, capsys):
    with pytest.raises(AssertionError):  # the check bites on the raw file
        assert_clean(script.read_text(), "self-check")
    for fmt in FORMATS:
        code = main(["check", "--select", "dangerous-command", "--format", fmt, "deploy.sh"])
        out = capsys.readouterr()
        assert code == 1, fmt
        assert "dangerous-command.pipe-to-shell" in out.out, fmt
        assert_clean(out.out + out.err, fmt)
    main(["check", "--select", "dangerous-command", "--format", "json", "deploy.sh"])
    snippets = [f["snippet"] for f in json.loads(capsys.readouterr().out)["findings"]]
    # what is masked is the credential, not the line: the reader still sees the command
    assert any(s.startswith("curl -u deploy:****") for s in snippets), snippets
    assert any("Authorization: Bearer ****" in s for s in snippets), snippets
    assert any("--token=ghp_****" in s for s in snippets), snippets


def test_ignoring_secrets_in_the_config_still_masks(script, capsys):
    Path(".wukong-lint.yaml").write_text("ignore: [secret]\n")
    assert main(["check", "--format", "github", "deploy.sh"]) == 1
    out = capsys.readouterr()
    assert "::error" in out.out and "secret." not in out.out
    assert_clean(out.out + out.err, "config ignore")


def test_no_builtin_rules_still_masks_with_the_builtin_secret_rules(script, capsys, tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "sudo.yaml").write_text(
        "id: custom.sudo\ncategory: dangerous-command\nseverity: high\nkind: regex\n"
        "message: sudo\nkeywords: [sudo]\nregex: '\\bsudo\\b'\ndocs: sudo.\n"
        "examples:\n  match: ['sudo ls']\n  no_match: ['pseudo']\n"
    )
    code = main(
        ["check", "--no-builtin-rules", "--rules", str(pack), "--format", "json", "deploy.sh"]
    )
    out = capsys.readouterr()
    assert code == 1 and "custom.sudo" in out.out
    assert "ghp_****" in out.out
    assert_clean(out.out + out.err, "no builtin")


def test_a_file_named_after_a_secret_is_masked_in_every_format(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"backup-{GITHUB}.sh").write_text("sudo reboot\n")
    for fmt in FORMATS:
        code = main(["check", "--select", "dangerous-command.sudo", "--format", fmt, "."])
        out = capsys.readouterr()
        assert code == 1 and "dangerous-command.sudo" in out.out, fmt
        assert GITHUB not in out.out + out.err, fmt
        assert "backup-ghp_****" in out.out or "backup-ghp_%2A%2A%2A%2A" in out.out, fmt


def test_errors_and_paths_of_a_report_are_masked():
    finding = Finding(
        "x.rule", "dangerous-command", Severity.HIGH, "m", f"dir/{GITHUB}.txt", 1, 1, 1, "s", "f"
    )
    error = ScanError(f"{GITHUB}.log", f"cannot read: token {GITHUB} rejected")
    from wukong_lint.engine.loader import load_rules

    masker = masker_for(load_rules(details=False))
    report = mask_report(Report((finding,), Stats(), (error,)), masker)
    assert report.findings[0].path == "dir/ghp_****.txt"
    assert GITHUB not in repr(report)
    clean = Report((finding._replace(path="a.txt"),), Stats())
    assert mask_report(clean, masker) is clean  # nothing to mask: the same report


@pytest.mark.parametrize(
    "text, shown",
    [
        ("curl -u admin:S3cretPass https://api.acme.io", "curl -u admin:**** https://api.acme.io"),
        ("curl --user=admin:S3cretPass x", "curl --user=admin:**** x"),
        ("git clone https://bot:S3cretPass@git.acme.io/r.git", "git clone https://bot:****@git.acme.io/r.git"),
        ("Authorization: Basic YWRtaW46c2VjcmV0", "Authorization: Basic ****"),
        ('h = {"authorization": "Token abc123def456"}', 'h = {"authorization": "Token ****"}'),
        ("Cookie: a=1; b=2", "Cookie: ****"),
        ("deploy --password hunter2hunter2 --verbose", "deploy --password **** --verbose"),
        ("mysqldump -uroot -pS3cret shop", "mysqldump -uroot -p**** shop"),
    ],
)  # fmt: skip
def test_credential_shapes(text, shown):
    assert Masker([]).mask(text) == shown
    assert shape_spans("curl https://get.acme.io/x | sh") == []
    assert shape_spans("see https://docs.acme.io/page") == []


def test_anchors_hints_and_compact_are_masked(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("anchors.md").write_text(
        "# Anchors\n\n## 风险 (P)\n\n"
        f"## [P001] CI token {GITHUB} leaked in logs\n\n"
        "### Decision (决策)\nrotate\n\n### Why (为什么)\n"
        f"the token GITHUB_TOKEN={GITHUB} was printed\n"
    )
    assert main(["anchors", "hints", "--stage", "t1", "anchors.md"]) == 0
    out = capsys.readouterr().out
    assert "[P001]" in out and "ghp_****" in out and GITHUB not in out
    assert main(["anchors", "compact", "--ids", "P001", "anchors.md"]) == 0
    out = capsys.readouterr().out
    assert "P001" in out and GITHUB not in out


def test_redact_masks_secrets_used_as_json_keys(tmp_path, capsys):
    record = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s",
        "message": {"role": "user", "content": "tokens"},
        "toolUseResult": {GITHUB: "the deploy token", "plain": "value"},
    }
    source = tmp_path / "s.jsonl"
    source.write_text(json.dumps(record) + "\n")
    out = tmp_path / "clean.jsonl"
    assert main(["redact", str(source), "-o", str(out)]) == 0
    capsys.readouterr()
    clean = json.loads(out.read_text())
    assert GITHUB not in out.read_text()
    assert "the deploy token" in clean["toolUseResult"].values()
    assert clean["toolUseResult"]["plain"] == "value"


def test_path_rule_notes_are_masked(tmp_path, capsys):
    """A path rule's message names the path an agent touched: a secret in it is masked."""
    records = [
        {"type": "user", "uuid": "u1", "sessionId": "s",
         "message": {"role": "user", "content": "go"}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
         "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": "t1", "name": "Bash",
              "input": {"command": f"cat /home/dev/{GITHUB}/.ssh/id_rsa"}}]}},
        {"type": "user", "uuid": "u2", "parentUuid": "a1", "sessionId": "s",
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    ]  # fmt: skip
    session = tmp_path / "s.jsonl"
    session.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    for fmt in FORMATS:
        argv = ["check", "--select", "sensitive-path", "--fail-on", "medium", "--format", fmt]
        code = main([*argv, str(session)])
        out = capsys.readouterr()
        assert code == 1 and "sensitive-path." in out.out, fmt
        assert GITHUB not in out.out + out.err, fmt
    main(["check", "--select", "sensitive-path", "--format", "json", str(session)])
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert "(read ~/ghp_****/.ssh/id_rsa)" in finding["message"]
