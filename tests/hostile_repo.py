"""Repositories that try to make git run their code, built for real in a temp dir.

Every configuration key, attribute driver, hook and environment variable through which a
repository (or a job's environment) can make git start a program is set to a script that
creates a marker file named after it. A test runs wukong-lint's commands on the repository
and asserts that the markers folder stays empty; `arm_check` shows the traps do fire when
plain git is run, so such a test can fail.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
HOOKS = (
    "pre-commit", "post-commit", "post-checkout", "post-index-change", "post-merge",
    "reference-transaction", "pre-auto-gc", "fsmonitor-watchman", "post-rewrite",
)  # fmt: skip


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True,
                          env=env or os.environ)  # fmt: skip
    return proc.stdout


class Traps:
    """A folder of marker scripts (`bin/NAME` creates `marks/NAME`)."""

    def __init__(self, base: Path) -> None:
        self.bin = base / "trap-bin"
        self.marks = base / "trap-marks"
        self.bin.mkdir(parents=True, exist_ok=True)
        self.marks.mkdir(parents=True, exist_ok=True)

    def script(self, name: str) -> str:
        path = self.bin / name
        if not path.exists():
            # reads nothing, succeeds: git goes on as if the program had worked
            path.write_text(f'#!/bin/sh\ntouch "{self.marks}/{name}"\nexit 0\n')
            path.chmod(0o755)
        return str(path)

    def fired(self) -> list[str]:
        return sorted(os.listdir(self.marks))

    def reset(self) -> None:
        for name in os.listdir(self.marks):
            os.unlink(self.marks / name)

    def environment(self) -> dict[str, str]:
        """GIT_* variables a hostile job environment might hold, each a trap."""
        return {
            "GIT_EXTERNAL_DIFF": self.script("env-external-diff"),
            "GIT_PAGER": self.script("env-pager"),
            "PAGER": self.script("env-pager-plain"),
            "GIT_SSH_COMMAND": self.script("env-ssh-command"),
            "GIT_SSH": self.script("env-ssh"),
            "GIT_ASKPASS": self.script("env-askpass"),
            "GIT_EDITOR": self.script("env-editor"),
            "GIT_CONFIG_COUNT": "2",
            "GIT_CONFIG_KEY_0": "core.fsmonitor",
            "GIT_CONFIG_VALUE_0": self.script("env-config-count-fsmonitor"),
            "GIT_CONFIG_KEY_1": "diff.external",
            "GIT_CONFIG_VALUE_1": self.script("env-config-count-external"),
            "GIT_CONFIG_PARAMETERS": f"'core.fsmonitor'='{self.script('env-config-params')}'",
            "GIT_TRACE": str(self.marks / "env-trace-file"),  # a file git writes
            "GIT_TRACE_PACKET": str(self.marks / "env-trace-packet"),
        }


def hostile_config(traps: Traps, repo_git_dir: Path) -> str:
    """.git/config lines that each make git run a trap."""
    hooks = repo_git_dir / "trap-hooks"
    hooks.mkdir(exist_ok=True)
    for hook in HOOKS:
        for folder in (hooks, repo_git_dir / "hooks"):
            target = folder / hook
            target.write_text(f'#!/bin/sh\ntouch "{traps.marks}/hook-{hook}"\nexit 0\n')
            target.chmod(0o755)
    s = traps.script
    return f"""
[core]
\tfsmonitor = {s("fsmonitor")}
\thooksPath = {hooks}
\tpager = {s("core-pager")}
\tsshCommand = {s("ssh-command")}
\taskPass = {s("askpass")}
\teditor = {s("editor")}
\talternateRefsCommand = {s("alternate-refs")}
[pager]
\tlog = {s("pager-log")}
\tdiff = {s("pager-diff")}
[log]
\tshowSignature = true
[gpg]
\tprogram = {s("gpg")}
[gpg "ssh"]
\tprogram = {s("gpg-ssh")}
[diff]
\texternal = {s("diff-external")}
[diff "evil"]
\ttextconv = {s("textconv")}
\tcommand = {s("diff-driver")}
[filter "evil"]
\tclean = {s("filter-clean")}
\tsmudge = {s("filter-smudge")}
\tprocess = {s("filter-process")}
[merge "evil"]
\tdriver = {s("merge-driver")}
[credential]
\thelper = !{s("credential-helper")}
[protocol]
\tallow = always
[protocol "ext"]
\tallow = always
[protocol "file"]
\tallow = always
[remote "origin"]
\turl = ext::sh -c touch% {traps.marks}/ext-transport
\tpromisor = true
\tuploadpack = {s("uploadpack")}
\tfetch = +refs/heads/*:refs/remotes/origin/*
[uploadpack]
\tpackObjectsHook = {s("pack-objects-hook")}
[alias]
\tlog = !{s("alias-log")}
\tdiff = !{s("alias-diff")}
"""


def _sign(repo: Path) -> None:
    """Give HEAD a (fake) signature header: with log.showSignature, git runs gpg on it."""
    raw = _git(repo, "cat-file", "commit", "HEAD")
    head, _, message = raw.partition("\n\n")
    signed = head + "\ngpgsig -----BEGIN PGP SIGNATURE-----\n iQEz\n -----END PGP SIGNATURE-----"
    proc = subprocess.run(["git", "hash-object", "-t", "commit", "-w", "--stdin"], cwd=repo,
                          input=f"{signed}\n\n{message}", capture_output=True, text=True,
                          check=True)  # fmt: skip
    branch = _git(repo, "symbolic-ref", "HEAD").strip()
    _git(repo, "update-ref", branch, proc.stdout.strip())


def build(base: Path, traps: Traps, *, files: dict[str, str] | None = None,
          message: str = "add config") -> Path:  # fmt: skip
    """A work tree with history (the last commit signed), a staged new file, an unstaged
    change to a tracked file, attributes that name the `evil` drivers, then the hostile
    config (written last: building it runs git the ordinary way)."""
    repo = base / "hostile"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.email", "dev@example.com"), ("user.name", "Dev"),
                       ("commit.gpgsign", "false")):  # fmt: skip
        _git(repo, "config", key, value)
    (repo / ".gitattributes").write_text("* diff=evil filter=evil merge=evil\n")
    (repo / "README.md").write_text("hello\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    for name, text in (files or {"config.py": f'TOKEN = "{TOKEN}"\n'}).items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", message)
    _sign(repo)
    (repo / "staged.py").write_text(f'KEY = "{TOKEN}"\n')
    _git(repo, "add", "staged.py")
    (repo / "README.md").write_text("hello, changed in the work tree\n")
    with open(repo / ".git" / "config", "a") as handle:
        handle.write(hostile_config(traps, repo / ".git"))
    return repo


def build_partial(base: Path, traps: Traps) -> Path:
    """A partial clone whose promisor remote is an `ext::` command, with a blob missing
    from history: reading it would make git fetch, that is run the command."""
    repo = base / "partial"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    for key, value in (("user.email", "dev@example.com"), ("user.name", "Dev")):
        _git(repo, "config", key, value)
    (repo / "a.py").write_text(f'TOKEN = "{TOKEN}"\n')
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    (repo / "a.py").write_text(f'TOKEN = "{TOKEN}"\nMORE = 1\n')
    _git(repo, "commit", "-qam", "two")
    blob = _git(repo, "rev-parse", "HEAD:a.py").strip()
    os.unlink(repo / ".git" / "objects" / blob[:2] / blob[2:])
    for key, value in (
        ("core.repositoryformatversion", "1"),
        ("extensions.partialClone", "origin"),
        ("remote.origin.url", f"ext::sh -c touch% {traps.marks}/lazy-fetch"),
        ("remote.origin.promisor", "true"),
        ("protocol.ext.allow", "always"),
    ):
        _git(repo, "config", key, value)
    return repo
