"""Find rule files, validate them (on a cache miss) and return a RuleSet.

The compiled rule set is cached per set of rule files (keyed by their paths, sizes and
modification times and the tool version), so a pre-commit run reads one small file instead of
importing YAML and pydantic and validating every rule.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from pathlib import Path
from typing import Any

from wukong_lint import __version__
from wukong_lint.engine.rules import CompiledRule, RuleSet
from wukong_lint.errors import RuleError

RULE_SUFFIXES = (".yaml", ".yml")
CACHE_FORMAT = 1


def builtin_rules_dir() -> Path:
    """The rules shipped in the wheel, or the repository's rules/ in a source checkout."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "rules"
    if packaged.is_dir():
        return packaged
    return here.parent / "rules"


def rule_files(directory: Path) -> list[Path]:
    if directory.is_file():
        return [directory]
    if not directory.is_dir():
        raise RuleError(f"{directory}: rules directory not found")
    found = [
        p
        for p in directory.rglob("*")
        if p.suffix in RULE_SUFFIXES and p.is_file() and not p.name.startswith(".")
    ]
    return sorted(found)


def cache_dir() -> Path | None:
    explicit = os.environ.get("WUKONG_LINT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if base.startswith("~"):
        return None
    return Path(base) / "wukong-lint"


def _cache_key(files: list[Path]) -> str:
    digest = hashlib.sha256(f"{CACHE_FORMAT}\0{__version__}\0{sys.version}".encode())
    for path in files:
        st = path.stat()
        digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:40]


def _read_cache(key: str) -> list[dict[str, Any]] | None:
    directory = cache_dir()
    if directory is None:
        return None
    try:
        data = marshal.loads((directory / f"rules-{key}.bin").read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return data if isinstance(data, list) else None


def _write_cache(key: str, data: list[dict[str, Any]]) -> None:
    directory = cache_dir()
    if directory is None:
        return
    try:
        from wukong_lint.fsutil import atomic_write_bytes

        directory.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(directory / f"rules-{key}.bin", marshal.dumps(data))
    except OSError:
        pass  # a cache we cannot write only costs speed


def load_rules(extra_dirs: tuple[Path, ...] = (), *, builtin: bool = True) -> RuleSet:
    files: list[Path] = []
    if builtin:
        files += rule_files(builtin_rules_dir())
    for directory in extra_dirs:
        files += rule_files(directory)
    key = _cache_key(files)
    data = _read_cache(key)
    if data is None:
        data = [rule.to_data() for rule in validate_files(files)]
        _write_cache(key, data)
    return RuleSet([CompiledRule.from_data(d) for d in data])


def validate_files(files: list[Path]) -> list[CompiledRule]:
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
            seen[rule.id] = str(path)
            rules.append(rule)
    return rules
