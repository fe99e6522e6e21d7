"""The hook registration in an agent's configuration file: find, add, remove.

Three shapes (agents/*.py `CONFIG_FORMAT`):
- `matcher-groups` (Claude Code, Codex, Gemini CLI): `{"hooks": {EVENT: [{"matcher": M,
  "hooks": [{"type": "command", "command": CMD}]}]}}`;
- `cursor`: `{"version": 1, "hooks": {EVENT: [{"command": CMD}]}}`;
- `copilot`: `{"version": 1, "hooks": {EVENT: [{"type": "command", "bash": CMD,
  "timeoutSec": 30}]}}`.
wukong-lint's entries are the commands that run `wukong-lint … hook` (or `python -m
wukong_lint hook`): those, and only those, are replaced or removed; every other key, event
and hook is kept as it is, in its order.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import sys
from typing import Any, NamedTuple

from wukong_lint.util.errors import UsageError

# `wukong-lint hook` (a hand-made registration too), `python -m wukong_lint hook`, or any
# executable (`install --executable`) with the `hook --agent NAME` install writes
OURS = re.compile(
    r"(?:^|[/\\\s'\"])wukong[-_]lint(?:\.exe)?['\"]?\s+hook\b|-m\s+wukong_lint\s+hook\b"
    r"|\shook\s+--agent\s+(?:claude-code|codex|cursor|copilot|gemini)\b"
)
TIMEOUT = 30  # seconds an agent waits for the hook (Copilot CLI's `timeoutSec`)


class Target(NamedTuple):
    agent: str
    path: str  # the configuration file
    scope: str  # project | user | plugin


def config_path(agent: Any, scope: str, project: str, home: str) -> str:
    base = project if scope == "project" else home
    return os.path.join(base, agent.CONFIG[scope])


def executable(given: str | None = None) -> list[str]:
    """The command that starts this installation, absolute (a different PATH in the agent
    cannot swap it): `--executable`, else the running `wukong-lint` script, else the one on
    PATH, else this Python with `-m wukong_lint`."""
    import shutil

    if given:
        return [os.path.abspath(os.path.expanduser(given))]
    script = sys.argv[0] if sys.argv else ""
    if os.path.basename(script).startswith("wukong-lint") and os.path.isfile(script):
        return [os.path.abspath(script)]
    found = shutil.which("wukong-lint")
    if found:
        return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "wukong_lint"]


def hook_command(exe: list[str], agent: str, profile: str | None, hygiene: bool = False) -> str:
    words = [*exe, "hook", "--agent", agent]
    if profile:
        words += ["--profile", profile]
    if hygiene:  # (the session file cleaned at the agent's HYGIENE_EVENTS: hook/hygiene.py)
        words.append("--hygiene")
    return shlex.join(words)


def load(path: str) -> tuple[dict[str, Any], str | None]:
    """(the parsed file, its text) or ({}, None) when it does not exist; a file that cannot
    be parsed, or is not an object with an object of hooks, is a UsageError naming why."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as err:
        raise UsageError(f"{path}: cannot read it ({err}); nothing was changed") from None
    if not text.strip():
        return {}, text
    try:
        data = json.loads(text)
    except ValueError as err:
        raise UsageError(
            f"{path}: not valid JSON ({err}); fix it or move it away, nothing was changed"
        ) from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: expected a JSON object at the top; nothing was changed")
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise UsageError(f"{path}: `hooks` is not an object; nothing was changed")
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            raise UsageError(f"{path}: hooks.{event} is not a list; nothing was changed")
    return data, text


def _commands(entry: Any) -> list[str]:
    """The command lines of one entry of an event's list (a matcher group's hooks too)."""
    if not isinstance(entry, dict):
        return []
    found = [entry[k] for k in ("command", "bash", "powershell") if isinstance(entry.get(k), str)]
    for hook in entry.get("hooks", []) if isinstance(entry.get("hooks"), list) else []:
        found += _commands(hook)
    return found


def ours(command: str) -> bool:
    return OURS.search(command) is not None


def registered(data: dict[str, Any]) -> dict[str, list[str]]:
    """event -> wukong-lint's command lines registered for it."""
    found: dict[str, list[str]] = {}
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return found
    for event, entries in hooks.items():
        for entry in entries if isinstance(entries, list) else []:
            for command in _commands(entry):
                if ours(command):
                    found.setdefault(event, []).append(command)
    return found


def _entry(agent: Any, command: str) -> dict[str, Any]:
    if agent.CONFIG_FORMAT == "cursor":
        return {"command": command}
    if agent.CONFIG_FORMAT == "copilot":
        return {"type": "command", "bash": command, "timeoutSec": TIMEOUT}
    hook: dict[str, Any] = {"type": "command", "command": command}
    if agent.NAME == "gemini":
        hook["name"] = "wukong-lint"
    return {"matcher": agent.MATCHER, "hooks": [hook]}


def add(
    agent: Any, data: dict[str, Any], command: str, hygiene: bool = False
) -> dict[str, Any]:
    """`data` with wukong-lint registered for each of the agent's events (a copy): an entry
    of ours already there has its command set; otherwise one is appended after the others.
    `hygiene`: the agent's session-end events (HYGIENE_EVENTS) too."""
    data = copy.deepcopy(data)
    if agent.CONFIG_FORMAT in ("cursor", "copilot"):
        data.setdefault("version", 1)
    hooks = data.setdefault("hooks", {})
    events = (*agent.EVENTS, *(getattr(agent, "HYGIENE_EVENTS", ()) if hygiene else ()))
    for event in events:
        entries = hooks.setdefault(event, [])
        if not _replace(entries, command):
            entries.append(_entry(agent, command))
    return data


def _replace(entries: list[Any], command: str) -> bool:
    """Set the command of our entries in `entries` (nested in matcher groups too)."""
    done = False
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        for key in ("command", "bash"):
            if isinstance(entry.get(key), str) and ours(entry[key]):
                entry[key] = command
                done = True
        if isinstance(entry.get("hooks"), list):
            done = _replace(entry["hooks"], command) or done
    return done


def remove(data: dict[str, Any]) -> dict[str, Any]:
    """`data` without wukong-lint's entries (a copy); a matcher group, event or `hooks`
    object left empty by that goes too."""
    data = copy.deepcopy(data)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data
    for event in list(hooks):
        entries = hooks[event]
        if not isinstance(entries, list):
            continue
        kept = _without(entries)
        if kept != entries and not kept:
            del hooks[event]
        else:
            hooks[event] = kept
    if not hooks:
        del data["hooks"]
    return data


def _without(entries: list[Any]) -> list[Any]:
    kept = []
    for entry in entries:
        if isinstance(entry, dict) and any(
            ours(entry[k]) for k in ("command", "bash") if isinstance(entry.get(k), str)
        ):
            continue
        if isinstance(entry, dict) and isinstance(entry.get("hooks"), list):
            inner = _without(entry["hooks"])
            if not inner and entry["hooks"]:
                continue  # (a matcher group of ours alone)
            entry = {**entry, "hooks": inner}
        kept.append(entry)
    return kept


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def diff(path: str, before: str | None, after: str | None) -> str:
    import difflib

    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True),
        (after or "").splitlines(keepends=True),
        fromfile=path if before is not None else "/dev/null",
        tofile=path if after is not None else "/dev/null",
    )
    return "".join(lines)


def write(path: str, before: str | None, after: str | None) -> str | None:
    """Write `after` to `path` (None: remove the file), keeping the old text as
    `PATH.wukong-lint.bak`; the backup's path, or None when there was no file."""
    from wukong_lint.util.fsutil import atomic_write_text

    backup = None
    folder = os.path.dirname(path)
    if before is not None:
        backup = path + ".wukong-lint.bak"
        atomic_write_text(backup, before)
    if after is None:
        os.remove(path)
        return backup
    os.makedirs(folder, exist_ok=True)
    atomic_write_text(path, after)
    return backup


def plugin_files(
    folder: str, agent: Any, command: str, hygiene: bool = False
) -> dict[str, dict[str, Any]]:
    """The files of a Claude Code plugin that registers the hook (path -> JSON): its
    manifest `.claude-plugin/plugin.json` and `hooks/hooks.json` (the settings' shape)."""
    from wukong_lint import __version__

    manifest = {
        "name": "wukong-lint",
        "version": __version__,
        "description": "wukong-lint guard: judges tool calls, tool results and prompts",
    }
    return {
        os.path.join(folder, ".claude-plugin", "plugin.json"): manifest,
        os.path.join(folder, "hooks", "hooks.json"): add(agent, {}, command, hygiene),
    }
