"""A real-session-shaped Claude Code transcript of a requested size (issue 32): one long
session file with its `subagents/` files and `tool-results/` files, written by the history
corpus's Claude Code session writer (bench/history_corpus.py; the shapes and their sources:
tests/fixtures/history/FORMATS.md) rather than by the bench session's generator
(session.py), so that it has what real sessions have and the bench session lacks: large
Read/Edit `toolUseResult`s (`file.content`, `originalFile`, `structuredPatch`), many small
records (progress, hook output, system, attachments), sub-agent files, compaction and
summary records, and parallel tool calls whose result line may precede its call's line.
Planted secrets are rarer than in the history corpus (`rate`: real sessions hold few).

    python bench/corpora/transcripts/real_shaped.py --out DIR [--mb 200] [--seed 32]

Seeded and deterministic; prints the main file and the bytes of every file written."""

from __future__ import annotations

import argparse
import os
import sys

BENCH = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, BENCH)

from history_corpus import MIB, ClaudeSession, Corpus  # noqa: E402


def generate(out: str, megabytes: float, seed: int = 32, rate: float = 0.005) -> tuple[str, int]:
    """Write one Claude Code session of about `megabytes` (its sub-agent and tool-result files
    included) under OUT/claude/projects/; (the main file, the bytes of every file)."""
    os.makedirs(out, exist_ok=True)
    corpus = Corpus(out, seed, rate)
    session = ClaudeSession(corpus, int(megabytes * MIB))
    session.write()
    corpus.close()
    return os.path.join(out, session.main.rel), corpus.bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--mb", type=float, default=200)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--rate", type=float, default=0.005)
    args = parser.parse_args()
    main_file, size = generate(args.out, args.mb, args.seed, args.rate)
    print(f"{main_file}: {size / 1e6:.1f} MB with its sub-agent and tool-result files")


if __name__ == "__main__":
    main()
