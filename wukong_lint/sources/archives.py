"""Archives as a source: the members of a `.zip` (`.jar`, `.whl`, ...), `.tar` (plain, gzip,
bzip2, xz) and of a single-file `.gz` / `.bz2` / `.xz` become units of their own, on the path
`archive.zip!inner/path` (nested: `a.zip!b.tar.gz!c.txt`).

Bounded, never trusted: archives inside archives are opened to `Limits.depth` levels; an
archive (with everything nested in it) gives at most `Limits.budget` bytes of decompressed
content, one member at most `Limits.member` bytes, and a member that decompresses more than
`Limits.ratio` times its compressed size is not read (a zip bomb). Every limit reached is a
warning in the report (`ScanError`, message starting with ARCHIVE_LIMIT), not a crash and not
an exhausted memory. A member that cannot be read (corrupt, encrypted, an unknown compression)
is an error starting with "cannot read": the scan is incomplete and the run exits 2, as for an
unreadable file.

Nothing is ever written to disk: a member's name (`../../etc/passwd`, `/abs`) is only shown.
Only the standard library (zipfile, tarfile, gzip, bz2, lzma), imported on the first archive.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, NamedTuple

from wukong_lint.model import ScanError, Source, Unit
from wukong_lint.secrets.file_names import KEYSTORE_SUFFIXES
from wukong_lint.util.text import Skipped, decode

if TYPE_CHECKING:
    import zipfile

# zip containers (Java, Python, Android, .NET packages: all zip files) and tars
ZIP_SUFFIXES = (".zip", ".jar", ".war", ".ear", ".whl", ".egg", ".nupkg", ".apk", ".aar")
TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz")
STREAM_SUFFIXES = (".gz", ".bz2", ".xz")  # one compressed file (a tar inside is read as one)
ARCHIVE_SUFFIXES = ZIP_SUFFIXES + TAR_SUFFIXES + STREAM_SUFFIXES

# members never read: binary by name (as a folder scan skips them), archives excepted
_BINARY_MEMBERS = (
    ".pyc", ".pyo", ".so", ".dylib", ".dll", ".exe", ".o", ".a", ".lib", ".class", ".png",
    ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".bmp", ".tiff", ".pdf", ".woff", ".woff2",
    ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".wav", ".ogg", ".mov", ".avi", ".sqlite", ".db",
    ".npy", ".npz", ".pkl", ".parquet", ".zst", ".7z", ".rar",
)  # fmt: skip

# every warning about a limit starts so: the run still passes (a limit is no unread input)
ARCHIVE_LIMIT = "archive limit: "
_READ = 1 << 20
_LOCAL_HEADER = 30  # bytes of a zip member's local header before its name
_DEFLATE_SLACK = 1024  # deflate may grow incompressible data by 5 bytes per 64 KiB block
_RATIO_FLOOR = 1 << 20  # below this a member's ratio is not a bomb (a 2 KB file of spaces)


class Limits(NamedTuple):
    depth: int = 2  # archive levels opened: 1 = only the archive itself
    budget: int = 256 << 20  # decompressed bytes per archive, nested ones included
    member: int = 32 << 20  # decompressed bytes of one member
    ratio: int = 100  # a member decompressing more than this many times its size is a bomb


# The settings of this run (`configure`): forked workers inherit them.
_settings: dict[str, object] = {"enabled": True, "limits": Limits()}


def configure(enabled: bool = True, limits: Limits | None = None) -> None:
    """Archives on or off (`--no-archives`) and their limits, for the rest of the process."""
    _settings["enabled"] = enabled
    _settings["limits"] = limits or Limits()


def limits() -> Limits:
    return _settings["limits"]  # type: ignore[return-value]


def is_archive_path(path: str) -> bool:
    """Whether `path` names an archive this run opens (false with `--no-archives`)."""
    return bool(_settings["enabled"]) and path.lower().endswith(ARCHIVE_SUFFIXES)


def is_archive_limit(error: ScanError) -> bool:
    """Whether `error` is a limit an archive reached (a warning; the run may still pass)."""
    return error.message.startswith(ARCHIVE_LIMIT)


Item = Unit | ScanError | Skipped


class _Limit(Exception):
    """A limit was reached; the message says which."""


class _Budget:
    """The decompressed bytes an archive and everything nested in it may still give."""

    def __init__(self, total: int) -> None:
        self.left = total
        self.total = total

    def take(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            mib = self.total / (1 << 20)
            raise _Limit(f"size budget of {mib:g} MiB used up: the rest is not scanned")


class _Counted(io.RawIOBase):
    """A decompressing stream whose bytes are charged to the budget as they are read: a tar
    inside a `.tar.gz` skips a member by decompressing it, which must stay bounded too."""

    def __init__(self, stream: IO[bytes], budget: _Budget) -> None:
        self._stream = stream
        self._budget = budget

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._stream.read(len(buffer))
        self._budget.take(len(data))
        buffer[: len(data)] = data
        return len(data)


def file_units(full: str, display: str) -> Iterator[Item]:
    """The members of the archive file `full`, shown under `display`."""
    try:
        handle = open(full, "rb")  # noqa: SIM115  (closed below, after the members)
    except OSError as err:
        yield ScanError(display, f"cannot read: {err.strerror or err}")
        return
    with handle:
        yield from _archive(handle, display, Source(kind="file"), limits(), 1, None)


def blob_units(data: bytes, path: str, commit: str | None = None) -> Iterator[Item]:
    """The members of an archive git holds (`--staged`, `--diff`, `--history`): every line of
    a member counts as added (git cannot say which lines of a member changed)."""
    source = Source(kind="diff", commit=commit)
    yield from _archive(io.BytesIO(data), path, source, limits(), 1, None)


def _archive(
    handle: IO[bytes], display: str, source: Source, lim: Limits, depth: int,
    budget: _Budget | None,
) -> Iterator[Item]:  # fmt: skip
    """The members of one archive (a seekable binary file), `depth` levels down."""
    budget = budget or _Budget(lim.budget)
    head = handle.read(512)
    handle.seek(0)
    kind = _kind(head, display)
    if kind is None:  # a name that promises an archive, bytes that are none: a binary file
        size = handle.seek(0, os.SEEK_END)
        yield Skipped(display, "binary", size)
        return
    try:
        if kind == "zip":
            yield from _zip_members(handle, display, source, lim, depth, budget)
        elif kind == "tar":
            yield from _tar_members(handle, display, source, lim, depth, budget)
        else:
            yield from _stream(kind, handle, display, source, lim, depth, budget)
    except _Limit as limit:
        yield ScanError(display, f"{ARCHIVE_LIMIT}{limit}")
    except Exception as err:  # never a crash: reported, and the run exits 2
        # zipfile.BadZipFile, tarfile.ReadError, zlib.error, lzma.LZMAError, EOFError...
        yield ScanError(display, f"cannot read: corrupt archive ({_why(err)}): not scanned")


def _why(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text[:200]


def _kind(head: bytes, name: str) -> str | None:
    """The archive kind of a file from its first bytes (names lie; magic numbers less so)."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")):
        return "zip"
    if head.startswith(b"\x1f\x8b"):
        return "gzip"
    if head.startswith(b"BZh"):
        return "bzip2"
    if head.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    if head[257:262] == b"ustar" or (len(head) >= 512 and name.lower().endswith(".tar")):
        return "tar"
    return None


def _member_item(
    data: bytes, path: str, source: Source, lim: Limits, depth: int, budget: _Budget
) -> Iterator[Item]:
    """A member's bytes as a unit, or as an archive opened one level down."""
    lowered = path.lower()
    if lowered.endswith(ARCHIVE_SUFFIXES):
        if depth >= lim.depth:
            yield ScanError(path, f"{ARCHIVE_LIMIT}archive nested deeper than {lim.depth} "
                            "levels: not opened (--archive-depth)")  # fmt: skip
            return
        yield from _archive(io.BytesIO(data), path, source, lim, depth + 1, budget)
        return
    text = decode(data)
    if text is None:
        if data and lowered.endswith(KEYSTORE_SUFFIXES):  # reported by its name
            yield Unit(path, "", source, size=len(data))
        else:
            yield Skipped(path, "binary", len(data))
        return
    yield Unit(path, text, source, size=len(data))


def _too_big(path: str, size: int, lim: Limits) -> ScanError | None:
    if size > lim.member:
        mib = lim.member / (1 << 20)
        return ScanError(path, f"{ARCHIVE_LIMIT}member larger than {mib:g} MiB: not scanned")
    return None


def _zip_members(
    handle: IO[bytes], display: str, source: Source, lim: Limits, depth: int, budget: _Budget
) -> Iterator[Item]:
    import zipfile

    with zipfile.ZipFile(handle) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            path = f"{display}!{info.filename}"
            if info.filename.lower().endswith(_BINARY_MEMBERS):
                yield Skipped(path, "binary", info.file_size)
                continue
            if info.flag_bits & 0x1:
                yield ScanError(path, "cannot read: encrypted archive member (a password "
                                "protects it): not scanned")  # fmt: skip
                continue
            packed = max(info.compress_size, 1)
            if info.file_size > _RATIO_FLOOR and info.file_size > lim.ratio * packed:
                ratio = info.file_size // packed
                yield ScanError(path, f"{ARCHIVE_LIMIT}compression ratio {ratio}:1 over "
                                f"{lim.ratio}:1 (a zip bomb?): not scanned")  # fmt: skip
                continue
            too_big = _too_big(path, info.file_size, lim)
            if too_big:
                yield too_big
                continue
            try:
                data = _zip_direct(handle, info, budget)
                if data is None:  # not the common case: zipfile's own reader
                    data = _read_capped(archive.open(info), lim, budget, path)
            except _Limit:
                raise
            except Exception as err:  # reported; the next member is read
                # a bad CRC, a truncated stream, a compression zipfile does not know
                yield ScanError(path, f"cannot read: corrupt archive member ({_why(err)}): "
                                "not scanned")  # fmt: skip
                continue
            if isinstance(data, ScanError):
                yield data
                continue
            yield from _member_item(data, path, source, lim, depth, budget)


def _zip_direct(handle: IO[bytes], info: zipfile.ZipInfo, budget: _Budget) -> bytes | None:
    """A stored or deflated member's bytes read in one piece, or None to let zipfile read it.

    zipfile reads a member through a chain of Python objects (a shared file, a reader
    refilling a buffer, a CRC updated per block): on the small members of real packages that
    costs more than inflating them. The common case is read here with the same checks and
    the same results: the local header's signature and name (else zipfile says what is
    wrong), at most the declared size (its caller refused one above the member limit), the
    CRC-32 over what was read (zipfile's own error when it differs)."""
    import zipfile
    import zlib

    method = info.compress_type
    # (the packed bytes are read whole: bounded, since the caller bounds the declared size)
    most = info.file_size + (info.file_size >> 4) + _DEFLATE_SLACK
    if method not in (0, 8) or info.flag_bits & 0x61 or info.compress_size > most:
        return None  # encrypted, patched, another compression, a size out of proportion
    handle.seek(info.header_offset)
    header = handle.read(_LOCAL_HEADER)
    if len(header) != _LOCAL_HEADER or header[:4] != b"PK\x03\x04":
        return None
    flags, name_length, extra_length = (
        int.from_bytes(header[6:8], "little"),
        int.from_bytes(header[26:28], "little"),
        int.from_bytes(header[28:30], "little"),
    )
    try:
        name = handle.read(name_length).decode("utf-8" if flags & 0x800 else "cp437")
    except UnicodeDecodeError:
        return None
    if name != info.orig_filename:
        return None
    handle.seek(extra_length, os.SEEK_CUR)
    packed = handle.read(info.compress_size)
    if len(packed) != info.compress_size:
        return None  # truncated: zipfile's error
    # never more than the declared size, as zipfile (inflate stops there: a bomb is bounded)
    size = info.file_size
    if method == 0 or size == 0:  # (a max_length of 0 would be no limit at all)
        data = packed[:size]
    else:
        data = zlib.decompressobj(-15).decompress(packed, size)
    budget.take(len(data))
    if zlib.crc32(data) != info.CRC:
        raise zipfile.BadZipFile(f"Bad CRC-32 for file {info.filename!r}")
    return data


def _read_capped(
    stream: IO[bytes], lim: Limits, budget: _Budget, path: str, compressed: int = 0
) -> bytes | ScanError:
    """A member's bytes, read a block at a time: never more than the member limit (its
    declared size may lie), charged to the budget; a ScanError when it is too big."""
    chunks: list[bytes] = []
    size = 0
    with stream:
        while True:
            block = stream.read(_READ)
            if not block:
                break
            size += len(block)
            budget.take(len(block))
            if size > lim.member:
                mib = lim.member / (1 << 20)
                return ScanError(path, f"{ARCHIVE_LIMIT}member larger than {mib:g} MiB: "
                                 "not scanned")  # fmt: skip
            if compressed and size > _RATIO_FLOOR and size > lim.ratio * compressed:
                return ScanError(path, f"{ARCHIVE_LIMIT}compression ratio over {lim.ratio}:1 "
                                 "(a bomb?): not scanned")  # fmt: skip
            chunks.append(block)
    return b"".join(chunks)


def _tar_members(
    handle: IO[bytes], display: str, source: Source, lim: Limits, depth: int, budget: _Budget
) -> Iterator[Item]:
    import tarfile

    # stream mode: members in order, no index read ahead (a .tar.gz is decompressed once)
    with tarfile.open(fileobj=handle, mode="r|") as archive:
        for member in archive:
            if not member.isfile():
                continue  # folders, links (never followed), devices
            path = f"{display}!{member.name}"
            if member.name.lower().endswith(_BINARY_MEMBERS):
                yield Skipped(path, "binary", member.size)
                continue
            too_big = _too_big(path, member.size, lim)
            if too_big:
                yield too_big
                continue
            stream = archive.extractfile(member)
            if stream is None:
                continue
            data = _read_capped(stream, lim, budget, path)
            if isinstance(data, ScanError):
                yield data
                continue
            if len(data) < member.size:
                yield ScanError(path, "cannot read: corrupt archive member (truncated): "
                                "not scanned")  # fmt: skip
                continue
            yield from _member_item(data, path, source, lim, depth, budget)


def _decompressor(kind: str, handle: IO[bytes]) -> IO[bytes]:
    if kind == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=handle, mode="rb")
    if kind == "bzip2":
        import bz2

        return bz2.BZ2File(handle, mode="rb")
    import lzma

    return lzma.LZMAFile(handle, mode="rb")


def _stream(
    kind: str, handle: IO[bytes], display: str, source: Source, lim: Limits, depth: int,
    budget: _Budget,
) -> Iterator[Item]:  # fmt: skip
    """A `.gz` / `.bz2` / `.xz`: a tar inside is read member by member, in one pass; any
    other payload is one member named after the file without its suffix."""
    compressed = handle.seek(0, os.SEEK_END)
    handle.seek(0)
    probe = _decompressor(kind, handle)
    head = probe.read(512)
    if head[257:262] == b"ustar":
        handle.seek(0)
        counted = io.BufferedReader(_Counted(_decompressor(kind, handle), budget), _READ)
        yield from _tar_members(counted, display, source, lim, depth, budget)  # type: ignore[arg-type]
        return
    name = os.path.basename(display.rsplit("!", 1)[-1])
    for suffix in (".tgz", ".tbz2", ".tbz", ".txz"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)] + ".tar"
            break
    else:
        name = name.rsplit(".", 1)[0] if "." in name else name
    path = f"{display}!{name}"
    handle.seek(0)
    data = _read_capped(_decompressor(kind, handle), lim, budget, path, compressed)
    if isinstance(data, ScanError):
        yield data
        return
    yield from _member_item(data, path, source, lim, depth, budget)
