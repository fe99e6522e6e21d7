"""Bytes -> text, the same way for every source."""

from typing import NamedTuple

BINARY_SNIFF = 8192
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


class Skipped(NamedTuple):
    """An input deliberately not scanned (binary, empty change...), counted in stats."""

    path: str
    reason: str
    size: int = 0


def decode(data: bytes) -> str | None:
    """Text of `data`, or None when it is binary.

    UTF-16 and UTF-8 byte-order marks are honoured; anything else is read as UTF-8 with
    invalid bytes replaced, so a stray Latin-1 byte never hides the rest of a file.
    """
    # UTF-16 text of anything ASCII (a newline, a space, every secret) has a NUL in every
    # ASCII character: two BOM bytes in front of bytes with no NUL where the binary sniff
    # looks are no UTF-16, and decoding them so would turn the rest into nonsense (or fail,
    # and skip it as binary): a secret hidden behind two bytes. Read as UTF-8 like any file.
    if data[:2] in UTF16_BOMS and b"\0" in data[2:BINARY_SNIFF]:
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            return None
    if b"\0" in data[:BINARY_SNIFF]:
        return None
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    return data.decode("utf-8", "replace")
