"""Find rule files, validate them (on a cache miss) and return a RuleSet.

The compiled rule set is cached per set of rule files (keyed by their paths, sizes and
modification times and the tool version), so a pre-commit run reads one small file instead of
importing YAML and pydantic and validating every rule. This module is on the hot path: it
uses `os.path` and `zlib` rather than pathlib and hashlib, which cost milliseconds to import.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from typing import Any

from wukong_lint import __version__
from wukong_lint.engine.rules import CompiledRule, RuleSet
from wukong_lint.errors import RuleError

RULE_SUFFIXES = (".yaml", ".yml")
# Part of the cache key: a change of the record layout invalidates every cache file.
CACHE_FORMAT = f"2:{','.join(CompiledRule._fields)}"


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
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [
            os.path.join(root, name)
            for name in files
            if name.endswith(RULE_SUFFIXES) and not name.startswith(".")
        ]
    return sorted(found)


def cache_dir() -> str | None:
    explicit = os.environ.get("WUKONG_LINT_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if base.startswith("~"):  # no home directory: run without a cache
        return None
    return os.path.join(base, "wukong-lint")


# The code that turns YAML into compiled rules: editing it (a development checkout) must not
# leave a stale cache behind, even when the version number stays the same.
_COMPILER_FILES = ("schema.py", "validate.py", "filters.py", "rules.py")
CACHE_KEEP = 8  # cache files kept per cache folder (one per distinct set of rule files)


def _cache_key(files: list[str]) -> str:
    parts = [CACHE_FORMAT, __version__, sys.version]
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _COMPILER_FILES:
        parts.append(f"{name}\0{os.stat(os.path.join(here, name)).st_mtime_ns}")
    for path in files:
        st = os.stat(path)
        parts.append(f"{os.path.abspath(path)}\0{st.st_size}\0{st.st_mtime_ns}")
    return "\n".join(parts)


def _cache_path(directory: str, key: str) -> str:
    return os.path.join(directory, f"rules-{zlib.crc32(key.encode()):08x}.bin")


def _read_cache(key: str) -> list[Any] | None:
    directory = cache_dir()
    if directory is None:
        return None
    try:
        with open(_cache_path(directory, key), "rb") as handle:
            stored_key, data = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    # The file name is only a checksum of the key: the full key decides.
    return data if stored_key == key and isinstance(data, list) else None


def _write_cache(key: str, data: list[Any]) -> None:
    directory = cache_dir()
    if directory is None:
        return
    try:
        from wukong_lint.fsutil import atomic_write_bytes

        os.makedirs(directory, exist_ok=True)
        atomic_write_bytes(_cache_path(directory, key), marshal.dumps((key, data)))
        _prune(directory)
    except (OSError, ValueError):
        pass  # a cache we cannot write only costs speed


def _prune(directory: str) -> None:
    """Keep the newest few cache files of each kind: every rule edit writes a new one."""
    for prefix in ("rules-", "patterns-"):
        entries = []
        for name in os.listdir(directory):
            if name.startswith(prefix) and name.endswith(".bin"):
                path = os.path.join(directory, name)
                entries.append((os.stat(path).st_mtime_ns, path))
        for _, path in sorted(entries, reverse=True)[CACHE_KEEP:]:
            os.unlink(path)


def load_rules(extra_dirs: tuple[str, ...] = (), *, builtin: bool = True) -> RuleSet:
    files: list[str] = []
    if builtin:
        files += rule_files(builtin_rules_dir())
    for directory in extra_dirs:
        files += rule_files(directory)
    key = _cache_key(files)
    data = _read_cache(key)
    if data is None:
        data = [rule.to_data() for rule in validate_files(files)]
        _write_cache(key, data)
    rules = [CompiledRule.from_data(d) for d in data]
    from wukong_lint.engine import patterns

    patterns.prepare(
        [r.regex for r in rules if r.regex]
        + [r.after_keyword for r in rules if r.after_keyword]
        + [p for r in rules for _, p in r.allow],
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
