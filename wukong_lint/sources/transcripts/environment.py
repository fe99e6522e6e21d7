"""What a transcript is read against: the options of `check`, the profile (`wukong` when the
repository has `.wukong/` or the transcript spawns an avatar), the memory bank, the Claude
Code agent definitions (the project's, the user's own, or `--agents`) and the 戒 protocol
version as far as it is known before the session is read (configured, or said by the
definitions; the session's own signals are noted as it is read: protocol/detect.py)."""

from __future__ import annotations

import os
import re
from typing import Any

from wukong_lint.model.events import Context

# the memory bank's gate files a shell command may read (the v7 layout keeps patterns.md in
# details/: the gate file of memory-bank-skill since v7.1)
MEMORY_FILES = ("memory-bank/MEMORY.md", "memory-bank/patterns.md",
                "memory-bank/details/patterns.md")  # fmt: skip

FORMATS = ("auto", "claude", "codex", "gemini", "openai", "react")
# Options of `check` (set by the CLI before a scan; forked workers inherit them).
# `standalone`: the sub-agent transcripts named without their session file (sources/named.py),
# read on their own instead of by their session.
OPTIONS: dict[str, Any] = {"profile": None, "agents": None, "format": None, "parts": 0,
                           "search": None, "protocol_version": None,
                           "standalone": frozenset()}  # fmt: skip
# Words that name the avatars of the 戒 table: spawning one makes a transcript `wukong`.
AVATAR_NAMES = frozenset(
    n.lower()
    for n in (
        "眼", "耳", "鼻", "舌", "身", "意", "眼分身", "耳分身", "鼻分身", "舌分身", "身分身",
        "意分身", "斗战胜佛", "eye", "ear", "nose", "tongue", "body", "mind", "explorer",
        "analyst", "reviewer", "tester", "implementer", "impl", "architect",
    )
)  # fmt: skip
# (whitespace bounded: a match is at most 226 bytes, so the `_OVERLAP` carried from one
# chunk, or searched past a share's end, always holds a match that starts before it)
_SPAWN_TYPE = re.compile(rb'"subagent_type"\s{0,64}:\s{0,64}"([^"\\]{1,80})"')


def configure(
    profile: str | None = None,
    agents: str | None = None,
    fmt: str | None = None,
    protocol_version: str | None = None,
) -> None:
    # (`standalone` is set after this, by the named inputs of the run: an earlier run's go)
    OPTIONS.update(profile=profile, agents=agents, format=None if fmt == "auto" else fmt,
                   protocol_version=protocol_version, standalone=frozenset())  # fmt: skip


def _repo_roots(path: str, cwd: str | None) -> list[str]:
    roots = [os.getcwd()]
    if cwd and os.path.isdir(cwd):
        roots.insert(0, cwd)
    return roots


_NEEDLE = b'"subagent_type"'
_CHUNK = 1 << 22
_OVERLAP = 256  # bytes carried to the next chunk: longer than the needle and a type name


def _spawns_avatar(path: str) -> bool:
    """Whether the file spawns an avatar anywhere (a `subagent_type` naming one). A scan on
    several processes searches a long file's parts on all of them (`OPTIONS["search"]`, set
    by runner/offload.py): this search is on the serial path before any part is read."""
    search = OPTIONS.get("search")
    if search is not None:
        try:
            size = os.path.getsize(path)
        except OSError:
            return False
        if size >= SEARCH_SPLIT:
            return bool(search(path, size))
    return spawns_avatar_in(path)


SEARCH_SPLIT = 8 << 20  # bytes: a shorter file is searched here


def spawns_avatar_in(path: str, start: int = 0, end: int = -1) -> bool:
    """Whether bytes `start` to `end` of the file (-1: its end) spawn an avatar; a match that
    starts before `end` is found even when it ends after it."""
    # Chunked reads, not mmap: touched mmap pages count in the resident set (a 500 MB file
    # would show as 500 MB of RSS). One buffer read into again and again (no new bytes object
    # and no copy per chunk: this read is on the serial path of every transcript scan); the
    # end of a chunk is carried to the start of the next, so no match on a boundary is lost.
    try:  # (no bigger than the file: a 4 MB buffer costs a hook call ~2 ms to zero)
        size = os.path.getsize(path)
    except OSError:
        return False
    if size <= start:
        return False
    buffer = bytearray(_OVERLAP + min(_CHUNK, size - start))
    chunk = len(buffer) - _OVERLAP
    view = memoryview(buffer)
    keep = 0
    left = -1 if end < 0 else end - start + _OVERLAP  # bytes still to read (-1: all)
    try:
        with open(path, "rb") as handle:
            if start:
                handle.seek(start)
            while left:
                want = chunk if left < 0 else min(chunk, left)
                count = handle.readinto(view[keep : keep + want])
                if not count:
                    break
                if left > 0:
                    left -= count
                end_at = keep + count
                if buffer.find(_NEEDLE, 0, end_at) >= 0:
                    for match in _SPAWN_TYPE.finditer(buffer, 0, end_at):
                        name = match.group(1).decode("utf-8", "replace").lstrip("@").lower()
                        if name in AVATAR_NAMES:
                            return True
                keep = min(_OVERLAP, end_at)
                buffer[:keep] = buffer[end_at - keep : end_at]
    except OSError:
        return False
    finally:
        view.release()
    return False


def _definitions(folder: str) -> dict[str, Any]:
    if not os.path.isdir(folder):  # (most calls: the reader's import is not even needed)
        return {}
    from wukong_lint.protocol.agent_defs import load_definitions

    return load_definitions(folder)


def load_agent_defs(folder: str) -> dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]]:
    """Claude Code agent definitions: name -> (allowed tools or None for all, disallowed)."""
    return {name: (d.tools, d.disallowed) for name, d in _definitions(folder).items()}


def load_agent_contracts(folder: str) -> dict[str, tuple[tuple[str, bool], ...]]:
    """The output contracts agent definitions declare, by agent name: each field with
    whether it is required (protocol/agent_defs.py reads both upstream layouts)."""
    return {name: d.contract for name, d in _definitions(folder).items() if d.contract}


def _found_definitions(roots: list[str]) -> dict[str, Any]:
    """The agent definitions a session runs with: `--agents DIR` alone when given; else the
    user's own (`~/.claude/agents/`, where upstream installs the avatars) overridden, name by
    name, by the project's (`.claude/agents/` of the first folder that has some, the
    transcript's `cwd` first), as Claude Code resolves them."""
    agents_dir = OPTIONS["agents"]
    if agents_dir:
        return _definitions(agents_dir)
    # (as protocol/agent_defs.user_agents_dir says, without importing it for the path)
    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    found = dict(_definitions(os.path.join(base, "agents")))
    for root in roots:
        project = _definitions(os.path.join(root, ".claude", "agents"))
        if project:
            found.update(project)
            break
    return found


def make_context(path: str, cwd: str | None = None) -> Context:
    roots = _repo_roots(path, cwd)
    memory_bank = any(os.path.isdir(os.path.join(r, "memory-bank")) for r in roots)
    profile = OPTIONS["profile"]
    if profile is None:
        wukong = any(os.path.isdir(os.path.join(r, ".wukong")) for r in roots)
        profile = "wukong" if wukong or _spawns_avatar(path) else "generic"
    definitions = _found_definitions(roots)
    defs = {name: (d.tools, d.disallowed) for name, d in definitions.items()}
    ctx = Context(profile, memory_bank, defs, cwd)
    if profile == "wukong":
        ctx.contracts = {name: d.contract for name, d in definitions.items() if d.contract}
        ctx.agent_meta = {
            name: {"background": d.background, "background_rule": d.background_rule,
                   "max": d.max}
            for name, d in definitions.items()
        }  # fmt: skip
        _version(ctx, definitions)
    return ctx


def _version(ctx: Context, definitions: dict[str, Any]) -> None:
    """The protocol version the session is judged by, as far as it is known before reading
    it: the configured one, or the one its agent definitions say (protocol/detect.py)."""
    from wukong_lint.protocol import detect

    setting = OPTIONS.get("protocol_version") or "auto"
    if setting != "auto":
        detect.note(ctx, setting, detect.CONFIGURED)
    elif definitions:
        detect.note(ctx, detect.from_definitions(definitions), detect.DEFINITIONS)


def first_cwd(path: str) -> str | None:
    # (imported here: records loads orjson, which the live hook does not need)
    from wukong_lint.sources.transcripts.records import read_head

    head = read_head(path, 262144)
    if head is None:
        return None
    match = re.search(rb'"cwd"\s*:\s*"([^"\\]{1,4096})"', head)
    return match.group(1).decode("utf-8", "replace") if match else None
