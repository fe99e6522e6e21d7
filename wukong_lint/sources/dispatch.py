"""Which source reads a file found in a folder scan: a transcript, a memory-bank file, or
plain text. Openers are tried in order; the first whose predicate accepts the path reads it.
Plain text is the fallback, so a folder scan never skips a file because of its name.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Iterator

from wukong_lint.model import ScanError, Unit
from wukong_lint.sources.archives import file_units, is_archive_path
from wukong_lint.sources.files import BINARY_SUFFIXES, read_file
from wukong_lint.util.text import BINARY_SNIFF, UTF16_BOMS, Skipped

# bytes: a bigger file is read in parts (the value is sources/chunked.py's, kept here so
# that a scan of small files does not import that module)
WHOLE_FILE_LIMIT = 32 << 20

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
    if is_archive_path(display):  # its members, each a unit (sources/archives.py)
        yield from file_units(full, display)
        return
    for predicate, opener in OPENERS:
        if _resolve(predicate)(display):
            yield from _resolve(opener)(full, display)
            return
    yield from read_units(full, display)


def units_for_files(files: Iterable[tuple[str, str]]) -> Iterator[Item]:
    """`units_for_file` of each (path, display path): a file that exhausts memory is an
    error of its own, and the files after it are still read."""
    for full, display in files:
        try:
            yield from units_for_file(full, display)
        except MemoryError:
            yield ScanError(display, "out of memory: not scanned (or not to the end)")


def read_units(full: str, display: str) -> Iterator[Item]:
    """A plain file as one unit, or a big one in parts (sources/chunked.py)."""
    try:
        big = os.stat(full).st_size > WHOLE_FILE_LIMIT and not os.path.islink(full)
    except OSError:
        big = False
    if big and not full.endswith(BINARY_SUFFIXES):
        try:
            with open(full, "rb") as handle:  # binary files are skipped as before
                head = handle.read(BINARY_SNIFF)
        except OSError:
            head = b"\0"  # read_file says why
        if b"\0" not in head or head.startswith(UTF16_BOMS):
            from wukong_lint.sources.chunked import read_chunked

            yield from read_chunked(full, display)
            return
    yield read_file(full, display)
