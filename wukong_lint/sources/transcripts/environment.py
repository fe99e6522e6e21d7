"""What a transcript is read against: the options of `check`, the profile (`wukong` when the
repository has `.wukong/` or the transcript spawns an avatar), the memory bank and the
Claude Code agent definitions."""

from __future__ import annotations

import os
import re
from typing import Any

from wukong_lint.model.events import Context

MEMORY_FILES = ("memory-bank/MEMORY.md", "memory-bank/patterns.md")

FORMATS = ("auto", "claude", "codex", "openai", "react")
# Options of `check` (set by the CLI before a scan; forked workers inherit them).
# `standalone`: the sub-agent transcripts named without their session file (sources/named.py),
# read on their own instead of by their session.
OPTIONS: dict[str, Any] = {"profile": None, "agents": None, "format": None, "parts": 0,
                           "search": None, "standalone": frozenset()}  # fmt: skip
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
    profile: str | None = None, agents: str | None = None, fmt: str | None = None
) -> None:
    # (`standalone` is set after this, by the named inputs of the run: an earlier run's go)
    OPTIONS.update(profile=profile, agents=agents, format=None if fmt == "auto" else fmt,
                   standalone=frozenset())  # fmt: skip


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
    buffer = bytearray(_OVERLAP + _CHUNK)
    view = memoryview(buffer)
    keep = 0
    left = -1 if end < 0 else end - start + _OVERLAP  # bytes still to read (-1: all)
    try:
        with open(path, "rb") as handle:
            if start:
                handle.seek(start)
            while left:
                want = _CHUNK if left < 0 else min(_CHUNK, left)
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


def load_agent_defs(folder: str) -> dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]]:
    """Claude Code agent definitions: name -> (allowed tools or None for all, disallowed)."""
    defs: dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]] = {}
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return defs
    for name in names:
        if not name.endswith(".md"):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                text = handle.read(65536)
        except (OSError, UnicodeDecodeError):
            continue
        front = re.match(r"\A---\s*\n(.*?)\n---\s*(\n|\Z)", text, re.S)
        if not front:
            continue
        try:
            import yaml

            meta = yaml.safe_load(front.group(1))
        except Exception:
            continue
        if not isinstance(meta, dict):
            continue
        agent = str(meta.get("name") or name[:-3])
        defs[agent.lower()] = (
            _tool_list(meta.get("tools")),
            _tool_list(meta.get("disallowedTools")) or (),
        )
    return defs


def _tool_list(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list):
        return None
    return tuple(str(v).strip().split("(", 1)[0] for v in items if str(v).strip())


def make_context(path: str, cwd: str | None = None) -> Context:
    roots = _repo_roots(path, cwd)
    memory_bank = any(os.path.isdir(os.path.join(r, "memory-bank")) for r in roots)
    agents_dir = OPTIONS["agents"]
    defs = {}
    if agents_dir:
        defs = load_agent_defs(agents_dir)
    else:
        for root in roots:
            agents_dir = os.path.join(root, ".claude", "agents")
            defs = load_agent_defs(agents_dir)
            if defs:
                break
    profile = OPTIONS["profile"]
    if profile is None:
        wukong = any(os.path.isdir(os.path.join(r, ".wukong")) for r in roots)
        profile = "wukong" if wukong or _spawns_avatar(path) else "generic"
    ctx = Context(profile, memory_bank, defs, cwd)
    if defs and profile == "wukong" and agents_dir:
        ctx.contracts = load_agent_contracts(agents_dir)
    return ctx


_CONTRACT_HEADING = re.compile(
    r"(?im)^#{1,6}[ \t]*(?:output[ \t_-]*contract|输出契约|输出格式)[^\n]*\n"
    r"(.*?)(?=^#{1,6}[ \t]|\Z)",
    re.S,
)
_FENCE = re.compile(r"```[\w-]*[ \t]*\n(.*?)\n```", re.S)
_BULLET = re.compile(r"(?m)^[ \t]*[-*+][ \t]*`?([A-Za-z_][\w -]{0,40}?)`?[ \t]*(?::|：|$|\s[-—(])")


def load_agent_contracts(folder: str) -> dict[str, tuple[str, ...]]:
    """Output contracts that Claude Code agent definitions declare, by agent name: an
    `output_contract:` key in the front matter (a mapping or a list of names), or an `Output
    Contract` / `输出契约` section holding a YAML or JSON block (its keys) or a bullet list of
    `name:` items. They replace seed 004's contract for that agent."""
    found: dict[str, tuple[str, ...]] = {}
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".md"))
    except OSError:
        return found
    import yaml

    for name in names:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                text = handle.read(65536)
        except (OSError, UnicodeDecodeError):
            continue
        front = re.match(r"\A---\s*\n(.*?)\n---\s*(\n|\Z)", text, re.S)
        meta: Any = None
        if front:
            try:
                meta = yaml.safe_load(front.group(1))
            except Exception:
                meta = None
        agent = str(meta.get("name") or name[:-3]) if isinstance(meta, dict) else name[:-3]
        sections = _contract_keys(meta.get("output_contract") if isinstance(meta, dict) else None)
        body = _CONTRACT_HEADING.search(text)
        if not sections and body is not None:
            block = _FENCE.search(body.group(1))
            if block is not None:
                try:
                    value = yaml.safe_load(block.group(1))
                except Exception:
                    value = None
                if isinstance(value, dict) and len(value) == 1:
                    inner = next(iter(value.values()))  # {output_contract: {...}}
                    if isinstance(inner, (dict, list)):
                        value = inner
                sections = _contract_keys(value)
            else:
                sections = tuple(dict.fromkeys(m.strip() for m in _BULLET.findall(body.group(1))))
        if sections:
            found[agent.lower()] = sections
    return found


def _contract_keys(value: Any) -> tuple[str, ...]:
    if isinstance(value, dict):
        return tuple(str(k) for k in value)
    if isinstance(value, list):
        return tuple(str(v) for v in value if isinstance(v, (str, int)))
    return ()


def first_cwd(path: str) -> str | None:
    # (imported here: records loads orjson, which the live hook does not need)
    from wukong_lint.sources.transcripts.records import read_head

    head = read_head(path, 262144)
    if head is None:
        return None
    match = re.search(rb'"cwd"\s*:\s*"([^"\\]{1,4096})"', head)
    return match.group(1).decode("utf-8", "replace") if match else None
