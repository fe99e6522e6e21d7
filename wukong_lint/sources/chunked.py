"""Big files read in bounded parts, so that no file is ever held whole in memory.

A file up to WHOLE_FILE_LIMIT bytes (sources/dispatch.py) is one unit, as before. A bigger
one (a log, a dump, a sparse file of many GB) is read CHUNK_BYTES at a time and decoded
incrementally; each part ends at a line end and starts with the last lines of the part
before (up to CHUNK_OVERLAP bytes), so that a multi-line match (a private key, a value on
the line after its name) that straddles two parts is whole in the second. A part reports the
matches that start before its last CHUNK_OVERLAP bytes (its `added_lines`, a TextWindow):
those that start there are reported by the next part, where they are whole (for matches up
to CHUNK_OVERLAP long). A line longer than a part (a minified dump) is cut anywhere, and its
parts overlap the same way. Each match is reported once; line and column numbers are the
file's.

After the first part, a part that starts with NUL bytes (binary data, or the hole of a
sparse file) ends the read with an error: the rest of the file is not scanned, and the
report says so.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator

from wukong_lint.model import ScanError, Source, TextWindow, Unit
from wukong_lint.util.text import BINARY_SNIFF, UTF16_BOMS

CHUNK_BYTES = 8 << 20
CHUNK_OVERLAP = 1 << 20


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
        column = 1  # the column, in that line, where the part starts
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
                    yield _unit(display, unit_text, len(unit_text) + 1, first_line, 0, column)
                return
            if not body:
                continue
            # The last lines (up to CHUNK_OVERLAP) start the next part: matches that start
            # there are reported with it, where they are whole. A line longer than that is
            # cut where the overlap falls: the part reports by offset, not by line.
            start = max(0, len(unit_text) - CHUNK_OVERLAP)
            if start:  # from a line start; within one giant line, from where it falls
                start = unit_text.find("\n", start) + 1 or start
            yield _unit(display, unit_text, start, first_line, len(raw), column)
            overlap = unit_text[start:]
            newlines = unit_text.count("\n", 0, start)
            if newlines:
                column = start - unit_text.rfind("\n", 0, start)
            else:  # (the next part starts further along the same line)
                column += start
            first_line += newlines


def _unit(display: str, text: str, stop: int, first_line: int, size: int, column: int) -> Unit:
    """A part as a unit. Its `added_lines` say which matches it reports: those that start
    before offset `stop` (the next part reports the others, whole)."""
    return Unit(
        display,
        text,
        Source(kind="file"),
        added_lines=TextWindow(0, stop, column),
        first_line=first_line,
        size=size,
    )
