"""`check --shard K/N`: which part of a scan one of N machines (or processes) runs.

Each item goes to the shard its *stable key* hashes to, so the same item lands in the same
shard on any machine, in any order, whatever else the scan holds, and the N shards together
are the whole scan, each item once:

- a folder scan's file: its path relative to the named folder (the scan root) it was found
  under, grouped by session (`sources.agent_history.session_key`: a Claude Code session and
  its `subagents/` and `tool-results/` files, `x.json` and `x.jsonl`, stay together, as the
  session reader reads its sub-agents' files itself);
- an agent-history scan's file: the same, relative to the agent's history folder, so that a
  session and its sub-agents are one item;
- a history scan's commit: its full sha (`check --history` scans each commit whole: its
  message, its added lines and the archives it adds).

The hash is BLAKE2b of the key's UTF-8 bytes (undecodable names by their bytes): Python's
own `hash()` of a string changes with every process (PYTHONHASHSEED).

Pure functions (the file system is not read; paths are only made absolute against the
current folder), tested in tests/test_shard.py.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wukong_lint.sources.agent_history import session_key

MAX_SHARDS = 1 << 16  # (a matrix of more than this many jobs is a typo)


@dataclass(frozen=True)
class Shard:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    @property
    def label(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, key: str) -> bool:
        """Whether the item with this stable key belongs to this shard."""
        return shard_of(key, self.count) == self.index


def parse_shard(text: str) -> Shard:
    """`K/N` (1 <= K <= N) as a Shard; ValueError with the reason for anything else."""
    head, sep, tail = text.strip().partition("/")
    if not sep or not head.strip().isdigit() or not tail.strip().isdigit():
        raise ValueError(f"expected K/N with whole numbers, such as 1/4 (got {text!r})")
    index, count = int(head), int(tail)
    if count < 1 or count > MAX_SHARDS:
        raise ValueError(f"the number of shards must be 1 to {MAX_SHARDS} (got {text!r})")
    if not 1 <= index <= count:
        raise ValueError(f"the shard must be 1 to {count}: shards count from 1 (got {text!r})")
    return Shard(index, count)


def shard_of(key: str, count: int) -> int:
    """The shard (1 to `count`) of a stable key."""
    digest = hashlib.blake2b(key.encode("utf-8", "surrogateescape"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count + 1


def file_key(path: str, roots: Sequence[str]) -> str:
    """The stable key of a file found under one of the named `roots` (folders, or files
    named themselves): its session's path relative to the deepest root holding it, with `/`
    separators; a path under no root (standard input) is its own key."""
    full = os.path.abspath(path)
    best = ""
    for root in roots:
        candidate = os.path.abspath(root)
        inside = full == candidate or full.startswith(candidate.rstrip(os.sep) + os.sep)
        if inside and len(candidate) > len(best):
            best = candidate
    if not best:
        return path.replace(os.sep, "/")
    base = os.path.dirname(best) if full == best else best  # a named file: its folder
    return os.path.relpath(session_key(full), base).replace(os.sep, "/")


def select_files(
    files: Iterable[tuple[str, str]], roots: Sequence[str], shard: Shard
) -> list[tuple[str, str]]:
    """The (path, display) pairs of a folder or agent-history scan that are in `shard`,
    keyed by their display path (as named on the command line, the same on every machine
    for the same command)."""
    return [item for item in files if shard.holds(file_key(item[1], roots))]
