"""Where each coding agent keeps its session history, and which session a file belongs to
(`check --agent-history`, `redact --in-place --agent-history`; tests/fixtures/history/
FORMATS.md gives the layouts and their sources):

- Claude Code: `$CLAUDE_CONFIG_DIR` (default `~/.claude`) `/projects/<slug>/<id>.jsonl`, with
  `<id>/subagents/` and `<id>/tool-results/`;
- Codex CLI: `$CODEX_HOME` (default `~/.codex`) `/sessions/YYYY/MM/DD/rollout-*.jsonl` and
  `/archived_sessions/`;
- Gemini CLI: `$GEMINI_CLI_HOME` (replaces the home folder; default `~`)
  `/.gemini/tmp/<project>/chats/`, with `logs.json`, `checkpoint-*.json`, `tool-outputs/`.

Pure functions of the environment, the home folder and the paths (the file system is only
listed and its files' heads read), so that tests give a fake HOME."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

AGENTS = ("claude-code", "codex", "gemini")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_CODEX_DATE = re.compile(r"rollout-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})")


def parse_since(text: str) -> float:
    """`7d`, `12h`, `30m`, `2w`, `90s` as seconds (ValueError for anything else)."""
    match = _DURATION.match(text)
    if match is None:
        raise ValueError(f"not a duration: {text!r} (e.g. 7d, 12h, 30m, 2w)")
    return float(match.group(1)) * _UNITS[match.group(2)]


def history_roots(agent: str, env: Mapping[str, str], home: str) -> list[tuple[str, str]]:
    """(agent, folder) of each history folder of `agent` (`all`: every agent) that exists."""
    wanted = AGENTS if agent == "all" else (agent,)
    found: list[tuple[str, str]] = []
    if "claude-code" in wanted:
        base = env.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
        found.append(("claude-code", os.path.join(base, "projects")))
    if "codex" in wanted:
        base = env.get("CODEX_HOME") or os.path.join(home, ".codex")
        found += [("codex", os.path.join(base, name)) for name in ("sessions", "archived_sessions")]
    if "gemini" in wanted:
        base = env.get("GEMINI_CLI_HOME") or home
        tmp = os.path.join(base, ".gemini", "tmp")
        for project in sorted(_listdir(tmp)):
            folder = os.path.join(tmp, project)
            for name in ("chats", "tool-outputs"):
                found.append(("gemini", os.path.join(folder, name)))
            for name in sorted(_listdir(folder)):  # the prompt log and /chat save files
                if name == "logs.json" or (
                    name.startswith("checkpoint") and name.endswith(".json")
                ):
                    found.append(("gemini", os.path.join(folder, name)))
    return [(a, path) for a, path in found if os.path.exists(path)]


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def session_key(path: str) -> str:
    """The session a history file belongs to: a Claude Code session's sub-agent and
    tool-result files belong to `<slug>/<id>`, a Gemini CLI sub-agent session to its parent's
    folder `chats/<id>`; any other file is a session of its own."""
    parts = os.path.abspath(path).split(os.sep)
    for marker in ("subagents", "tool-results"):
        if marker in parts[:-1]:
            index = len(parts) - 1 - parts[::-1].index(marker)
            return os.sep.join(parts[:index])
    if len(parts) >= 3 and parts[-3] == "chats":  # gemini chats/<parent id>/<sub>.jsonl
        return os.sep.join(parts[:-1])
    if len(parts) >= 3 and parts[-3] == "tool-outputs":  # tool-outputs/session-<id>/...
        return os.sep.join(parts[:-1])
    stem = parts[-1]
    for suffix in (".jsonl", ".json"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    return os.sep.join([*parts[:-1], stem])


def recent(files: Iterable[tuple[str, str]], seconds: float, now: float | None = None
           ) -> list[tuple[str, str]]:  # fmt: skip
    """The files of the sessions with a file modified in the last `seconds` (a session is
    kept or dropped whole: its sub-agents with it)."""
    now = time.time() if now is None else now
    files = list(files)
    newest: dict[str, float] = {}
    for full, _ in files:
        try:
            mtime = os.stat(full).st_mtime
        except OSError:
            continue
        key = session_key(full)
        newest[key] = max(newest.get(key, 0.0), mtime)
    return [(f, d) for f, d in files if newest.get(session_key(f), 0.0) >= now - seconds]


@dataclass(frozen=True)
class SessionInfo:
    """What the report says of a session: its agent, id, project and date."""

    agent: str
    session_id: str
    project: str
    date: str


def session_info(agent: str, path: str, head: bytes) -> SessionInfo:
    """A session's id, project path and date, from its main file's path and first bytes."""
    text = head.decode("utf-8", "replace")
    name = os.path.basename(path)
    found = _UUID.findall(name)
    session_id = found[-1] if found else os.path.splitext(name)[0]
    project = _field(text, "cwd") or ""
    date = _field(text, "timestamp") or _field(text, "startTime") or ""
    if agent == "claude-code" and not project:
        project = os.path.basename(os.path.dirname(path))  # the slug: `/` and `.` made `-`
    elif agent == "codex":
        stamp = _CODEX_DATE.search(name)
        date = f"{stamp.group(1)} {stamp.group(2)}:{stamp.group(3)}" if stamp else date
    elif agent == "gemini":
        session_id = _field(text, "sessionId") or _field(text, "session_id") or session_id
        parts = os.path.abspath(path).split(os.sep)
        if "chats" in parts:  # `<project>/chats/...`: the project's short id or hash
            project = project or parts[parts.index("chats") - 1]
    return SessionInfo(agent, session_id, project, date[:16].replace("T", " "))


def _field(text: str, key: str) -> str | None:
    match = re.search(rf'"{re.escape(key)}"\s*:\s*"([^"\\]{{1,4096}})"', text)
    return match.group(1) if match else None
