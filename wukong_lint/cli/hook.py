"""`wukong-lint hook`: the Claude Code hook (event JSON on stdin).

It judges PreToolUse calls, PostToolUse results and UserPromptSubmit prompts; the events with
nothing to judge (SessionStart, PreCompact, Stop...) are accepted with exit 0. The project's
config (`.wukong-lint.yaml` / `[tool.wukong-lint]`) is found from the event's `cwd`;
`--config`, `--select`, `--ignore`, `--profile` and `--fail-on` override it, and a selector
that names no rule is an error (exit 2, "did you mean"), never a hook that checks nothing.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (typing and argparse cost ~5 ms: see quick_args)
if TYPE_CHECKING:
    import argparse
    from typing import Any

ON_ERROR = ("ask", "allow", "block")
MODES = ("exit", "json")
FAIL_ON = ("low", "medium", "high", "critical")
PROFILES = ("generic", "wukong")
AGENT_NAMES = ("auto", "claude-code", "codex", "copilot", "cursor", "gemini")  # (agents/)
ASK_FALLBACKS = ("deny", "allow")
# The options quick_args reads, with the values each may take (None: any value).
_QUICK_OPTIONS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "--mode": ("mode", MODES),
    "--fail-on": ("fail_on", FAIL_ON),
    "--profile": ("profile", PROFILES),
    "--on-error": ("on_error", ON_ERROR),
    "--config": ("config", None),
    "--agent": ("agent", AGENT_NAMES),
    "--ask-fallback": ("ask_fallback", ASK_FALLBACKS),
}
_QUICK_LISTS = {"--select": "select", "--ignore": "ignore", "--rules": "rules"}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hook", help="Claude Code hook: judge the tool call, tool result or prompt on stdin"
    )
    parser.add_argument(
        "--mode",
        choices=MODES,
        default="json",
        help="answer in Claude Code's JSON form on stdout (default: deny, ask and allow all "
        "reach the agent), or with exit codes only (deny only: exit 2 and the reason on "
        "stderr; an ask becomes a note and the call runs)",
    )
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default=None,
        help="lowest severity that blocks (default: the config's fail-on, else high); "
        "medium findings below it ask",
    )
    parser.add_argument("--profile", choices=PROFILES, default=None)
    parser.add_argument("--config", metavar="FILE", help="config file (default: found from cwd)")
    parser.add_argument(
        "--select", action="append", default=[], metavar="RULES", help="only these rules"
    )
    parser.add_argument(
        "--ignore", action="append", default=[], metavar="RULES", help="not these rules"
    )
    parser.add_argument("--rules", action="append", default=[], metavar="DIR")
    parser.add_argument(
        "--on-error",
        choices=ON_ERROR,
        default="ask",
        help="an event that cannot be judged (unreadable input, an internal error): ask the "
        "user (default; in --mode exit, which cannot ask, the call runs with a warning), "
        "allow it with a warning (exit 1), or block it (exit 2 with the reason)",
    )
    parser.add_argument(
        "--checkpoint",
        action="store_true",
        help="profile wukong: deny a main-agent tool call of a user's task until the turn "
        "has its CHECKPOINT (戒 Layer 1-2, read from the event's transcript)",
    )
    parser.add_argument(
        "--hygiene",
        action="store_true",
        help="at SessionEnd, mask the secrets of the session file the event names, in place "
        "(also `hygiene: {session-end: true}` in the config; see hook/hygiene.py)",
    )
    # --- agent adapters (cli/hook_agents.py, wukong_lint/agents/) ---
    parser.add_argument(
        "--agent",
        choices=AGENT_NAMES,
        default="auto",
        help="the agent whose event and answer dialect to speak (default: told from the "
        "event's shape, else claude-code)",
    )
    parser.add_argument(
        "--ask-fallback",
        choices=ASK_FALLBACKS,
        default="deny",
        help="what an ask becomes for an agent that cannot ask (Codex, Gemini CLI, Cursor's "
        "file reads): deny with a reason saying how to proceed (default), or allow with a note",
    )
    parser.set_defaults(handler=run)


_QUICK_FLAGS = {"--checkpoint": "checkpoint", "--hygiene": "hygiene"}


def quick_args(words: list[str]) -> Any:
    """The namespace argparse makes of `hook` + `words`, without argparse: Claude Code starts
    the hook once per tool call, and importing argparse (with gettext, locale) and defining
    the parser cost ~4 ms of a ~45 ms run. None when `words` hold anything else than the
    hook's options in their plain `--name value` or `--name=value` forms with valid values
    (argparse then parses them, with its errors, abbreviations and help). A test compares
    both parsers."""
    from types import SimpleNamespace

    values: dict[str, Any] = {"command": "hook", "mode": "json", "fail_on": None,
                              "profile": None, "config": None, "select": [], "ignore": [],
                              "rules": [], "on_error": "ask", "checkpoint": False,
                              "agent": "auto", "ask_fallback": "deny",
                              "hygiene": False}  # fmt: skip
    index = 0
    while index < len(words):
        word = words[index]
        if word in _QUICK_FLAGS:  # an option without a value
            values[_QUICK_FLAGS[word]] = True
            index += 1
            continue
        name, equals, value = word.partition("=")
        if not equals:
            if index + 1 >= len(words):
                return None
            value = words[index + 1]
            if value.startswith("-"):
                return None  # (argparse would not take it as the option's value)
            index += 1
        index += 1
        if name in _QUICK_LISTS:
            values[_QUICK_LISTS[name]].append(value)
            continue
        option = _QUICK_OPTIONS.get(name)
        if option is None or (option[1] is not None and value not in option[1]):
            return None
        values[option[0]] = value
    return SimpleNamespace(**values, handler=run)


def run(args: argparse.Namespace) -> int:
    # One event allocates a lot (imports, the rule records, a parse tree) and frees little:
    # even a hundred times less often, the collector's passes over a young generation of
    # 100,000 objects were ~6 % of a call. A hook process lives for one event, so it does
    # not collect at all (restored after: tests run many hooks in one process).
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        from wukong_lint.cli.hook_agents import run_adapted  # (agent adapters, audit log)

        return run_adapted(args, _run, _cannot_check)
    finally:
        if was_enabled:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    from wukong_lint.hook.judge import HookInputError, parse_event, read_stdin

    try:
        data = parse_event(read_stdin(sys.stdin.buffer))
    except HookInputError as err:
        return _cannot_check(args, str(err), None)
    from wukong_lint.hook.judge import NOTHING_TO_JUDGE

    if data["hook_event_name"] in NOTHING_TO_JUDGE:
        if data["hook_event_name"] in ("SessionEnd", "Stop"):  # (opt-in: hook/hygiene.py)
            from wukong_lint.hook.hygiene import clean_session

            clean_session(args, data)  # the session file cleaned in place; never raises
        from wukong_lint.hook.live import wanted  # (戒 live checks, opt-in: hook/live.py)

        if not wanted(args, data):
            return 0  # SessionStart, PreCompact...: accepted, there is no call or text to judge
    from wukong_lint.util.errors import WukongError

    try:
        return _judge(args, data)
    except HookInputError as err:  # (--checkpoint: the transcript cannot tell)
        return _cannot_check(args, str(err), data)
    except WukongError:
        raise  # usage / config errors: exit 2 with one line (a typo must not pass silently)
    except Exception as err:  # a bug: the hook still answers as --on-error says
        from wukong_lint.hook.judge import log_diagnostics

        where = log_diagnostics([f"internal error: {type(err).__name__}: {err}"])
        return _cannot_check(args, f"internal error ({type(err).__name__}){where}", data)


def _cannot_check(args: argparse.Namespace, why: str, data: dict | None) -> int:
    """The event could not be judged. Unknown is not safe: by default the user is asked
    (a tool call in json mode); `block` blocks (exit 2, the reason goes to the model);
    `allow`, and `ask` where asking is impossible (exit mode, an event that is no tool call),
    let it go on with a non-blocking error (exit 1, shown to the user)."""
    if args.on_error == "block":
        print(f"wukong-lint hook: {why}; blocked (--on-error block)", file=sys.stderr)
        return 2
    if (
        args.on_error == "ask"
        and args.mode == "json"
        and data is not None
        and data.get("hook_event_name") == "PreToolUse"
    ):
        import json

        reason = f"wukong-lint could not judge this call ({why}): confirm it yourself"
        out = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                      "permissionDecision": "ask",
                                      "permissionDecisionReason": reason}}  # fmt: skip
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        return 0
    print(f"wukong-lint hook: {why}; the call was not checked", file=sys.stderr)
    return 1


def _policy(
    args: argparse.Namespace, cwd: str | None, notes: list[str]
) -> tuple[Any, Any, list[str]]:
    """(config, rule set, warnings) of the event: the managed, user and project configs
    (hook/config_cache.py). A project config that cannot be read or names no rule is not a
    reason to block every call (even `ls`) nor to judge with nothing: the call is judged with
    the built-in policy (and the user's and managed configs) and the reason says why, once
    per call. With `--on-error block` the broken config blocks instead. An error of the
    hook's own command line (a wrong `--select`) stays a usage error: the registration
    itself is wrong."""
    from wukong_lint.cli.common import build_ruleset
    from wukong_lint.config.settings import Config
    from wukong_lint.engine.loader import INTEGRITY_NOTES
    from wukong_lint.hook.config_cache import hook_config
    from wukong_lint.util.errors import WukongError

    try:
        config, warnings = hook_config(args.config, cwd, args.profile)
        ruleset = build_ruleset(args, config, details=False)
        return config, ruleset, warnings + INTEGRITY_NOTES  # (a cache rebuilt: said too)
    except WukongError as err:
        if args.config or args.on_error == "block":
            raise
        problem = str(err)
    try:  # the user's and the administrator's configs still apply
        config, _ = hook_config(None, None, args.profile, project=False)
    except WukongError:
        config = Config()
    ruleset = build_ruleset(args, config, details=False)
    notes.append(f"{_whose(problem)} is ignored ({problem}); judged with the built-in policy")
    return config, ruleset, list(INTEGRITY_NOTES)


def _whose(problem: str) -> str:
    """Which config a config error names (its message starts with the file's path)."""
    from wukong_lint.config import layers

    user, managed = layers.user_config_path(), layers.managed_config_path()
    if user and problem.startswith(user):
        return "the user config"
    if managed and problem.startswith(managed):
        return "the managed config"
    return "the project config"


def _judge(args: argparse.Namespace, data: dict) -> int:
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.hook.judge import (
        NOTHING_TO_JUDGE,
        acted_on,
        decide,
        event_cwd,
        event_units,
        log_diagnostics,
    )
    from wukong_lint.model import Severity

    notes: list[str] = []
    # managed > user > project, the project's unapproved loosening dropped (warnings: what
    # was dropped, a cache rebuilt; they end the reason of a deny or an ask)
    config, ruleset, warnings = _policy(args, event_cwd(data), notes)
    profile = args.profile or config.profile
    if data["hook_event_name"] in NOTHING_TO_JUDGE:  # a live 戒 check (wanted)
        from wukong_lint.hook.live import answer

        return answer(args, config, ruleset, data)
    findings = []
    units = event_units(data, profile, notes, args.checkpoint)
    for unit in units:
        found, _ = scan_unit(ruleset, unit)
        findings += found
    if data["hook_event_name"] == "PreToolUse":  # the scripts the call runs or writes
        from wukong_lint.hook.scripts import script_findings

        findings += script_findings(data, ruleset, profile)
        from wukong_lint.hook.live import summons_findings

        findings = summons_findings(args, config, ruleset, data, findings)
    # (a suppression comment the agent wrote into its call silences no guarded category)
    findings, overridden = acted_on(data, findings, profile)
    warnings = warnings + overridden
    from wukong_lint.hook.memory_bank import apply_guard_mode

    findings = apply_guard_mode(ruleset, findings, notes)
    if config.exclude or config.per_path_ignores:  # the file an Edit/Write changes
        from wukong_lint.hook.paths import apply_config_paths

        findings = [f for f in apply_config_paths(data, config, findings) if not f.suppressed]
    if any(f.rule_id in _RECOVERABLE for f in findings):  # (git: a deleted file it has)
        from wukong_lint.hook.recoverable import soften

        findings = soften(data, findings, units)
    fail_on = Severity.parse(args.fail_on or config.fail_on or "high")
    code, out, err, blocked = decide(data, findings, fail_on, args.mode, warnings)
    args.judged = _Judged(config.audit, ruleset, sorted({f.rule_id for f in findings}))  # audit
    from wukong_lint.hook.live import prompt_context

    out = prompt_context(args, data, out, blocked)
    if warnings and not (out or err):  # allowed: the warnings go where the user sees them
        notes += warnings
    if notes and blocked:  # the model reads a blocked call's channel: no diagnostics there
        log_diagnostics(notes)
    elif notes:
        err = "".join(f"wukong-lint hook: {note}\n" for note in notes) + err
        if args.mode == "json":  # (stderr of exit 0 reaches no one: a warning the user sees)
            out = _with_message(out, "; ".join(f"wukong-lint: {note}" for note in notes))
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


# the confirm-tier rules that git's copy of the files can settle (hook/recoverable.py)
_RECOVERABLE = frozenset(["dangerous-command.rm-project-files"])


class _Judged:
    """What the audit record of a judged event needs (cli/hook_agents.py)."""

    __slots__ = ("audit", "fired", "ruleset")

    def __init__(self, audit: str | None, ruleset: Any, fired: list[str]) -> None:
        self.audit, self.ruleset, self.fired = audit, ruleset, fired


def _with_message(out: str, message: str) -> str:
    """The hook's JSON answer with `systemMessage` (shown to the user) added."""
    import json

    answer = json.loads(out) if out.strip() else {}
    answer["systemMessage"] = message
    return json.dumps(answer, ensure_ascii=False) + "\n"
