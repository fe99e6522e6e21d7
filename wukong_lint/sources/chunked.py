"""Big files read in bounded parts, so that no file is ever held whole in memory.

A file up to WHOLE_FILE_LIMIT bytes (sources/dispatch.py) is one unit, as before. A bigger
one (a log, a dump, a sparse file of many GB) is read CHUNK_BYTES at a time and decoded
incrementally; each part ends at a line end and starts with the last lines of the part
before (up to CHUNK_OVERLAP bytes), so that a multi-line match (a private key, a value on
the line after its name) that straddles two parts is whole in the second. A part reports the
matches that start before its last CHUNK_OVERLAP bytes (its `added_lines`, as in a diff):
those that start there are reported by the next part, where they are whole (for matches up
to CHUNK_OVERLAP long). Each match is reported once; line numbers are the file's.

After the first part, a part that starts with NUL bytes (binary data, or the hole of a
sparse file) ends the read with an error: the rest of the file is not scanned, and the
report says so.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator

from wukong_lint.model import ScanError, Source, Unit
from wukong_lint.util.text import BINARY_SNIFF, UTF16_BOMS

CHUNK_BYTES = 8 << 20
CHUNK_OVERLAP = 1 << 20
_ALL_LINES = 1 << 62  # the last part reports every match


def read_chunked(path: str, display: str) -> Iterator[Unit | ScanError]:
    """The units of a big text file, one per part (see above)."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as err:
        yield ScanError(display, f"cannot read: {err.strerror or err}")
        return
    with handle:
        head = handle.read(4)
        utf16 = head[:2] in UTF16_BOMS
        encoding = "utf-16" if utf16 else "utf-8-sig"
        handle.seek(0)
        decoder = codecs.getincrementaldecoder(encoding)("replace")
        pending = ""  # the last, unfinished line of what was read
        overlap = ""  # the last lines of the previous part, scanned again
        first_line = 1  # the file's line number of the part's first line
        done = 0  # bytes read so far
        while True:
            try:
                raw = handle.read(CHUNK_BYTES)
            except OSError as err:
                yield ScanError(display, f"cannot read past byte {done}: {err.strerror or err}")
                return
            final = not raw
            if done and not utf16 and b"\0" in raw[:BINARY_SNIFF]:
                yield ScanError(
                    display, f"binary data from byte {done} on: the rest was not scanned"
                )
                return
            done += len(raw)
            text = pending + decoder.decode(raw, final)
            if final:
                body, pending = text, ""
            else:
                cut = text.rfind("\n") + 1 or len(text)  # a giant line: cut anywhere
                body, pending = text[:cut], text[cut:]
            unit_text = overlap + body
            if final:
                if unit_text:
                    yield _unit(display, unit_text, _ALL_LINES, first_line, 0)
                return
            if not body:
                continue
            # The last lines (up to CHUNK_OVERLAP) start the next part: matches that start
            # there are reported with it, where they are whole.
            start = max(0, len(unit_text) - CHUNK_OVERLAP)
            if start:  # from a line start; within one giant line, from where it falls
                start = unit_text.find("\n", start) + 1 or start
            reported = unit_text.count("\n", 0, start)
            yield _unit(display, unit_text, reported + 1, first_line, len(raw))
            overlap = unit_text[start:]
            first_line += reported


def _unit(display: str, text: str, stop: int, first_line: int, size: int) -> Unit:
    """A part as a unit. Its `added_lines`, as in a diff, are the lines where the matches
    it reports start (a match counts when any of its lines is one): up to `stop`."""
    return Unit(
        display,
        text,
        Source(kind="file"),
        added_lines=range(1, stop),  # (`in` without a set)
        first_line=first_line,
        size=size,
    )
