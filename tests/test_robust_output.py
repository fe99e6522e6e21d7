"""Robust output (issue 15): names that are not UTF-8, terminal control characters, ASCII
and C-locale standard output, and Ctrl-C during a multi-process scan."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_bounds import write_rule

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
FORMATS = ("text", "json", "sarif", "github", "junit")
SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
# cursor movement and clearing, an OSC 52 clipboard write, a bidirectional override
HOSTILE = "\x1b[2J\x1b[1;1H\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07\u202e"


def run(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "wukong_lint", *args],
        cwd=cwd, capture_output=True, env={**os.environ, **(env or {})}, timeout=120,
        check=False,
    )  # fmt: skip


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / os.fsdecode(b"bad\xff.env")).write_text(f"GITHUB_TOKEN={TOKEN}\n")
    (root / f"esc{HOSTILE}.sh").write_text(f"echo '{HOSTILE}'; sudo reboot\n")
    (root / "ünï cödé.py").write_text("x = 1  # " + "é" * 200 + f' t = "{TOKEN}" 终\n')
    return root


def test_every_format_takes_undecodable_names_and_control_characters(hostile):
    for fmt in FORMATS:
        proc = run("check", "--format", fmt, ".", cwd=hostile)
        assert proc.returncode == 1, (fmt, proc.stderr)
        assert proc.stderr == b"", (fmt, proc.stderr)
        text = proc.stdout.decode("utf-8")  # always valid UTF-8
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, fmt
        assert TOKEN not in text
        if fmt == "json":
            paths = {f["path"] for f in json.loads(text)["findings"]}
            assert os.fsdecode(b"bad\xff.env") in paths  # \udcff: os.fsencode gives the bytes
            assert f"esc{HOSTILE}.sh" in paths  # JSON escapes control characters itself
        elif fmt == "sarif":
            import jsonschema

            document = json.loads(text)
            jsonschema.validate(document, json.loads(SCHEMA.read_text()))
            uris = {
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in document["runs"][0]["results"]
            }
            assert "bad%FF.env" in uris
        elif fmt == "junit":
            import xml.dom.minidom

            xml.dom.minidom.parseString(proc.stdout)
            assert "bad\\xff.env" in text
        else:  # text and GitHub annotations show the bytes and the escapes
            assert "bad\\xff.env" in text
            assert "\\x1b[2J\\x1b[1;1H\\x1b]52;c;" in text and "\\u202e" in text


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "LANG": "C"}])
def test_an_ascii_or_c_locale_stdout_never_crashes(hostile, env):
    (hostile / "anchors.md").write_text("# 锚点\n\n## [P001] 风险 😀\n\n### Decision (决策)\nx\n")
    # (a C locale makes Python use UTF-8: two formats suffice there)
    for fmt in FORMATS if "PYTHONIOENCODING" in env else ("text", "json"):
        proc = run("check", "--format", fmt, ".", cwd=hostile, env=env)
        assert proc.returncode == 1 and b"Traceback" not in proc.stderr, (fmt, proc.stderr)
        assert b"internal error" not in proc.stderr
        text = proc.stdout.decode("ascii" if "PYTHONIOENCODING" in env else "utf-8")
        if fmt in ("json", "sarif"):
            report = json.loads(text)  # \u escapes: the same content
            assert "风险" in json.dumps(report, ensure_ascii=False) or fmt == "sarif"
    proc = run("anchors", "hints", "--stage", "t1", "anchors.md", cwd=hostile, env=env)
    assert proc.returncode == 0 and b"P001" in proc.stdout, proc.stderr


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(c) for c in handle.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs /proc")
def test_ctrl_c_during_a_multi_process_scan_exits_130_with_one_line(tmp_path):
    """Ctrl-C reaches the whole process group. The scan is kept busy by a slow custom rule
    (three one-second time-outs per worker); once its workers exist the group is
    interrupted: one line, exit 130, no worker traceback, no worker left behind."""
    pack = write_rule(tmp_path / "pack", "slow", "(?:a|aa)+(?:a|aa)+b", "aaaa")
    files = tmp_path / "files"
    files.mkdir()
    for n in range(80):  # enough for the process pool
        (files / f"f{n:02d}.txt").write_text("a" * 30000 + "\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "wukong_lint", "check", "--jobs", "2", "--rules", str(pack),
         "--select", "custom.slow", str(files)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=answer_interrupts,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while len(children(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    workers = children(proc.pid)
    assert len(workers) >= 2, "the pool did not start"
    time.sleep(0.3)  # inside the slow regex
    os.killpg(proc.pid, signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.decode().splitlines()[-1] == "wukong-lint: interrupted"
    assert b"Traceback" not in err and b"Process " not in err, err
    assert b"KeyboardInterrupt" not in err
    time.sleep(0.2)
    assert not [w for w in workers if running(w)]


def answer_interrupts() -> None:
    """In the child before it starts: Ctrl-C back to its default. A test run started in the
    background of a script (`pytest &`, some CI runners) ignores SIGINT, the child would
    inherit that, Python would then not turn SIGINT into KeyboardInterrupt, and the scan
    would run to its end (exit 2) whatever the code under test does."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def running(pid: int) -> bool:
    """Whether `pid` is alive (a zombie waiting for its parent to read it is not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except OSError:
        return False
