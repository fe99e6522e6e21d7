"""The 2.0 anchor and candidate stores of upstream (WQ09CE/wukong at 29b520b: anc_/cand_ ids,
the candidates.json on_stop.py writes, the anchors.json anchor_manager.py keeps, the
anchors.md it exports): `anchors add --from` accepts them, and `anchor.id-format` checks
their ids (anc_ or cand_ and lower-case letters and digits)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from wukong_lint.cli import main

VERSIONS = Path(__file__).parent / "fixtures" / "protocol" / "versions" / "jie-current" / "files"
CANDIDATES = VERSIONS / "candidates-json-on-stop" / ".wukong" / "anchors" / "candidates.json"
STORE = VERSIONS / "anchors-json-store" / ".wukong" / "anchors" / "anchors.json"


def test_add_accepts_the_candidates_json_of_on_stop(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    shutil.copy(CANDIDATES, tmp_path / "candidates.json")
    assert main(["anchors", "add", "--from", "candidates.json"]) == 0
    out = capsys.readouterr().out
    assert "skipped: 必须在 24 小时后" in out and "below the threshold" in out  # (L1, once)
    data = json.loads(CANDIDATES.read_text())
    (entry,) = data["candidates"].values()
    entry["reusable"] = True
    (tmp_path / "reusable.json").write_text(json.dumps(data, ensure_ascii=False))
    assert main(["anchors", "add", "--from", "reusable.json"]) == 0
    assert "added [C001]" in capsys.readouterr().out  # (type "constraint" -> C)
    assert "## [C001] 必须在 24 小时后让导出链接过期" in (tmp_path / "anchors.md").read_text()


def test_add_takes_the_promoted_anchors_of_anchors_json(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    shutil.copy(STORE, tmp_path / "anchors.json")
    assert main(["anchors", "add", "--from", "anchors.json"]) == 0
    assert "added [D001] Export runs as a background job" in capsys.readouterr().out
    text = (tmp_path / "anchors.md").read_text()
    assert "Exports run on the existing RQ queue" in text


def test_store_ids_are_checked(tmp_path, monkeypatch, capsys):
    record = "### Export runs as a background job\n\n**ID**: `{}`\n**Evidence Level**: L2\n"
    (tmp_path / "anchors.md").write_text(
        "# Anchors\n\n" + record.format("anc_3f9a1c2e7b40") + "\n" + record.format("anc_Export-1")
        + "\n" + record.format("cand_5d2e8a91c004") + "\n" + record.format("cand_X1")
    )  # fmt: skip
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--select", "anchor.id-format", "--format", "json", "-o", "r.json",
                 "anchors.md"]) == 0  # fmt: skip
    findings = json.loads((tmp_path / "r.json").read_text())["findings"]
    assert [(f["line"], f["rule_id"]) for f in findings] == [
        (10, "anchor.id-format"), (20, "anchor.id-format")]  # fmt: skip
