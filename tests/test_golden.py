"""Golden files: every report format on the bundled examples/, and no secret in any of them.

Regenerate (then review the diff) with one command:

    WUKONG_LINT_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py

Run-dependent values are normalised: durations, the tool version; the SARIF rule list is cut
to the rules that have results (the full list is checked in test_report_formats.py).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from wukong_lint.cli import main
from wukong_lint.engine.kinds import matcher_for
from wukong_lint.engine.loader import load_rules
from wukong_lint.sources.dispatch import units_for_file
from wukong_lint.sources.files import iter_paths

PROJECT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"
FORMATS = {"text": "txt", "json": "json", "sarif": "sarif", "github": "github", "junit": "xml"}
UPDATE = bool(os.environ.get("WUKONG_LINT_UPDATE_GOLDEN"))


def scan(fmt: str, capsys, monkeypatch) -> tuple[int, str]:
    monkeypatch.chdir(PROJECT)
    monkeypatch.delenv("WUKONG_LINT_NO_PROGRESS", raising=False)
    code = main(["check", "examples", "--format", fmt, "--jobs", "1"])
    return code, capsys.readouterr().out


def normalise(fmt: str, text: str) -> str:
    text = re.sub(r"scanned in \d+\.\d+s", "scanned in 0.00s", text)
    if fmt == "json":
        text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": 0.0', text)
    if fmt == "junit":
        text = re.sub(r'time="[0-9.e-]+"', 'time="0"', text)
    if fmt == "sarif":
        document = json.loads(text)
        run = document["runs"][0]
        driver = run["tool"]["driver"]
        driver["version"] = driver["semanticVersion"] = "0.0.0"
        used = {r["ruleId"] for r in run["results"]}
        for result in run["results"]:
            assert driver["rules"][result.pop("ruleIndex")]["id"] == result["ruleId"]
        driver["rules"] = [r for r in driver["rules"] if r["id"] in used]
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return text


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_golden(fmt: str, capsys, monkeypatch):
    code, out = scan(fmt, capsys, monkeypatch)
    assert code == 1
    got = normalise(fmt, out)
    path = GOLDEN / f"examples.{FORMATS[fmt]}"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.exists(), (
        f"missing {path}: run WUKONG_LINT_UPDATE_GOLDEN=1 python -m pytest {__file__}"
    )
    assert got == path.read_text(encoding="utf-8"), (
        f"{path.name} differs: review, then WUKONG_LINT_UPDATE_GOLDEN=1 python -m pytest "
        "tests/test_golden.py"
    )


def planted_secrets() -> set[str]:
    """Every secret the rules find in examples/, read straight from the matchers."""
    ruleset = load_rules(())
    secrets = set()
    for full, display in iter_paths([str(PROJECT / "examples")]):
        for unit in units_for_file(full, display):
            if not hasattr(unit, "text"):
                continue
            for rule, offsets in ruleset.candidates(unit.text):
                if rule.category != "secret" or not rule.regex:
                    continue
                for hit in matcher_for(rule.kind)(rule, unit, offsets):
                    secrets.add(unit.text[hit.secret_start : hit.secret_end])
    return secrets


def test_no_secret_in_any_format(capsys, monkeypatch):
    secrets = planted_secrets()
    assert len(secrets) >= 8
    outputs = {fmt: scan(fmt, capsys, monkeypatch)[1] for fmt in FORMATS}
    for fmt, out in outputs.items():
        assert out.count("\n") > 5, fmt
        for secret in secrets:
            # the whole secret, and any long piece of it beyond a public prefix
            assert secret not in out, (fmt, secret[:4])
            for piece in (secret[len(secret) // 2 :], secret[8:24]):
                if len(piece) >= 12:
                    assert piece not in out, (fmt, secret[:4])
