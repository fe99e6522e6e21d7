"""Live hygiene of the agents' session history (issue 29): what the hook does so that a
secret a tool printed does not spread, and does not stay on disk in the session file.

- PostToolUse: the reason given to the model when a tool's output holds a secret is
  hook/tool_output.py (the judge's; the audit log records the block).
- SessionEnd, and Stop on request (`clean_session`): the session file the event names
  (`transcript_path`, with a Claude Code session's `subagents/` files) is cleaned in place
  by engine/masking/inplace.py: atomic, keeping mode and mtime, safe while the agent still
  appends. Opt-in: `hygiene: {session-end: true, stop: true}` in a config, or the hook's
  `--hygiene` flag (what `install AGENT --hygiene` registers) for SessionEnd. Only a
  regular file under an agent's history folder is touched (a session path elsewhere is
  reported and left alone). What was masked (file, rules, counts; never a secret) is one
  line on stderr, and `args.cleaned` for the command's audit record.

Imported only for the events that need it: a PreToolUse never loads this module.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # (typing costs ~4 ms: Stop is answered on every turn)
if TYPE_CHECKING:
    from typing import Any

# the hook events that clean the session file, by the `hygiene:` key that turns each on
SESSION_EVENTS = {"SessionEnd": "session-end", "Stop": "stop"}
SESSION_SUFFIXES = (".jsonl", ".json")


# -- SessionEnd / Stop ------------------------------------------------------------------------


def wanted(args: Any, data: dict[str, Any]) -> tuple[bool, str | None]:
    """(whether the event's session file is to be cleaned, the config's `audit:` mode):
    `--hygiene` on the hook's command line (SessionEnd; Codex: Stop), or the config's
    `hygiene:` key for the event."""
    name = data.get("hook_event_name")
    key = SESSION_EVENTS.get(name) if isinstance(name, str) else None
    if key is None:
        return False, None
    from wukong_lint.hook.config_cache import hook_config
    from wukong_lint.hook.judge import event_cwd
    from wukong_lint.util.errors import WukongError

    try:
        config, _ = hook_config(getattr(args, "config", None), event_cwd(data))
    except WukongError:  # (a config that cannot be read turns nothing on; the flag still does)
        config = None
    audit = config.audit if config is not None else None
    if getattr(args, "hygiene", False) and (
        key == "session-end" or data.get("wukong_agent") == "codex"
    ):
        return True, audit  # (Codex has no session end: its Stop is what install --hygiene wires)
    return bool(config is not None and (config.hygiene or {}).get(key)), audit


def history_folders(env: Any = None, home: str | None = None) -> list[str]:
    """The folders agents keep their sessions in (whether they exist or not): a session
    file is cleaned only below one of them."""
    env = os.environ if env is None else env
    home = home or os.path.expanduser("~")
    claude = env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    codex = env.get("CODEX_HOME") or os.path.join(home, ".codex")
    gemini = env.get("GEMINI_CLI_HOME") or home
    return [
        os.path.join(claude, "projects"),
        os.path.join(codex, "sessions"),
        os.path.join(codex, "archived_sessions"),
        os.path.join(gemini, ".gemini", "tmp"),
        os.path.join(home, ".cursor", "projects"),
    ]


def session_files(path: Any) -> tuple[list[str], str | None]:
    """(the files to clean, why not) for an event's `transcript_path`: the session file and
    a Claude Code session's `subagents/agent-*.jsonl`; none, with the reason, for a path
    that is missing, not a regular file, not a session file or outside the history
    folders."""
    if not isinstance(path, str) or not path:
        return [], "the event names no transcript_path"
    if not os.path.isabs(path) or not path.endswith(SESSION_SUFFIXES):
        return [], f"{path} is not an absolute .jsonl/.json session path"
    try:
        import stat

        info = os.lstat(path)
    except OSError:
        return [], f"{path} does not exist"
    if not stat.S_ISREG(info.st_mode):
        return [], f"{path} is not a regular file"
    real = os.path.realpath(path)
    roots = [os.path.realpath(folder) for folder in history_folders()]
    if not any(real.startswith(root.rstrip(os.sep) + os.sep) for root in roots):
        return [], f"{path} is not under an agent's history folder; not cleaned"
    files = [path]
    if path.endswith(".jsonl"):
        from wukong_lint.sources.transcripts.claude import subagent_files

        files += subagent_files(path)
    return files, None


def clean_session(args: Any, data: dict[str, Any]) -> None:
    """Clean the event's session file in place when hygiene is on for the event. Never
    raises and writes nothing to stdout (the agent may read a JSON answer there): one line
    on stderr, a record in the audit log."""
    try:
        on, audit = wanted(args, data)
        if on:
            _clean(args, data, audit)
    except Exception as err:  # (hygiene must never break the answer to the event)
        from wukong_lint.hook.judge import log_diagnostics

        log_diagnostics([f"session hygiene: internal error: {type(err).__name__}"])


def _clean(args: Any, data: dict[str, Any], audit: str | None) -> None:
    import time

    started = time.perf_counter()
    files, why = session_files(data.get("transcript_path"))
    if why is not None:
        sys.stderr.write(f"wukong-lint hook: session hygiene: {why}\n")
        return
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.masking.inplace import redact_in_place

    ruleset = load_rules(tuple(getattr(args, "rules", ()) or ()), details=False)
    count = lines = 0
    rules: dict[str, None] = {}
    problems: list[str] = []
    for path in files:
        try:
            outcome = redact_in_place(path, ruleset)
        except OSError as err:
            problems.append(f"{err.filename or path}: {err.strerror or err}")
            continue
        count += outcome.count
        lines += len(outcome.changes)
        for change in outcome.changes:
            rules.update(dict.fromkeys(change.rules))
    session = data["transcript_path"]
    if problems:
        sys.stderr.write("".join(f"wukong-lint hook: session hygiene: {p}\n" for p in problems))
    if not count:
        return
    names = ", ".join(rules)
    sys.stderr.write(
        f"wukong-lint hook: session hygiene: {count} secret(s) masked on {lines} line(s) of "
        f"{session} ({names}); rotate them: the agent has seen them\n"
    )
    # (the audit record is written by the command with the others: cli/hook_agents.py)
    args.cleaned = Cleaned(
        session, tuple(rules), count, audit, round((time.perf_counter() - started) * 1000, 1)
    )


class Cleaned:
    """What a session-end cleaning masked (the audit record's facts; never a secret)."""

    __slots__ = ("audit", "count", "latency_ms", "rules", "session")

    def __init__(self, session: str, rules: tuple[str, ...], count: int, audit: str | None,
                 latency_ms: float) -> None:  # fmt: skip
        self.session, self.rules, self.count = session, rules, count
        self.audit = audit  # the config's `audit:` mode
        self.latency_ms = latency_ms
