"""`check --shard K/N`: bad values refused (exit 2), the split a pure function of stable keys
(runner/shard.py), and the union of the N shards' findings equal to the whole scan's for a
real folder, a real git history and a fake agent-history HOME."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import git
from wukong_lint.cli import main
from wukong_lint.runner.shard import Shard, file_key, parse_shard, select_files, shard_of

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
HISTORY = Path(__file__).resolve().parent / "fixtures" / "history"
SESSION = "73466258-c75c-47e7-8b1e-14f66314a443"
# 36 characters after the prefix; each test builds its own from a number (never a real token)
PREFIX = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpa"


def token(n: int) -> str:
    return f"{PREFIX}{n:06d}"


# --- K/N --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("0/3", "shards count from 1"),
        ("4/3", "must be 1 to 3"),
        ("a/b", "expected K/N"),
        ("3", "expected K/N"),
        ("1/0", "number of shards"),
        ("-1/3", "expected K/N"),
        ("1/3/4", "expected K/N"),
        ("", "expected K/N"),
        ("1.5/3", "expected K/N"),
    ],
)
def test_bad_shard_values_are_refused_with_the_reason(text: str, why: str, tmp_path, capsys):
    with pytest.raises(ValueError, match=why):
        parse_shard(text)
    (tmp_path / "a.py").write_text("x = 1\n")
    assert main(["check", str(tmp_path), f"--shard={text}"]) == 2
    err = capsys.readouterr().err
    assert "--shard" in err and why in err and "Traceback" not in err


def test_good_values_and_what_cannot_be_split(tmp_path, capsys):
    assert parse_shard("1/1") == Shard(1, 1)
    assert parse_shard(" 2/ 3 ") == Shard(2, 3)
    assert parse_shard("3/3").label == "3/3"
    for words in (["--staged"], ["--diff", "HEAD"], ["-"]):
        assert main(["check", *words, "--shard", "1/2"]) == 2
        assert "--shard" in capsys.readouterr().err


def test_the_split_is_a_stable_hash_of_the_key_not_pythons_hash():
    # pinned: BLAKE2b (8 bytes, big-endian) mod N, plus one; a change of hash moves every
    # item of every user's matrix to another shard
    assert [shard_of(key, 7) for key in ("src/app.py", "a", "")] == [
        shard_of(key, 7) for key in ("src/app.py", "a", "")
    ]
    import hashlib

    expected = int.from_bytes(hashlib.blake2b(b"src/app.py", digest_size=8).digest(), "big")
    assert shard_of("src/app.py", 7) == expected % 7 + 1
    assert shard_of("src/app.py", 1) == 1
    # the same in processes with other string-hash seeds
    code = (
        "from wukong_lint.runner.shard import shard_of;"
        "print([shard_of(f'f{i}.py', 5) for i in range(50)])"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "random")
    }
    assert len(outs) == 1
    assert json.loads(outs.pop()) == [shard_of(f"f{i}.py", 5) for i in range(50)]


def test_every_key_is_in_exactly_one_shard_and_the_shards_are_used():
    keys = [f"pkg/module_{i}.py" for i in range(2000)]
    for count in (2, 3, 8):
        owners = [[k for k in range(1, count + 1) if Shard(k, count).holds(key)] for key in keys]
        assert all(len(o) == 1 for o in owners)
        sizes = Counter(o[0] for o in owners)
        assert set(sizes) == set(range(1, count + 1))
        assert max(sizes.values()) < 2 * min(sizes.values())  # (a hash, not a single bucket)


def test_file_keys_are_relative_to_the_scan_root_and_group_sessions(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # the same file named through ".", a relative and an absolute root: one key
    assert file_key("src/app.py", ["."]) == "src/app.py"
    assert file_key("repo/src/app.py", ["repo"]) == "src/app.py"
    assert file_key(str(tmp_path / "repo/src/app.py"), [str(tmp_path / "repo")]) == "src/app.py"
    # the deepest root wins; a named file is keyed by its name
    assert file_key("repo/src/app.py", ["repo", "repo/src"]) == "app.py"
    assert file_key("repo/src/app.py", ["repo/src/app.py"]) == "app.py"
    # a session, its sub-agents and tool results are one item
    session = f"p/{SESSION}"
    keys = {
        file_key(name, ["."])
        for name in (
            f"{session}.jsonl",
            f"{session}/subagents/agent-a1.jsonl",
            f"{session}/subagents/agent-a1.meta.json",
            f"{session}/tool-results/toolu_1.txt",
        )
    }
    assert keys == {session}
    # standard input (under no root): its own name
    assert file_key("-", ["src"]) == "-"
    names = (f"{session}.jsonl", f"{session}/subagents/agent-a1.jsonl")
    files = [(name, name) for name in names]
    parts = [select_files(files, ["."], Shard(k, 4)) for k in range(1, 5)]
    assert sorted(len(p) for p in parts) == [0, 0, 0, 2]


# --- the union of the shards is the whole scan --------------------------------------------


def _findings(report: dict) -> Counter:
    return Counter(
        (f["fingerprint"], f["path"], f["line"], f["rule_id"], f["source"]["commit"])
        for f in report["findings"]
    )


def _check(capsys, *args: str) -> tuple[int, dict]:
    code = main(["check", "--format", "json", "-o", "-", "--jobs", "1", *args])
    out = capsys.readouterr().out
    return code, json.loads(out)


def _assert_union(capsys, count: int, *args: str) -> list[dict]:
    _, whole = _check(capsys, *args)
    assert whole["findings"], "the scan must find something for the test to mean anything"
    assert "shard" not in whole  # (an unsharded report is as it always was)
    shards = []
    for k in range(1, count + 1):
        code, report = _check(capsys, *args, "--shard", f"{k}/{count}")
        assert code in (0, 1)
        assert report["shard"] == {"index": k, "count": count}
        shards.append(report)
    union = sum((_findings(r) for r in shards), Counter())
    assert union == _findings(whole)
    for key in ("files", "bytes", "units", "skipped"):
        assert sum(r["stats"][key] for r in shards) == whole["stats"][key], key
    # a split of real size spreads the work (no shard holds everything)
    assert sum(1 for r in shards if r["stats"]["units"]) >= 2
    return shards


def test_folder_shards_add_up_to_the_folder(tmp_path, monkeypatch, capsys):
    project = tmp_path / "project"
    for i in range(24):
        folder = project / f"pkg{i % 4}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{i}.py").write_text(f"import os\nTOKEN = '{token(i)}'\n")
    (project / "clean.txt").write_text("nothing here\n")
    (project / "image.png").write_bytes(b"\x89PNG\0\0binary")
    # a Claude Code session with its sub-agent: one item, whichever shard holds it
    shutil.copytree(HISTORY / "claude" / "projects", project / "sessions")
    monkeypatch.chdir(tmp_path)
    shards = _assert_union(capsys, 3, "project")
    holders = [r for r in shards if any("/subagents/" in f["path"] for f in r["findings"])]
    assert len(holders) == 1
    assert any(f["path"].endswith(f"{SESSION}.jsonl") for f in holders[0]["findings"])
    # the key is relative to the root: the same split from another folder, absolute paths
    monkeypatch.chdir(project)
    _, here = _check(capsys, ".", "--shard", "2/3")
    assert sorted(f["path"] for f in here["findings"]) == sorted(
        f["path"].removeprefix("project/") for f in shards[1]["findings"]
    )
    _, absolute = _check(capsys, str(project), "--shard", "2/3")
    assert len(absolute["findings"]) == len(shards[1]["findings"])


def test_history_shards_split_by_commit(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    for i in range(10):
        (repo / f"f{i % 3}.env").write_text(f"GH_TOKEN={token(100 + i)}\n")
        message = f"change {i}" if i != 4 else f"oops {token(999)}"
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", message)
    git(repo, "checkout", "-qb", "topic")
    (repo / "topic.py").write_text(f"t = '{token(500)}'\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "topic")
    shards = _assert_union(capsys, 3, "--history", "--select", "secret.github-pat")
    owner: dict[str, int] = {}
    for k, report in enumerate(shards, 1):
        for finding in report["findings"]:
            assert owner.setdefault(finding["source"]["commit"], k) == k  # a commit is whole
    assert len(owner) == 11
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    _assert_union(capsys, 2, "--history", "--since", first, "--select", "secret.github-pat")


def test_a_history_shard_without_commits_scans_nothing(repo: Path, monkeypatch, capsys):
    # (git log --stdin given no commit would show HEAD's history: the shard must not)
    monkeypatch.chdir(repo)
    (repo / "a.env").write_text(f"GH_TOKEN={token(1)}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    only = ("--select", "secret.github-pat")
    reports = [_check(capsys, "--history", *only, "--shard", f"{k}/5")[1] for k in range(1, 6)]
    assert sorted(len(r["findings"]) for r in reports) == [0, 0, 0, 0, 1]
    assert sorted(r["stats"]["units"] for r in reports) == [0, 0, 0, 0, 2]  # (file, message)


def test_agent_history_shards_split_by_session(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    shutil.copytree(HISTORY / "claude", home / ".claude")
    shutil.copytree(HISTORY / "codex", home / ".codex")
    shutil.copytree(HISTORY / "gemini" / "tmp", home / ".gemini" / "tmp")
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    shards = _assert_union(capsys, 3, "--agent-history")
    session_of = [
        {f["path"].split(SESSION)[0] for f in r["findings"] if SESSION in f["path"]} for r in shards
    ]
    assert sum(1 for s in session_of if s) == 1  # the session and its sub-agent together
    # keys relative to the history folder: the same split under another HOME
    other = tmp_path / "other"
    shutil.copytree(home, other)
    monkeypatch.setenv("HOME", str(other))
    _, moved = _check(capsys, "--agent-history", "--shard", "2/3")
    names = sorted(f["path"].removeprefix(str(other)) for f in moved["findings"])
    assert names == sorted(f["path"].removeprefix(str(home)) for f in shards[1]["findings"])


def test_the_report_says_which_shard_it_is(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for i in range(6):
        (tmp_path / f"m{i}.py").write_text(f"T = '{token(i)}'\n")
    main(["check", ".", "--format", "sarif", "--shard", "2/2", "--jobs", "1"])
    document = json.loads(capsys.readouterr().out)
    jsonschema.Draft7Validator(SCHEMA).validate(document)
    properties = document["runs"][0]["properties"]
    assert properties["shard"] == {"index": 2, "count": 2}
    assert set(properties["stats"]) == {"files", "bytes", "units", "suppressed", "skipped"}
    main(["check", ".", "--shard", "1/2", "--jobs", "1", "--color", "never"])
    out = capsys.readouterr().out
    assert "(shard 1/2)" in out.splitlines()[-1]
    main(["check", ".", "--jobs", "1", "--color", "never"])
    assert "shard" not in capsys.readouterr().out
