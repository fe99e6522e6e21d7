"""Bytes -> text, the same way for every source."""

from typing import NamedTuple

BINARY_SNIFF = 8192
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")


class Skipped(NamedTuple):
    """An input deliberately not scanned (binary, empty change...), counted in stats."""

    path: str
    reason: str
    size: int = 0


def _wide_encoding(data: bytes) -> str | None:
    """The UTF-16 or UTF-32 encoding `data` is in, by its byte-order mark or, without one,
    by where its NULs fall: text of ASCII characters in UTF-16LE has a NUL in every odd
    byte and none in the even ones, in UTF-32LE three NULs after every character, and so
    on. A binary file has NULs too, but not in such a pattern (nine in ten of the places
    must fit, and most characters must be ASCII for the pattern to show at all)."""
    if data[:4] in UTF32_BOMS:
        return "utf-32"
    sample = data[:BINARY_SNIFF]
    if data[:2] in UTF16_BOMS and b"\0" in sample[2:]:
        return "utf-16"
    n = len(sample) - len(sample) % 4
    if n < 8:
        return None
    sample = sample[:n]
    quads = n // 4
    for name, nul_at, char_at in (("utf-32-le", (1, 2, 3), 0), ("utf-32-be", (0, 1, 2), 3)):
        if (
            all(sample[i::4].count(0) * 10 >= quads * 9 for i in nul_at)
            and sample[char_at::4].count(0) * 10 <= quads
        ):
            return name
    pairs = n // 2
    odd, even = sample[1::2].count(0), sample[0::2].count(0)
    if odd * 10 >= pairs * 9 and even * 10 <= pairs:
        return "utf-16-le"
    if even * 10 >= pairs * 9 and odd * 10 <= pairs:
        return "utf-16-be"
    return None


def is_binary(head: bytes) -> bool:
    """Whether a file whose first BINARY_SNIFF bytes are `head` is binary, as `decode` says."""
    return b"\0" in head and _wide_encoding(head) is None


def decode(data: bytes) -> str | None:
    """Text of `data`, or None when it is binary.

    UTF-32, UTF-16 and UTF-8 byte-order marks are honoured, and UTF-16/32 without one is
    told by its NULs (`_wide_encoding`) before a file with NULs is called binary; anything
    else is read as UTF-8 with invalid bytes replaced, so a stray Latin-1 byte never hides
    the rest of a file.
    """
    # UTF-16 text of anything ASCII (a newline, a space, every secret) has a NUL in every
    # ASCII character: two BOM bytes in front of bytes with no NUL where the binary sniff
    # looks are no UTF-16, and decoding them so would turn the rest into nonsense (or fail,
    # and skip it as binary): a secret hidden behind two bytes. Read as UTF-8 like any file.
    if b"\0" in data[:BINARY_SNIFF]:
        wide = _wide_encoding(data)
        if wide is None:
            return None
        try:
            return data.decode(wide)
        except UnicodeDecodeError:
            return None
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    return data.decode("utf-8", "replace")
