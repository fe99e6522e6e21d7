"""Compiled rule regexes, with a cache of the `regex` module's compiled code across runs.

The `regex` module parses and compiles patterns in Python: importing its compiler costs ~10 ms
and compiling the patterns a typical commit needs another ~10 ms, on every pre-commit run.
Its C engine (`regex._regex`) builds a pattern object from a compiled code list in
microseconds. So the first run records the arguments the compiler passes to the C engine for
every rule pattern, and later runs give them straight to the engine, without importing the
compiler at all.

The cache is keyed by the engine's shared library (path, size, mtime), the Python version and
the layout, so an upgraded `regex` recompiles. Each entry carries a checksum of its pattern
and arguments, checked before the engine sees them: a corrupted file is never executed (a
changed code list crashed or hung the C engine); it is deleted, and the next run rebuilds it.
Anything unexpected (a different packaging of `regex`, a missing entry) falls back to the
ordinary `regex.compile`: the cache can only cost speed.

A run compiles a few of the hundreds of patterns it prepares, so each pattern's arguments are
stored as their own marshal string and decoded on first use, and the engine's library is
loaded only when a pattern is first compiled.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Iterable
from typing import Any

from wukong_lint.util.extensions import library_path, load_extension

FLAGS_VERSION0 = 0x2000  # regex.VERSION0, without importing regex to read it

_compiled: dict[str, Any] = {}
# pattern -> the engine's arguments, or (as read from the cache) their marshal bytes
_recorded: dict[str, tuple[Any, ...] | bytes] = {}
_engine: Any = None
_engine_library: str | None = None  # loaded on first use
_engine_key: str | None = None


def compile_pattern(pattern: str) -> Any:
    """A compiled regex for `pattern` (VERSION0 semantics, as the rule schema validates)."""
    compiled = _compiled.get(pattern)
    if compiled is not None:
        return compiled
    args = _recorded.get(pattern)
    if args is not None and (_engine is not None or _engine_library is not None):
        try:
            if isinstance(args, bytes):
                args = _recorded[pattern] = _verified(pattern, args)
            compiled = _load_engine().compile(pattern, *args)
        except CorruptCache:
            _recorded.pop(pattern, None)
            _discard_cache()
            compiled = None
        except Exception:
            compiled = None
    if compiled is None:
        compiled = _compile_and_record(pattern)
    _compiled[pattern] = compiled
    return compiled


class CorruptCache(Exception):
    """A cache entry whose checksum does not match: never given to the C engine."""


_PRIME = (1 << 61) - 1  # entry checksums: the entry's bytes as a number, modulo this prime
_cache_path: str | None = None  # the cache file this run read, to delete when corrupt


def _entry_checksum(pattern: str, blob: bytes) -> bytes:
    data = pattern.encode("utf-8", "surrogatepass") + b"\0" + blob
    return (int.from_bytes(data, "little") % _PRIME).to_bytes(8, "little")


def _sealed(pattern: str, args: tuple[Any, ...]) -> bytes:
    """A cache entry: a checksum of the pattern and its arguments, then their marshal bytes."""
    blob = marshal.dumps(args)
    return _entry_checksum(pattern, blob) + blob


def _verified(pattern: str, entry: bytes) -> tuple[Any, ...]:
    """The engine arguments of a cache entry, or CorruptCache: the C engine trusts what it
    is given (corrupted code lists crashed or hung it), so a changed byte must not reach it."""
    blob = entry[8:]
    if len(entry) < 9 or entry[:8] != _entry_checksum(pattern, blob):
        raise CorruptCache(pattern)
    try:
        args = marshal.loads(blob)
    except (ValueError, EOFError, TypeError):
        raise CorruptCache(pattern) from None
    if not isinstance(args, tuple):
        raise CorruptCache(pattern)
    return args


def _discard_cache() -> None:
    """Delete the cache file a corrupt entry came from: the next run rebuilds it."""
    global _cache_path
    path, _cache_path = _cache_path, None
    if path is not None:
        try:
            os.unlink(path)
        except OSError:
            return  # (a read-only cache: this run compiles the ordinary way all the same)


def _load_engine() -> Any:
    global _engine, _engine_library
    if _engine is None:
        library, _engine_library = _engine_library, None
        _engine = load_extension("regex", "_regex", library)
        if _engine is None:
            raise ImportError("regex._regex")
    return _engine


def _compile_and_record(pattern: str) -> Any:
    """Compile with the `regex` package, recording what its compiler gives the C engine."""
    import regex
    from regex import _regex as engine

    calls: list[tuple[Any, ...]] = []
    original = engine.compile

    def spy(*args: Any) -> Any:
        calls.append(args)
        return original(*args)

    engine.compile = spy
    try:
        compiled = regex.compile(pattern, regex.VERSION0, cache_pattern=False)
    finally:
        engine.compile = original
    if len(calls) == 1 and calls[0][0] == pattern:
        # plain ints (the flags are an IntFlag) so that marshal can store them
        _recorded[pattern] = tuple(
            int(a) if isinstance(a, int) and type(a) not in (int, bool) else a for a in calls[0][1:]
        )
    return compiled


def checksum(key: str) -> str:
    """A short, stable checksum of a cache key, for a cache file's name (the full key, kept
    inside the file, decides). Not zlib.crc32: zlib is an extension module, ~0.4 ms to load
    on every run. The hash of an int is not randomised per process as a str's is: it is the
    number modulo a fixed prime (2**61 - 1 on 64-bit builds)."""
    number = int.from_bytes(key.encode("utf-8", "surrogatepass"), "little")
    return f"{hash(number) & 0xFFFFFFFF:08x}"


def _cache_file(directory: str, key: str) -> str:
    return os.path.join(directory, f"patterns-{checksum(key)}.bin")


def cache_dir() -> str | None:
    """The folder of the rule and regex caches (None: no home folder, run without one)."""
    explicit = os.environ.get("WUKONG_LINT_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if base.startswith("~"):  # no home directory: run without a cache
        return None
    return os.path.join(base, "wukong-lint")


def prepare(patterns: Iterable[str], cache_dir: str | None) -> None:
    """Make `patterns` cheap to compile in this run, from the cache or by recording them."""
    global _engine_library, _engine_key, _cache_path
    wanted = [p for p in dict.fromkeys(patterns) if p not in _recorded]
    if not wanted or cache_dir is None:
        return
    try:
        library = library_path("regex", "_regex")
        if library is None:
            return
        st = os.stat(library)
        # "3": entries carry a checksum (_sealed); files of earlier layouts are ignored
        key = f"3\0{library}\0{st.st_size}\0{st.st_mtime_ns}\0{sys.version}"
        path = _cache_file(cache_dir, key)
        try:
            with open(path, "rb") as handle:
                stored_key, stored = marshal.loads(handle.read())
            if stored_key == key and isinstance(stored, dict):
                _cache_path = path
                for pattern, args in stored.items():
                    # decoded entries of this run (the same, or newer) are kept; an entry
                    # is checked when it is first used (_verified)
                    if isinstance(pattern, str) and isinstance(args, bytes):
                        _recorded.setdefault(pattern, args)
        except (OSError, ValueError, EOFError, TypeError):
            pass
        missing = [p for p in wanted if p not in _recorded]
        if missing:
            for pattern in missing:
                compile_pattern(pattern)
            from wukong_lint.util.fsutil import atomic_write_bytes

            os.makedirs(cache_dir, exist_ok=True)
            stored = {
                pattern: args if isinstance(args, bytes) else _sealed(pattern, args)
                for pattern, args in _recorded.items()
            }
            atomic_write_bytes(path, marshal.dumps((key, stored)))
        if _engine is None:
            _engine_library = library
        _engine_key = key
    except (OSError, ImportError, ValueError):
        return  # no cache this time: patterns compile the ordinary way
