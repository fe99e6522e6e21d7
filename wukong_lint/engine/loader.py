"""Find rule files, validate them (on a cache miss) and return a RuleSet.

The compiled rule set is cached per set of rule files, so a pre-commit run reads one small
file instead of importing YAML and pydantic and validating every rule. This module is on the
hot path: it uses `os.path` rather than pathlib, and no hashing module but zlib's CRC-32
(zlib is loaded at start-up anyway; OpenSSL's hashes cost milliseconds to load).

Caches are never a source of policy (the cache folder is writable by whatever runs as the
user, an agent included):

- the key is made of the rule files' *content* (size and CRC-32 of their bytes, read on
  every load), not their times, so a rule file changed in place is never served stale;
- a key can be copied into a rewritten cache file, so the cached records are also checked
  against what the rule files declare (rule_declarations.py: each rule's id, category,
  severity, kind and `enabled`, read from the files' bytes on every load). A cache that
  disagrees is not used: it is rebuilt from the rule files and the run says so
  (`INTEGRITY_NOTES`, shown by the hook);
- a rule set with fewer rules than the files declare is a RuleError (exit 2), never a
  scan that quietly checks less.

A cache file holds two marshal blobs: the rules without their docs and examples, then those
(two thirds of the bytes), which only `rules show`, `rules test`, `rules docs` and SARIF
reports need. A scan reads and decodes the first blob only (`load_rules(details=False)`).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from typing import Any

from wukong_lint import __version__
from wukong_lint.engine.patterns import cache_dir, checksum
from wukong_lint.engine.rules import CompiledRule, RuleSet
from wukong_lint.util.errors import RuleError

RULE_SUFFIXES = (".yaml", ".yml")
# Part of the cache key: a change of the record layout invalidates every cache file.
CACHE_FORMAT = f"4:{','.join(CompiledRule._fields)}"
# The fields kept apart in a cache file (see above), and what a rule read without them holds.
DETAIL_FIELDS = ("docs", "examples_match", "examples_no_match")
_DETAIL_INDEXES = tuple(CompiledRule._fields.index(name) for name in DETAIL_FIELDS)
_NO_DETAILS = tuple(CompiledRule._field_defaults[name] for name in DETAIL_FIELDS)
_MAGIC = b"WKR4"
_ENABLED_AT = CompiledRule._fields.index("enabled")
# What this run found wrong with a cache (shown by the hook and check's warnings).
INTEGRITY_NOTES: list[str] = []


def builtin_rules_dir() -> str:
    """The rules shipped in the wheel, or the repository's rules/ in a source checkout."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    packaged = os.path.join(package, "rules")
    if os.path.isdir(packaged):
        return packaged
    return os.path.join(os.path.dirname(package), "rules")


def rule_files(directory: str | os.PathLike[str]) -> list[str]:
    directory = os.fspath(directory)
    if os.path.isfile(directory):
        return [directory]
    if not os.path.isdir(directory):
        raise RuleError(f"{directory}: rules directory not found")
    from wukong_lint.util.walk import walk  # iterative: a rule pack nested 2,000 deep is no crash

    found = []
    for root, dirs, files in walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [
            os.path.join(root, name)
            for name in files
            if name.endswith(RULE_SUFFIXES) and not name.startswith(".")
        ]
    return sorted(found)


def _rule_file_states(directory: str | os.PathLike[str]) -> list[tuple[str, int, int]]:
    """`rule_files(directory)`, each with its size and modification time, from one walk."""
    directory = os.fspath(directory)
    if os.path.isfile(directory):
        st = os.stat(directory)
        return [(directory, st.st_size, st.st_mtime_ns)]
    if not os.path.isdir(directory):
        raise RuleError(f"{directory}: rules directory not found")
    found = []
    folders = [directory]
    while folders:  # as os.walk: hidden names skipped, symbolic links to folders not entered
        try:
            entries = list(os.scandir(folders.pop()))
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            if entry.is_dir():
                if not entry.is_symlink():
                    folders.append(entry.path)
            elif name.endswith(RULE_SUFFIXES):
                st = entry.stat()
                found.append((entry.path, st.st_size, st.st_mtime_ns))
    found.sort()
    return found


# The code that turns YAML into compiled rules: editing it (a development checkout) must not
# leave a stale cache behind, even when the version number stays the same.
_COMPILER_FILES = ("schema.py", "validate.py", "filters.py", "rules.py")
CACHE_KEEP = 8  # cache files kept per cache folder (one per distinct set of rule files)


MAX_RULE_FILE = 64 << 20  # bytes: a larger rule file is an error, not read whole


def _read_files(states: list[tuple[str, int, int]]) -> list[bytes]:
    """The bytes of each rule file (read on every load: the key and the check of a cached
    rule set come from them, never from the cache). Regular files only, read without
    blocking: a FIFO in a pack's place must not hang a hook call."""
    from wukong_lint.util.fsutil import read_regular

    contents = []
    for path, _, _ in states:
        try:
            data = read_regular(path, MAX_RULE_FILE)
        except OSError as err:
            raise RuleError(f"{path}: cannot read rule file: {err.strerror or err}") from None
        if data is None or len(data) > MAX_RULE_FILE:
            raise RuleError(f"{path}: not a regular rule file of at most 64 MB")
        contents.append(data)
    return contents


def _cache_key(states: list[tuple[str, int, int]], contents: list[bytes]) -> str:
    """The key of a set of rule files: path, size and CRC-32 of each file's bytes."""
    from zlib import crc32

    parts = [CACHE_FORMAT, __version__, sys.version]
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _COMPILER_FILES:
        parts.append(f"{name}\0{os.stat(os.path.join(here, name)).st_mtime_ns}")
    abspath = os.path.abspath  # (only for relative paths: ~300 calls cost ~0.5 ms a run)
    parts += [
        f"{path if path[:1] == '/' else abspath(path)}\0{len(data)}\0{crc32(data):08x}"
        for (path, _, _), data in zip(states, contents, strict=True)
    ]
    return "\n".join(parts)


def _verify(
    data: list[Any], states: list[tuple[str, int, int]], contents: list[bytes]
) -> tuple[str | None, int]:
    """(why the cached records are not what the rule files declare, or None; how many
    rules the files declare). Read from the files' bytes, never from the cache."""
    from wukong_lint.engine.rule_declarations import check

    by_file: dict[str, list[Any]] = {}
    width = len(CompiledRule._fields)
    for row in data:
        if type(row) is not tuple or len(row) != width:
            return "a cached record is not a rule", 0
        found = by_file.get(row[6])
        if found is None:
            by_file[row[6]] = [row]
        else:
            found.append(row)
    problem = None
    declared = 0
    for (path, _, _), content in zip(states, contents, strict=True):
        count, why = check(content, by_file.pop(path, []), _ENABLED_AT)
        declared += count
        if problem is None and why is not None:
            problem = f"{path}: {why}"
    if problem is None and by_file:
        problem = f"rules cached for a file that is not a rule file: {next(iter(by_file))}"
    return problem, declared


def _cache_path(directory: str, key: str) -> str:
    return os.path.join(directory, f"rules-{checksum(key)}.bin")


def _read_cache(key: str, details: bool = True) -> list[Any] | None:
    """The cached rule records of `key` (with their docs and examples when `details`), or
    None: no cache, another key, or a file that is not whole."""
    directory = cache_dir()
    if directory is None:
        return None
    try:
        with open(_cache_path(directory, key), "rb") as handle:
            head = handle.read(12)
            if len(head) != 12 or head[:4] != _MAGIC:
                return None
            size = int.from_bytes(head[4:], "little")
            if size > os.fstat(handle.fileno()).st_size - 12:
                return None
            stored_key, data = marshal.loads(handle.read(size))
            # The file name is only a checksum of the key: the full key decides.
            if stored_key != key or not isinstance(data, list):
                return None
            if not details:
                return data
            stored_key, extra = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if stored_key != key or not isinstance(extra, list) or len(extra) != len(data):
        return None
    rows = []
    for row, more in zip(data, extra, strict=True):
        row = list(row)
        for index, value in zip(_DETAIL_INDEXES, more, strict=True):
            row[index] = value
        rows.append(tuple(row))
    return rows


def _write_cache(key: str, data: list[Any]) -> None:
    directory = cache_dir()
    if directory is None:
        return
    slim, extra = [], []
    for row in data:
        row = list(row)
        extra.append(tuple(row[i] for i in _DETAIL_INDEXES))
        for index, value in zip(_DETAIL_INDEXES, _NO_DETAILS, strict=True):
            row[index] = value
        slim.append(tuple(row))
    head = marshal.dumps((key, slim))
    blob = _MAGIC + len(head).to_bytes(8, "little") + head + marshal.dumps((key, extra))
    try:
        from wukong_lint.util.fsutil import atomic_write_bytes

        os.makedirs(directory, exist_ok=True)
        atomic_write_bytes(_cache_path(directory, key), blob)
        _prune(directory)
    except (OSError, ValueError):
        pass  # a cache we cannot write only costs speed


def _discard(key: str) -> None:
    """Delete the cache file of `key` (it did not verify)."""
    directory = cache_dir()
    if directory is not None:
        # (a read-only cache folder: the records are rebuilt in memory all the same)
        with contextlib.suppress(OSError):
            os.unlink(_cache_path(directory, key))


def _prune(directory: str) -> None:
    """Keep the newest few cache files of each kind: every rule edit writes a new one."""
    for prefix in ("rules-", "patterns-", "hyperscan-"):
        entries = []
        for name in os.listdir(directory):
            if name.startswith(prefix) and name.endswith(".bin"):
                path = os.path.join(directory, name)
                entries.append((os.stat(path).st_mtime_ns, path))
        for _, path in sorted(entries, reverse=True)[CACHE_KEEP:]:
            os.unlink(path)


def load_rules(
    extra_dirs: tuple[str, ...] = (), *, builtin: bool = True, details: bool = True
) -> RuleSet:
    """The rules of the built-in pack (unless `builtin` is false) and of `extra_dirs`.
    Without `details`, the rules' docs and examples are left empty (a scan never reads
    them)."""
    if builtin and not details:
        # The built-in pack from the package's own snapshot (checked by the rule files'
        # sizes and times: no rule file is read), the other folders as below.
        builtin_states = _rule_file_states(builtin_rules_dir())
        sealed = _read_snapshot(builtin_states)
        if sealed is not None:
            data = sealed
            if extra_dirs:
                extra = _load_data(_extra_states(extra_dirs), details)
                _no_duplicates(sealed, extra)
                data = sealed + extra
            return _ruleset(data)
        states = builtin_states + _extra_states(extra_dirs)
        data = _load_data(states, details)
        _write_snapshot(builtin_states, data)
        return _ruleset(data)
    states = _rule_file_states(builtin_rules_dir()) if builtin else []
    return _ruleset(_load_data(states + _extra_states(extra_dirs), details))


def _extra_states(extra_dirs: tuple[str, ...]) -> list[tuple[str, int, int]]:
    states: list[tuple[str, int, int]] = []
    for directory in extra_dirs:
        states += _rule_file_states(directory)
    return states


def _load_data(states: list[tuple[str, int, int]], details: bool) -> list[Any]:
    """The verified rule records of the rule files `states` (from the cache when it checks
    out against the files' bytes, else compiled from them and cached)."""
    contents = _read_files(states)
    key = _cache_key(states, contents)
    # the same rule files (by content) and the same cache file on disk as a load verified
    # earlier in this process: its records again, without reading and checking the cache
    # once more (a process that loads the rules many times: a test session, a long run). A
    # cache file rewritten since (another process) has another stat and is checked again.
    memo_key = (key, details, _cache_stat(key))
    data = _VERIFIED.get(memo_key)
    if data is not None:
        return data
    data = _read_cache(key, details)
    declared = -1
    if data is not None:
        problem, declared = _verify(data, states, contents)
        if problem is not None:
            # a valid key over records the rule files do not declare: rewritten by someone
            # (or corrupt); never used, rebuilt from the rule files below
            INTEGRITY_NOTES.append(
                f"the rule cache did not match the rule files ({problem}): rebuilt from "
                "the rule files"
            )
            _discard(key)
            data = None
    from_cache = data is not None  # (read and verified: kept for the next load below)
    if data is None:
        data = [rule.to_data() for rule in validate_files([path for path, _, _ in states])]
        _write_cache(key, data)
        if declared < 0:
            from wukong_lint.engine.rule_declarations import declared_count

            declared = sum(declared_count(content) for content in contents)
    if len(data) < declared:
        raise RuleError(
            f"the rule set holds {len(data)} rules but the rule files declare {declared}: "
            "not scanning with fewer rules (delete the cache folder and run again)"
        )
    if not details:  # (the records a scan gets carry no details: as a snapshot's)
        data = [_slim(row) for row in data]
    if len(_VERIFIED) >= 8:
        _VERIFIED.clear()
    memo_key = (key, details, _cache_stat(key))  # (the file as checked now)
    if from_cache and memo_key[2] is not None:
        _VERIFIED[memo_key] = data
    return data


def _slim(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A record without its docs and examples."""
    if all(row[i] == empty for i, empty in zip(_DETAIL_INDEXES, _NO_DETAILS, strict=True)):
        return row
    fields = list(row)
    for index, value in zip(_DETAIL_INDEXES, _NO_DETAILS, strict=True):
        fields[index] = value
    return tuple(fields)


def _no_duplicates(first: list[Any], second: list[Any]) -> None:
    seen = {row[0]: row[6] for row in first}
    for row in second:
        if row[0] in seen:
            raise RuleError(
                f"{row[6]}: rule '{row[0]}': duplicate rule id (first defined in {seen[row[0]]})"
            )


# The built-in pack's snapshot: its compiled records kept inside the installed package (the
# folder of this very code, which the hook protects like the code itself: whoever can
# rewrite it can rewrite the code). It is used when every built-in rule file has the size
# and modification time it had when the snapshot was written, so a hook call stats the
# rule files instead of reading and checking ~300 of them (~20 ms). A checkout edited in
# place changes the times and falls back to the verified cache above, which writes a new
# snapshot. A package folder that is not writable (a system-wide install) keeps the
# verified cache path on every call.
SNAPSHOT_NAME = "_builtin_rules.bin"


def _snapshot_key(states: list[tuple[str, int, int]]) -> str:
    root = builtin_rules_dir()
    parts = [CACHE_FORMAT, __version__, sys.version, root]
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _COMPILER_FILES:
        parts.append(f"{name}\0{os.stat(os.path.join(here, name)).st_mtime_ns}")
    parts += [f"{path}\0{size}\0{mtime}" for path, size, mtime in states]
    return "\n".join(parts)


def _read_snapshot(states: list[tuple[str, int, int]]) -> list[Any] | None:
    from wukong_lint.util import package_snapshot

    key = _snapshot_key(states)
    # the same snapshot file (device, inode, size, mtime) for the same rule files as a load
    # earlier in this process: its records again, as _VERIFIED does for the cache (a process
    # that loads the rules per call, the in-process hook of a test session, unmarshalled
    # ~350 KB each time: a sixth of a call)
    try:
        info = os.stat(package_snapshot.path(SNAPSHOT_NAME))
        memo_key: tuple[Any, ...] | None = (
            key, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns,
            package_snapshot.enabled(),
        )  # fmt: skip
    except OSError:
        memo_key = None
    if memo_key is not None and memo_key in _SNAPSHOTS:
        return _SNAPSHOTS[memo_key]
    data = package_snapshot.load(SNAPSHOT_NAME, key)
    found = data if isinstance(data, list) and data else None
    if memo_key is not None and found is not None:
        _SNAPSHOTS.clear()  # (one snapshot at a time: a rule edit makes a new one)
        _SNAPSHOTS[memo_key] = found
    return found


_SNAPSHOTS: dict[tuple[Any, ...], list[Any]] = {}


def _write_snapshot(states: list[tuple[str, int, int]], data: list[Any]) -> None:
    """Keep the built-in rules' records (those of `data` that come from `states`) as the
    package's snapshot, when the package folder is writable."""
    paths = {path for path, _, _ in states}
    rows = [row for row in data if row[6] in paths]
    if rows:
        from wukong_lint.util import package_snapshot

        package_snapshot.store(SNAPSHOT_NAME, _snapshot_key(states), rows)


def _cache_stat(key: str) -> tuple[int, int, int, int] | None:
    directory = cache_dir()
    if directory is None:
        return None
    try:
        info = os.stat(_cache_path(directory, key))
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


_VERIFIED: dict[tuple[Any, ...], list[Any]] = {}


def _ruleset(data: list[Any]) -> RuleSet:
    """Fresh rule records (callers may override their settings) from verified data."""
    rules = [CompiledRule.from_data(d) for d in data]
    from wukong_lint.engine import patterns
    from wukong_lint.engine.masking.shapes import (
        SHAPES_PATTERN,  # what reports mask beyond the rules
    )

    patterns.prepare(
        [r.regex for r in rules if r.regex]
        + [r.after_keyword for r in rules if r.after_keyword]
        + [p for r in rules for _, p in r.allow]
        + [SHAPES_PATTERN],
        cache_dir(),
    )
    return RuleSet(rules)


def validate_files(files: list[str]) -> list[CompiledRule]:
    """Parse and validate rule files; the first problem raises RuleError naming file and rule."""
    from wukong_lint.engine.validate import compile_file

    rules: list[CompiledRule] = []
    seen: dict[str, str] = {}
    for path in files:
        for rule in compile_file(path):
            if rule.id in seen:
                raise RuleError(
                    f"{path}: rule '{rule.id}': duplicate rule id "
                    f"(first defined in {seen[rule.id]})"
                )
            seen[rule.id] = path
            rules.append(rule)
    return rules
