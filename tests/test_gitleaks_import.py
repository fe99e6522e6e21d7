"""`rules import-gitleaks`: path limits and allowlists kept, examples that pass the whole rule
(or marked to be written), no raw Python warnings. Run as a user runs it (subprocess, with
warnings turned into errors so that any raw warning would show)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from wukong_lint.migrate.gitleaks_paths import path_globs

CONFIG = r"""
title = "team"

[[rules]]
id = "tf-token"
description = "Terraform Cloud token"
regex = '''(?i)tfe_token\s*=\s*["']([a-z0-9]{14}\.atlasv1\.[a-z0-9]{40,})["']'''
secretGroup = 1
entropy = 4.0
keywords = ["tfe_token"]
path = '''(?i)\.(?:tf|hcl)$'''

[[rules]]
id = "npm-auth"
regex = '''_authToken=([A-Za-z0-9+/=]{30,})'''
keywords = ["_authtoken"]
path = '''(^|/)\.npmrc$'''

[[rules]]
id = "cfg-token"
regex = '''wtok_[a-f0-9]{32}'''
keywords = ["wtok_"]
path = '''^(?!test).*\.cfg$'''

[[rules]]
id = "posix-class"
regex = '''pkey[[:alnum:]]{20}'''
keywords = ["pkey"]

[[rules]]
id = "low-entropy"
regex = '''lowe_([ab]{20})'''
secretGroup = 1
keywords = ["lowe_"]
entropy = 3.0

[[rules]]
id = "acme"
regex = '''acme_([A-Za-z0-9]{24})'''
secretGroup = 1
entropy = 3.5
keywords = ["acme_"]
[[rules.allowlists]]
stopwords = ["sandbox"]

[[rules]]
id = "props-password"
regex = '''password=([A-Za-z0-9]{12,})'''
secretGroup = 1
path = '''\.properties$'''

[allowlist]
paths = ['''(^|/)vendor/''']
"""


def wukong(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    return subprocess.run(
        [sys.executable, "-c", "import sys; from wukong_lint.cli import main; "
         "sys.exit(main(sys.argv[1:]))", *args],
        cwd=cwd, capture_output=True, text=True, env=env,
    )  # fmt: skip


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess]:
    base = tmp_path_factory.mktemp("gitleaks")
    (base / ".gitleaks.toml").write_text(CONFIG)
    proc = wukong("rules", "import-gitleaks", ".gitleaks.toml", "-o", "pack", cwd=base)
    return base, proc


def rule(base: Path, name: str) -> dict:
    return yaml.safe_load((base / "pack" / f"{name}.yaml").read_text())


def test_import_runs_without_raw_warnings_and_notes_what_needs_care(pack):
    _, proc = pack
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no Python warning (they would be errors here)
    assert "7 rule(s) written." in proc.stdout
    notes = proc.stdout
    assert "gitleaks.posix-class: regex: Possible nested set" in notes
    assert "gitleaks.cfg-token: `path = " in notes and "no glob form" in notes
    for todo in ("posix-class", "low-entropy", "cfg-token"):
        assert f"gitleaks.{todo}: no generated example passes the rule" in notes


def test_path_limits_and_allowlists_are_kept(pack):
    base, _ = pack
    assert rule(base, "tf-token")["paths"] == ["*.[tT][fF]", "*.[hH][cC][lL]"]
    assert rule(base, "npm-auth")["paths"] == [".npmrc", "*/.npmrc"]
    props = rule(base, "props-password")
    assert props["paths"] == ["*.properties"] and props["keywords"] == []
    cfg_allow = rule(base, "cfg-token")["allow"]
    assert {"regex": "(^|/)vendor/", "target": "path"} in cfg_allow  # the global allowlist
    assert any(a.get("target") == "path" and "(?!" in a["regex"] for a in cfg_allow)
    assert "(?i)sandbox" in rule(base, "acme")["allow"]  # a per-rule stopword
    tree = base / "tree"
    for rel in ("main.tf", "app.cfg", "test.cfg", "a.txt", "vendor/x.cfg", ".npmrc",
                "sub/.npmrc", "npmrc.txt", "b.py", "c.py"):  # fmt: skip
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
    token = "tfe_token = 'ab12cd34ef56gh.atlasv1.Zk3m9Qx2Lp8Wv5Rt7Ny4Hb6Jc1Fd0Gs3Ke8Ma2Ub5Ti9'\n"
    (tree / "main.tf").write_text(token)
    (tree / "a.txt").write_text(token)
    for rel in ("app.cfg", "test.cfg", "vendor/x.cfg", "a.txt"):
        with open(tree / rel, "a") as handle:
            handle.write("x = wtok_8f3a91c07be24d56a1f09c3e7d28b4f6\n")
    npm = "//registry.npmjs.org/:_authToken=QWxhZGRpbjpvcGVuIHNlc2FtZQ0KQWxhZGRp\n"
    for rel in (".npmrc", "sub/.npmrc", "npmrc.txt"):
        (tree / rel).write_text(npm)
    (tree / "b.py").write_text("k = acme_Qw8Er7Ty6Ui5Op4As3Df2Gh1\n")
    (tree / "c.py").write_text("k = acme_sandboxQw8Er7Ty6Ui5Op4A\n")
    # no keywords: runs on every file its path names, and only there
    (tree / "app.properties").write_text("password=Zq7vLp2tKx9wRm4s\n")
    (tree / "app.txt").write_text("password=Zq7vLp2tKx9wRm4s\n")
    # from the top of the tree, as gitleaks matches paths relative to where it scans
    proc = wukong("check", "--no-builtin-rules", "--rules", "../pack", "--format", "json", ".",
                  cwd=tree)  # fmt: skip
    found = sorted((f["path"], f["rule_id"]) for f in json.loads(proc.stdout)["findings"])
    assert found == [
        (".npmrc", "gitleaks.npm-auth"),
        ("app.cfg", "gitleaks.cfg-token"),
        ("app.properties", "gitleaks.props-password"),
        ("b.py", "gitleaks.acme"),
        ("main.tf", "gitleaks.tf-token"),
        ("sub/.npmrc", "gitleaks.npm-auth"),
    ]


def test_examples_pass_the_rule_or_are_marked_to_be_written(pack):
    base, _ = pack
    tf = rule(base, "tf-token")
    assert "todo-examples" not in tf.get("tags", [])
    assert "atlasv1" in tf["examples"]["match"][0]
    assert "todo-examples" in rule(base, "low-entropy")["tags"]  # [ab]{20} cannot reach 3.0
    proc = wukong("rules", "test", "pack", cwd=base)
    assert proc.returncode == 0, proc.stdout
    assert "7 rules tested, 0 problem(s), 3 example(s) to be written." in proc.stdout
    assert "gitleaks.low-entropy: example should match but does not" in proc.stdout
    strict = wukong("rules", "test", "--strict", "pack", cwd=base)
    assert strict.returncode == 1 and "3 problem(s)" in strict.stdout


@pytest.mark.parametrize(
    ("pattern", "globs"),
    [
        (r"\.pem$", ["*.pem"]),
        (r"(?i)\.(?:tf|hcl)$", ["*.[tT][fF]", "*.[hH][cC][lL]"]),
        (r"(^|/)\.npmrc$", [".npmrc", "*/.npmrc"]),
        (r"^config/.*\.ya?ml$", ["config/*.yml", "config/*.yaml"]),
        (r"id_[rd]sa$", ["*id_[rd]sa"]),
        (r"^(?!test).*\.cfg$", None),
        (r"\bsecrets?\b", None),
        (r"(?m)^x$", None),
    ],
)
def test_path_regex_to_globs(pattern: str, globs: list[str] | None):
    assert path_globs(pattern) == globs
