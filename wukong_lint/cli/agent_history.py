"""`--agent-history [AGENT]` of `check` and `redact --in-place`: the installed agents'
history folders as inputs (sources/agent_history.py finds them), `--since 7d`, and one line
per session in the report (its agent, id, project and date)."""

from __future__ import annotations

import argparse
import os
from collections import Counter
from typing import Any

from wukong_lint.sources.agent_history import (
    AGENTS,
    history_roots,
    parse_since,
    recent,
    session_info,
    session_key,
)
from wukong_lint.util.errors import UsageError

CHOICES = (*AGENTS, "all")


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--agent-history",
        nargs="?",
        const="all",
        choices=CHOICES,
        metavar="AGENT",
        help="the session histories of installed coding agents: claude-code, codex, gemini or "
        "all (the default): their default folders, or CLAUDE_CONFIG_DIR, CODEX_HOME, "
        "GEMINI_CLI_HOME",
    )


def roots(command: str, agent: str) -> list[tuple[str, str]]:
    """(agent, folder) of each history folder found; none is an error (exit 2)."""
    found = history_roots(agent, os.environ, os.path.expanduser("~"))
    if not found:
        which = agent if agent != "all" else "agent"
        raise UsageError(
            f"{command}: no {which} history found (looked in ~/.claude/projects, "
            "~/.codex/sessions, ~/.gemini/tmp and the folders CLAUDE_CONFIG_DIR, CODEX_HOME, "
            "GEMINI_CLI_HOME name)"
        )
    return found


def since_seconds(command: str, since: str | None) -> float | None:
    if since is None:
        return None
    try:
        return parse_since(since)
    except ValueError as err:
        raise UsageError(f"{command}: --since: {err}") from None


def select(files: list[tuple[str, str]], seconds: float | None) -> list[tuple[str, str]]:
    return files if seconds is None else recent(files, seconds)


def count_sessions(files: list[tuple[str, str]]) -> int:
    return len({session_key(full) for full, _ in files})


def _agent_of(path: str, found: list[tuple[str, str]]) -> str:
    full = os.path.abspath(path)
    for agent, root in found:
        root = os.path.abspath(root)
        if full == root or full.startswith(root + os.sep):
            return agent
    return "?"


def session_notes(
    files: list[tuple[str, str]], found: list[tuple[str, str]], findings: Any
) -> list[str]:
    """One note per session scanned (its agent, id, project, date and findings), the
    sessions with findings first."""
    by_path = Counter(os.path.abspath(f.path) for f in findings)
    sessions: dict[str, list[str]] = {}
    for full, _ in files:
        sessions.setdefault(session_key(full), []).append(full)
    lines: list[tuple[int, str]] = []
    for key, members in sessions.items():
        main = min(members, key=lambda p: (session_key(p) != os.path.splitext(p)[0], len(p)))
        try:
            with open(main, "rb") as handle:
                head = handle.read(65536)
        except OSError:
            head = b""
        info = session_info(_agent_of(main, found), main, head)
        count = sum(by_path[os.path.abspath(m)] for m in members)
        project, date = info.project or "?", info.date or "?"
        text = f"session {info.agent} {info.session_id}  project {project}  {date}"
        lines.append((count, f"{text}  {count} finding(s)  ({key})"))
    lines.sort(key=lambda item: -item[0])
    total = Counter(_agent_of(m[0], found) for m in sessions.values())
    head_note = "agent history: " + ", ".join(
        f"{n} {a} session(s)" for a, n in sorted(total.items())
    )
    return [head_note] + [text for _, text in lines]
