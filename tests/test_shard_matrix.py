"""examples/ci/shard-matrix.yml: the structure GitHub Actions needs and the recipe relies on
(a matrix of shards, each uploading its report under its own name, a merge job that needs
them all and downloads them), and the recipe run here, job by job, on a real repository:
the matrix's commands with the matrix values filled in, then the merge command on what the
jobs wrote, give the findings of the whole scan."""

from __future__ import annotations

import glob
import json
import re
import shlex
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.conftest import git
from wukong_lint.cli import main

WORKFLOW = Path(__file__).resolve().parent.parent / "examples" / "ci" / "shard-matrix.yml"
TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpa"
EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def steps_using(job: dict, action: str) -> list[dict]:
    return [s for s in job["steps"] if s.get("uses", "").split("@")[0] == action]


def run_lines(job: dict, program: str) -> list[str]:
    return [s["run"] for s in job["steps"] if program in s.get("run", "")]


def test_the_workflow_has_the_shape_actions_needs(workflow: dict):
    # (YAML 1.1 reads the key `on` as True)
    triggers = workflow.get("on", workflow.get(True))
    assert isinstance(triggers, dict) and triggers
    assert isinstance(workflow["name"], str)
    assert workflow["permissions"] == {"contents": "read"}
    jobs = workflow["jobs"]
    assert set(jobs) == {"scan", "merge"}
    for job in jobs.values():
        assert job["runs-on"] and isinstance(job["steps"], list)
        for step in job["steps"]:
            assert ("uses" in step) != ("run" in step), step  # one or the other
            if "uses" in step:  # every action pinned to a major version or more
                assert re.fullmatch(r"[\w.-]+/[\w./-]+@v\d+(\.\d+)*", step["uses"]), step
    strategy = jobs["scan"]["strategy"]
    shards = strategy["matrix"]["shard"]
    assert shards == list(range(1, len(shards) + 1)) and len(shards) >= 2
    assert strategy["fail-fast"] is False
    assert jobs["merge"]["needs"] in ("scan", ["scan"])
    assert jobs["merge"]["permissions"]["security-events"] == "write"
    # the checkout reads every commit: the shards split the history
    checkout = steps_using(jobs["scan"], "actions/checkout")[0]
    assert checkout["with"]["fetch-depth"] == 0


def test_each_shard_uploads_its_report_and_the_merge_reads_them_all(workflow: dict):
    scan, merge = workflow["jobs"]["scan"], workflow["jobs"]["merge"]
    (command,) = run_lines(scan, "wukong-lint check")
    words = shlex.split(command)
    assert words[words.index("--shard") + 1] == "${{ matrix.shard }}/${{ strategy.job-total }}"
    output = words[words.index("-o") + 1]
    assert "${{ matrix.shard }}" in output  # one file per shard
    (upload,) = steps_using(scan, "actions/upload-artifact")
    assert upload["with"]["path"] == output
    assert "${{ matrix.shard }}" in upload["with"]["name"]  # artifact names must differ
    assert upload["with"]["if-no-files-found"] == "error"
    (download,) = steps_using(merge, "actions/download-artifact")
    prefix = upload["with"]["name"].split("${{")[0]
    assert download["with"]["pattern"] == prefix + "*"
    assert download["with"]["merge-multiple"] is True
    (merge_line,) = run_lines(merge, "wukong-lint merge")
    assert f"{download['with']['path']}/" in merge_line
    (sarif,) = steps_using(merge, "github/codeql-action/upload-sarif")
    assert sarif["with"]["sarif_file"] in shlex.split(merge_line)
    assert "always()" in sarif["if"]  # uploaded when the merge exits 1 on findings


def _fill(text: str, values: dict[str, str]) -> str:
    return EXPRESSION.sub(lambda m: values[m.group(1)], text)


def test_the_recipe_run_job_by_job_gives_the_whole_scan(workflow: dict, repo: Path,
                                                        monkeypatch, capsys):  # fmt: skip
    monkeypatch.chdir(repo)
    for i in range(8):
        (repo / f"m{i % 3}.py").write_text(f"T{i} = '{TOKEN}{i:06d}'\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"change {i}")
    scan, merge = workflow["jobs"]["scan"], workflow["jobs"]["merge"]
    shards = scan["strategy"]["matrix"]["shard"]
    (check_line,) = run_lines(scan, "wukong-lint check")
    (upload,) = steps_using(scan, "actions/upload-artifact")
    (download,) = steps_using(merge, "actions/download-artifact")
    artifacts = repo.parent / "artifacts"
    for shard in shards:  # each matrix job, with its values
        values = {"matrix.shard": str(shard), "strategy.job-total": str(len(shards))}
        words = shlex.split(_fill(check_line, values))
        assert words[0] == "wukong-lint"
        assert main([*words[1:], "--jobs", "1", "-q"]) == 0  # (--exit-zero)
        target = artifacts / _fill(upload["with"]["name"], values)
        target.mkdir(parents=True)
        shutil.move(_fill(upload["with"]["path"], values), target)
    downloaded = repo / download["with"]["path"]  # merge-multiple: every file in one folder
    downloaded.mkdir()
    for path in artifacts.glob(download["with"]["pattern"] + "/*"):
        shutil.move(str(path), downloaded)
    (merge_line,) = run_lines(merge, "wukong-lint merge")
    words = [w for word in shlex.split(merge_line) for w in (sorted(glob.glob(word)) or [word])]
    capsys.readouterr()
    assert main(words[1:]) == 1  # the findings, judged once
    merged = json.loads(Path(words[words.index("-o") + 1]).read_text())["runs"][0]
    main(["check", "--history", "--format", "sarif", "--jobs", "1"])
    whole = json.loads(capsys.readouterr().out)["runs"][0]

    def found(run: dict) -> Counter:
        return Counter(
            (r["partialFingerprints"]["wukongFingerprint/v1"], r["properties"].get("commit"))
            for r in run["results"]
        )

    assert found(merged) == found(whole) and len(whole["results"]) >= 8
    assert merged["properties"]["shard"]["indexes"] == shards
