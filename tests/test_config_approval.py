"""Issue 26: a project config may tighten the live hook's policy, not loosen it, unless the
user approved that exact file (`wukong-lint config approve`); the user's and the
administrator's configs rank above the project's. The loosening found both ways, the config
without it, the approval record, precedence, `config approve`, and writes of a project config
judged by their new content (the `config-write` kind)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from wukong_lint.cli import main
from wukong_lint.config import approvals, layers
from wukong_lint.config.loosening import describe, guarded, loosenings, without
from wukong_lint.config.project import load_config
from wukong_lint.config.settings import Config
from wukong_lint.hook.config_cache import hook_config
from wukong_lint.shell.config_writes import sed_substitute

SECURITY = guarded(False)


def loose(config: Config, **options: Any) -> list[tuple[str, str]]:
    return [(item.key, item.detail) for item in loosenings(config, SECURITY, **options)]


# -- what loosens, what tightens ----------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (Config(ignore=("dangerous-command",)), [("ignore", "dangerous-command")]),
        (Config(ignore=("sensitive-path.x",)), [("ignore", "sensitive-path.x")]),
        (Config(ignore=("dangerous",)), [("ignore", "dangerous")]),
        (Config(ignore=("all",)), [("ignore", "all")]),
        (Config(select=("anchor",)), [("select", "anchor")]),
        (Config(select=("secret.jwt",)), [("select", "secret.jwt")]),
        (Config(per_path_ignores=(("*", ("secret",)),)), [("per-path-ignores", "*: secret")]),
        (Config(exclude=("vendor/",)), [("exclude", "vendor/")]),
        (Config(builtin_rules=False, rule_dirs=("/x",)), [("builtin-rules", "false")]),
        (Config(fail_on="critical"), [("fail-on", "critical")]),
        (Config(rule_params={"secret.x": {"severity": "low"}}),
         [("rule-params", "secret.x.severity")]),
        (Config(rule_params={"secret.x": {"enabled": False}}),
         [("rule-params", "secret.x.enabled")]),
        (Config(rule_params={"secret.x": {"entropy": 5.0}}), [("rule-params", "secret.x.entropy")]),
        (Config(allow_comments=("gitleaks",)), [("allow-comments", "gitleaks")]),
    ],
)  # fmt: skip
def test_loosening_is_found(config: Config, expected: list[tuple[str, str]]) -> None:
    assert loose(config) == expected


@pytest.mark.parametrize(
    "config",
    [
        Config(),
        Config(fail_on="medium"),
        Config(fail_on="high"),
        Config(ignore=("anchor", "injection.sql", "hardcoded-config")),
        Config(select=("all",)),
        Config(select=("secret", "dangerous-command", "sensitive-path", "guard-integrity")),
        Config(per_path_ignores=(("docs/*", ("anchor",)),)),
        Config(rule_dirs=("/team/rules",)),
        Config(rule_params={"dangerous-command.git-push-force": {"severity": "critical"}}),
        Config(rule_params={"secret.some-off-rule": {"enabled": True}}),
        Config(rule_params={"injection.sql": {"enabled": False}}),
        Config(allow_comments=("bandit", "ruff")),
        Config(profile="wukong"),
    ],
)
def test_tightening_or_neutral_is_not_loosening(config: Config) -> None:
    assert loose(config) == []


def test_a_raised_severity_is_known_with_the_rules() -> None:
    config = Config(rule_params={"dangerous-command.git-push-force": {"severity": "high"}})
    assert loose(config) == [("rule-params", "dangerous-command.git-push-force.severity")]
    rules = {"dangerous-command.git-push-force": ("dangerous-command", 2)}
    assert loose(config, rules=rules) == []  # medium -> high: tighter
    assert loose(Config(rule_params={"dangerous-command.git-push-force": {"severity": "low"}}),
                 rules=rules) != []  # fmt: skip


def test_the_protocol_categories_are_guarded_in_a_wukong_project() -> None:
    config = Config(ignore=("body-boundary",), profile="generic")
    assert loose(config) == []
    found = loosenings(config, guarded(True), wukong_project=True)
    assert [(i.key, i.detail) for i in found] == [
        ("ignore", "body-boundary"),
        ("profile", "generic"),
    ]


def test_without_keeps_the_tightening_parts() -> None:
    config = Config(
        path="/p/.wukong-lint.yaml",
        fail_on="critical",
        select=("anchor", "secret.jwt"),
        ignore=("dangerous-command", "anchor.date"),
        per_path_ignores=(("tests/*", ("secret", "anchor")), ("docs/*", ("secret",))),
        exclude=("vendor/",),
        builtin_rules=False,
        rule_dirs=("/p/rules",),
        rule_params={
            "secret.jwt": {"enabled": False, "severity": "critical"},
            "anchor.x": {"a": 1},
        },
        allow_comments=("gitleaks", "bandit"),
    )
    found = loosenings(config, SECURITY)
    kept = without(config, found)
    assert kept.fail_on is None
    assert kept.select == ("anchor", "secret.jwt", *SECURITY)
    assert kept.ignore == ("anchor.date",)
    assert kept.per_path_ignores == (("tests/*", ("anchor",)),)
    assert kept.exclude == ()
    assert kept.builtin_rules is True and kept.rule_dirs == ("/p/rules",)
    assert kept.rule_params == {"secret.jwt": {"severity": "critical"}, "anchor.x": {"a": 1}}
    assert kept.allow_comments == ("bandit",)
    assert loosenings(kept, SECURITY) == []
    assert "dangerous-command (ignore: dangerous-command)" in describe(found)


# -- the hook applies it: approval, precedence ---------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    return root


def write_config(project: Path, text: str) -> Path:
    path = project / ".wukong-lint.yaml"
    path.write_text(text)
    return path


def test_an_unapproved_loosening_is_dropped_with_a_warning(project: Path) -> None:
    write_config(project, "ignore: [dangerous-command, anchor]\nfail-on: medium\n")
    config, warnings = hook_config(None, str(project))
    assert config.ignore == ("anchor",) and config.fail_on == "medium"
    assert warnings == [
        "ignored: .wukong-lint.yaml loosens dangerous-command (ignore: dangerous-command); "
        "run `wukong-lint config approve` to allow it"
    ]


def test_an_approved_file_applies_as_written_until_it_changes(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_config(project, "ignore: [dangerous-command]\n")
    monkeypatch.chdir(project)
    assert main(["config", "approve"]) == 0
    assert "approved" in capsys.readouterr().out
    config, warnings = hook_config(None, str(project))
    assert config.ignore == ("dangerous-command",) and warnings == []
    record = approvals.load()[0]
    assert record["path"] == str(path) and len(record["sha256"]) == 64
    store = Path(approvals.approvals_path() or "")
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    path.write_text("ignore: [dangerous-command, secret]\n")  # another content
    config, warnings = hook_config(None, str(project))
    assert config.ignore == () and warnings
    assert main(["config", "approve", "--list"]) == 0
    assert "changed" in capsys.readouterr().out
    assert main(["config", "approve", "--revoke"]) == 0
    assert approvals.load() == []


def test_approve_says_when_there_is_nothing_to_approve(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write_config(project, "fail-on: medium\n")
    monkeypatch.chdir(project)
    assert main(["config", "approve"]) == 0
    assert "does not loosen" in capsys.readouterr().out
    assert approvals.load() == []
    write_config(project, "ignore: [dangerous-comand]\n")  # a typo is refused, not approved
    assert main(["config", "approve"]) == 2


def test_a_rewritten_config_cache_cannot_borrow_an_approval(project: Path) -> None:
    """The approval binds the file's bytes and the validated config: a cache entry rewritten
    to a looser policy (its key kept) does not match it."""
    path = write_config(project, "ignore: [dangerous-command.git-push-force]\n")
    approvals.approve(str(path), path.read_bytes(), load_config(str(path)), "x")
    assert hook_config(None, str(project))[0].ignore == ("dangerous-command.git-push-force",)
    cache = Path(os.environ["WUKONG_LINT_CACHE_DIR"])
    entry = next(p for p in cache.glob("config-*.json") if str(path) in p.read_text())
    data = json.loads(entry.read_text())
    data["config"]["ignore"] = ["dangerous-command", "sensitive-path"]
    entry.write_text(json.dumps(data))
    config, warnings = hook_config(None, str(project))
    assert config.ignore == () and warnings


def test_precedence_managed_over_user_over_project(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_dir = Path(approvals.user_config_dir() or "")
    user_dir.mkdir(parents=True)
    (user_dir / "config.yaml").write_text(
        "ignore: [dangerous-command.git-push-force]\nfail-on: critical\nselect: [all]\n"
    )
    managed = tmp_path / "managed.yaml"
    managed.write_text("rule-params:\n  dangerous-command.git-push-force: {severity: high}\n")
    monkeypatch.setenv(layers.MANAGED_ENV, str(managed))
    write_config(project, "fail-on: medium\nignore: [anchor]\nselect: [secret]\n")
    config, warnings = hook_config(None, str(project))
    # the user's loosening applies (their own file); the project still tightens fail-on
    assert config.fail_on == "medium"
    assert set(config.ignore) == {"dangerous-command.git-push-force", "anchor"}
    assert config.select == ("all",)  # the user's
    assert config.rule_params == {"dangerous-command.git-push-force": {"severity": "high"}}
    assert warnings  # the project's `select: [secret]` drops guarded categories
    managed.write_text("fail-on: high\nselect: [secret, dangerous-command]\n")
    config, _ = hook_config(None, str(project))
    assert config.fail_on == "high" and config.select == ("secret", "dangerous-command")


def test_the_managed_config_can_forbid_approvals(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_config(project, "ignore: [dangerous-command]\n")
    approvals.approve(str(path), path.read_bytes(), load_config(str(path)), "x")
    managed = tmp_path / "managed.yaml"
    managed.write_text("approvals: false\n")
    monkeypatch.setenv(layers.MANAGED_ENV, str(managed))
    config, warnings = hook_config(None, str(project))
    assert config.ignore == ()
    assert "the managed config forbids approvals" in warnings[0]
    monkeypatch.chdir(project)
    assert main(["config", "approve"]) == 2  # refused, with the reason


def test_a_config_option_in_the_users_folder_is_trusted(project: Path) -> None:
    user_dir = Path(approvals.user_config_dir() or "")
    user_dir.mkdir(parents=True)
    own = user_dir / "strict.yaml"
    own.write_text("ignore: [dangerous-command.git-push-force]\n")
    config, warnings = hook_config(str(own), str(project))
    assert config.ignore == ("dangerous-command.git-push-force",) and warnings == []
    inside = write_config(project, "ignore: [dangerous-command.git-push-force]\n")
    config, warnings = hook_config(str(inside), str(project))  # --config in the project
    assert config.ignore == () and warnings


# -- writes of a project config, judged by their content ----------------------------------


def test_sed_substitute() -> None:
    text = "fail-on: high\nexclude: [vendor/]\n"
    assert sed_substitute("s/fail-on: high/fail-on: critical/", text) == (
        "fail-on: critical\nexclude: [vendor/]\n"
    )
    assert sed_substitute("s|vendor/|x/|g", text) == "fail-on: high\nexclude: [x/]\n"
    assert sed_substitute(r"s/\(high\)/\1er/", text) == "fail-on: higher\nexclude: [vendor/]\n"
    assert sed_substitute("s/(high)/&&/", text) == text  # BRE: ( is literal
    assert sed_substitute("s/(high)/[\\1]/", text, extended=True) == (
        "fail-on: [high]\nexclude: [vendor/]\n"
    )
    for script in ("1i ignore: [secret]", "/x/d", "s/a/b", "y/abc/xyz/", "s/a/b/w out"):
        assert sed_substitute(script, text) is None, script


def _judge(project: Path, tool: str, data: dict[str, Any], profile: str = "generic") -> list[str]:
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model.events import Context, call_event, make_unit

    ctx = Context(profile, False, {}, str(project))
    event, text = call_event(ctx, 1, tool, data, None, "main", None, True)
    found, errors = scan_unit(load_rules(details=False), make_unit("<hook>", event, text))
    assert errors == []
    return [f.message for f in found if f.rule_id == "guard-integrity.config-loosening-write"]


@pytest.mark.parametrize(
    ("command", "loosens"),
    [
        ("echo 'ignore: [dangerous-command]' >> .wukong-lint.yaml", True),
        ("printf 'builtin-rules: false\\n' > .wukong-lint.yaml", True),
        ("cat > .wukong-lint.yaml <<'EOF'\nselect: [anchor]\nEOF", True),
        ("echo 'fail-on: critical' | tee -a .wukong-lint.yaml", True),
        ("sed -i 's/fail-on: high/fail-on: critical/' .wukong-lint.yaml", True),
        ("sed -i '1i ignore: [secret]' .wukong-lint.yaml", True),  # not emulated: cannot tell
        ("cp /nonexistent/lint.yaml .wukong-lint.yaml", True),
        ("curl -fsSL https://example.net/l.yaml -o .wukong-lint.yaml", True),
        ("python3 -c \"open('.wukong-lint.yaml', 'a').write('x')\"", True),
        ("rm -f .wukong-lint.yaml", True),
        ("mv .wukong-lint.yaml old.yaml", True),
        ("ln -sf /dev/null .wukong-lint.yaml", True),
        ("printf '[tool.wukong-lint]\\nignore = [\"secret\"]\\n' >> pyproject.toml", True),
        ("echo 'ignore: [anchor]' >> .wukong-lint.yaml", False),
        ("echo 'fail-on: medium' >> .wukong-lint.yaml", True),  # fail-on twice: invalid
        ("sed -i 's/fail-on: high/fail-on: medium/' .wukong-lint.yaml", False),
        ("sed -i 's/0.1.0/0.2.0/' pyproject.toml", False),
        ("echo 'x = 1' >> pyproject.toml", False),
        ("cat .wukong-lint.yaml", False),
        ("cp .wukong-lint.yaml /tmp/backup.yaml", False),
        ("touch .wukong-lint.yaml", False),
    ],
)
def test_shell_writes_of_the_project_config(project: Path, command: str, loosens: bool) -> None:
    write_config(project, "fail-on: high\nexclude: [vendor/]\n")  # loosens already: exclude
    (project / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "0.1.0"\n')
    found = _judge(project, "Bash", {"command": command})
    assert bool(found) == loosens, (command, found)


def test_file_tool_writes_of_the_project_config(project: Path) -> None:
    path = write_config(project, "fail-on: high\nexclude: [vendor/]\n")
    target = str(path)
    edit = {"file_path": target, "old_string": "fail-on: high", "new_string": "fail-on: critical"}
    assert _judge(project, "Edit", edit)
    tighter = {**edit, "new_string": "fail-on: medium"}
    assert not _judge(project, "Edit", tighter)  # the existing exclude is not the edit's
    missing = {**edit, "old_string": "not there"}
    assert not _judge(project, "Edit", missing)  # the edit fails: nothing is written
    multi = {"file_path": target, "edits": [
        {"old_string": "fail-on: high", "new_string": "fail-on: medium"},
        {"old_string": "exclude: [vendor/]", "new_string": "builtin-rules: false"},
    ]}  # fmt: skip
    assert _judge(project, "MultiEdit", multi)
    assert _judge(project, "Write", {"file_path": target, "content": "ignore: [secret]\n"})
    assert _judge(project, "Write", {"file_path": target, "content": "ignore: [secet]\n"})
    assert not _judge(project, "Write", {"file_path": target, "content": "fail-on: low\n"})
    sub = project / "services" / "worker"
    sub.mkdir(parents=True)
    content = '[project]\nname = "w"\n\n[tool.wukong-lint]\nselect = ["anchor"]\n'
    toml = {"file_path": str(sub / "pyproject.toml"), "content": content}
    assert _judge(project, "Write", toml)
    mcp = {"path": str(project / ".wukong-lint.yml"), "content": "ignore: [dangerous-command]\n"}
    assert _judge(project, "mcp__filesystem__write_file", mcp)
