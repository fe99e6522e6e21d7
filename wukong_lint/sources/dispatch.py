"""Which source reads a file found in a folder scan: a transcript, a memory-bank file, or
plain text. Openers are tried in order; the first whose predicate accepts the path reads it.
Plain text is the fallback, so a folder scan never skips a file because of its name.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from wukong_lint.model import ScanError, Unit
from wukong_lint.sources.files import read_file
from wukong_lint.sources.text import Skipped

Item = Unit | ScanError | Skipped

# (predicate "module:function", opener "module:function"): predicate(display_path) -> bool,
# opener(full_path, display_path) -> Iterator[Item]. Modules are imported on first use.
OPENERS: list[tuple[str, str]] = [
    (
        "wukong_lint.sources.transcripts:is_transcript_path",
        "wukong_lint.sources.transcripts:open_transcript",
    ),
    ("wukong_lint.sources.markdown:is_memory_path", "wukong_lint.sources.markdown:open_memory"),
]


def _resolve(target: str):
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def units_for_file(full: str, display: str) -> Iterator[Item]:
    for predicate, opener in OPENERS:
        if _resolve(predicate)(display):
            yield from _resolve(opener)(full, display)
            return
    yield read_file(full, display)
