"""Paths named on the command line are never skipped in silence: standard input, pipes,
FIFOs, symlinks, unreadable and binary files; FIFOs inside folders never hang a scan.
Run with the real command (subprocess) where a stream or a process boundary matters."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
LINE = f'T = "{TOKEN}"\n'


def wukong(*args: str, cwd: Path, stdin: bytes | None = None, env: dict | None = None,
           shell: str | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    exe = shutil.which("wukong-lint", path=os.path.dirname(sys.executable))
    assert exe, "the console script is installed in the venv"
    full_env = {**os.environ, **(env or {})}
    command = [exe, *args] if shell is None else ["bash", "-c", shell.replace("WUKONG", exe)]
    proc = subprocess.run(
        command, cwd=cwd, input=stdin, capture_output=True, env=full_env, timeout=60
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode()
    )


def findings(proc: subprocess.CompletedProcess[str]) -> list[tuple[str, str, int]]:
    report = json.loads(proc.stdout)
    return [(f["path"], f["rule_id"], f["line"]) for f in report["findings"]]


def test_stdin_with_and_without_a_filename(tmp_path: Path):
    proc = wukong("check", "-", "--format", "json", cwd=tmp_path, stdin=LINE.encode())
    assert proc.returncode == 1
    assert findings(proc) == [("-", "secret.github-pat", 1)]
    # the name decides which rules apply (command rules read shell scripts)
    script = b"#!/bin/sh\nrm -rf /\n"
    named = wukong("check", "-", "--stdin-filename", "ops/deploy.sh", "--format", "json",
                   cwd=tmp_path, stdin=script)  # fmt: skip
    assert named.returncode == 1
    assert findings(named) == [("ops/deploy.sh", "dangerous-command.rm-rf-root", 2)]
    prose = wukong("check", "-", "--stdin-filename", "notes.txt", cwd=tmp_path, stdin=script)
    assert prose.returncode == 0 and "No findings. 1 file scanned" in prose.stdout
    # stdin mixed with a folder; --stdin-filename without `-` is a usage error
    (tmp_path / "a.py").write_text(LINE)
    both = wukong("check", ".", "-", "--format", "json", cwd=tmp_path, stdin=LINE.encode())
    assert {f[0] for f in findings(both)} == {"a.py", "-"}
    bad = wukong("check", "--stdin-filename", "x.py", ".", cwd=tmp_path)
    assert bad.returncode == 2 and "needs `-`" in bad.stderr


def test_dev_stdin_and_process_substitution_are_streams(tmp_path: Path):
    proc = wukong("check", "/dev/stdin", "--format", "concise", cwd=tmp_path, stdin=LINE.encode())
    assert proc.returncode == 1
    assert proc.stdout.startswith("/dev/stdin:1:6: critical secret.github-pat ")
    sub = wukong(cwd=tmp_path, shell=f"WUKONG check --format concise <(printf '%s' '{LINE}')")
    assert sub.returncode == 1 and ":1:6: critical secret.github-pat" in sub.stdout
    assert TOKEN not in sub.stdout + sub.stderr


def test_named_fifo_is_read_and_fifos_in_folders_are_skipped(tmp_path: Path, monkeypatch):
    folder = tmp_path / "tree"
    folder.mkdir()
    (folder / "a.py").write_text(LINE)
    os.mkfifo(folder / "pipe")  # nobody writes to it: opening it would block forever
    listening = socket.socket(socket.AF_UNIX)
    monkeypatch.chdir(folder)  # a relative name: socket paths are limited to ~100 bytes
    listening.bind("sock")
    try:
        proc = wukong("check", "--format", "json", "tree", cwd=tmp_path)
        assert proc.returncode == 1 and findings(proc) == [("tree/a.py", "secret.github-pat", 1)]
        # a named socket is refused with a message, and the run does not pass
        named_socket = wukong("check", "tree/sock", cwd=tmp_path)
        assert named_socket.returncode == 2 and "tree/sock: a socket: not scanned" in (
            named_socket.stderr
        )
    finally:
        listening.close()
    # a named FIFO is read as a stream (written by another thread)
    fifo = tmp_path / "named-pipe"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w") as handle:
            handle.write(LINE)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        proc = wukong("check", "--format", "json", "named-pipe", cwd=tmp_path)
    finally:
        writer.join(timeout=30)
    assert proc.returncode == 1 and findings(proc) == [("named-pipe", "secret.github-pat", 1)]


def test_stream_size_limit_is_not_a_silent_pass(tmp_path: Path):
    data = (LINE + "x = 1\n" * 2000).encode()
    limit = {"WUKONG_LINT_MAX_STREAM_BYTES": "1000"}
    proc = wukong("check", "-", cwd=tmp_path, stdin=data, env=limit)
    assert proc.returncode == 2
    assert "-: stream longer than" in proc.stderr and "only its start was scanned" in proc.stderr
    allowed = wukong("check", "-", "--allow-skipped", cwd=tmp_path, stdin=data, env=limit)
    assert allowed.returncode == 1  # the start was scanned: the token is there
    whole = wukong("check", "-", cwd=tmp_path, stdin=data)
    assert whole.returncode == 1 and "stream longer" not in whole.stderr


def test_named_symlinks_are_followed_or_refused(tmp_path: Path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.py").write_text(LINE)
    os.symlink("real/a.py", tmp_path / "link.py")
    os.symlink("real", tmp_path / "linked-dir")
    os.symlink("nowhere", tmp_path / "broken")
    proc = wukong("check", "--format", "json", "link.py", "linked-dir", cwd=tmp_path)
    assert proc.returncode == 1
    assert findings(proc) == [
        ("link.py", "secret.github-pat", 1),
        ("linked-dir/a.py", "secret.github-pat", 1),
    ]
    broken = wukong("check", "--format", "json", "broken", cwd=tmp_path)
    assert broken.returncode == 2
    assert "wukong-lint: warning: broken: broken symbolic link: not scanned" in broken.stderr
    report = json.loads(broken.stdout)
    assert report["errors"] == [{"path": "broken", "message": "broken symbolic link: not scanned"}]
    assert wukong("check", "broken", "--allow-skipped", cwd=tmp_path).returncode == 0
    os.symlink("loop", tmp_path / "loop")  # a link to itself
    loop = wukong("check", "loop", cwd=tmp_path)
    assert loop.returncode == 2 and "loop: symbolic link: " in loop.stderr
    assert "not scanned" in loop.stderr
    # inside a folder, symlinks are still not followed
    folder = wukong("check", "--format", "json", ".", cwd=tmp_path)
    assert {f[0] for f in findings(folder)} == {"real/a.py"}


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux /proc")
def test_named_unreadable_file_fails_unless_allowed(tmp_path: Path):
    # /proc/self/mem is a regular file that no one can read from its start (EIO): an
    # unreadable file even for root, who can read a chmod 000 file
    proc = wukong("check", "/proc/self/mem", cwd=tmp_path)
    assert proc.returncode == 2
    assert "warning: /proc/self/mem: cannot read:" in proc.stderr
    assert wukong("check", "/proc/self/mem", "--allow-skipped", cwd=tmp_path).returncode == 0
    if os.geteuid() != 0:
        locked = tmp_path / "locked.txt"
        locked.write_text(LINE)
        locked.chmod(0)
        try:
            denied = wukong("check", "locked.txt", cwd=tmp_path)
        finally:
            locked.chmod(0o644)
        assert denied.returncode == 2 and "locked.txt: cannot read" in denied.stderr


def test_named_binary_file_is_a_note_not_a_failure(tmp_path: Path):
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0" + TOKEN.encode())
    (tmp_path / "data.bin").write_bytes(b"\0\1\2" + TOKEN.encode())
    (tmp_path / "a.py").write_text("x = 1\n")
    proc = wukong("check", "--format", "json", "logo.png", "data.bin", "a.py", cwd=tmp_path)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["stats"]["skipped"] == 2
    assert "note: logo.png: binary file, not scanned" in proc.stderr
    assert "note: data.bin: binary file, not scanned" in proc.stderr
    piped = wukong("check", "-", cwd=tmp_path, stdin=b"\x1f\x8b\x08\0\0" + TOKEN.encode())
    assert piped.returncode == 0 and "note: -: binary data, not scanned" in piped.stderr
    quiet = wukong("check", "--quiet", "logo.png", cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == ""


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_named_character_device_is_a_stream(tmp_path: Path):
    proc = wukong("check", "/dev/null", cwd=tmp_path)
    assert proc.returncode == 0 and "1 file scanned" in proc.stdout


def test_closed_stdin_and_excluded_named_files_are_said(tmp_path: Path):
    closed = wukong(cwd=tmp_path, shell="WUKONG check - <&-")
    assert closed.returncode == 2 and "-: standard input is closed: not scanned" in closed.stderr
    (tmp_path / ".wukong-lint.yaml").write_text("exclude: [secret.py]\n")
    (tmp_path / "secret.py").write_text(LINE)
    proc = wukong("check", "secret.py", cwd=tmp_path)
    assert proc.returncode == 0
    assert "note: secret.py: excluded by the config, not scanned" in proc.stderr
    piped = wukong("check", "-", "--stdin-filename", "secret.py", cwd=tmp_path, stdin=b"x")
    assert "note: secret.py: excluded by the config, not scanned" in piped.stderr


def test_a_tracked_path_replaced_by_a_fifo_does_not_hang_a_git_scan(repo: Path):
    (repo / "data").write_text("x = 1\n")
    (repo / "a.py").write_text(LINE)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "base"], cwd=repo, check=True)
    (repo / "data").unlink()
    os.mkfifo(repo / "data")  # git still lists it (--cached); opening it would block
    proc = wukong("check", "--format", "json", ".", cwd=repo)
    assert proc.returncode == 1 and findings(proc) == [("a.py", "secret.github-pat", 1)]


def test_a_named_folder_without_files_is_said(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    proc = wukong("check", "empty", cwd=tmp_path)
    assert proc.returncode == 0 and "0 files scanned" in proc.stdout
    assert "note: empty: no file to scan in this folder" in proc.stderr
