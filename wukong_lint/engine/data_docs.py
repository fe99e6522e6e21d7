"""Data documents shipped beside the rules: facts that rule kinds read but that are no rule of
their own, one YAML file each under a folder of the built-in rules (`rules/protocol/*.yaml`:
the versions of the 戒 protocol). The rule loader skips them (`is_data_document`); this
module finds them, validates them on a cache miss with the model their kind names, and keeps
the validated data in a marshal cache beside the rule cache, so a scan reads them back without
YAML or pydantic (a few hundred microseconds).

A kind is named in engine/data_kinds.py with its folder and its model as "module:Class",
imported on first use, as engine/kinds.py names the rule kinds: the engine never imports the
domain whose data it is.
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import Any

from wukong_lint import __version__
from wukong_lint.engine.data_kinds import DATA_KINDS, is_data_document  # noqa: F401
from wukong_lint.util.errors import RuleError

_MAGIC = b"WKD1"
_LOADED: dict[str, dict[str, dict[str, Any]]] = {}


def _files(kind: str) -> list[tuple[str, int, int]]:
    from wukong_lint.engine.loader import RULE_SUFFIXES, builtin_rules_dir

    folder = os.path.join(builtin_rules_dir(), DATA_KINDS[kind][0])
    found = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    for name in names:
        if name.endswith(RULE_SUFFIXES) and not name.startswith("."):
            path = os.path.join(folder, name)
            st = os.stat(path)
            found.append((path, st.st_size, st.st_mtime_ns))
    return found


def _model_file(target: str) -> str:
    """The source of the model module (its edits invalidate the cache), without importing
    it: a cache hit must not import pydantic."""
    import importlib.util

    spec = importlib.util.find_spec(target.partition(":")[0])
    return spec.origin if spec is not None and spec.origin else ""


def _key(kind: str, files: list[tuple[str, int, int]]) -> str:
    model = _model_file(DATA_KINDS[kind][1])
    try:
        stamp = os.stat(model).st_mtime_ns if model else 0
    except OSError:
        stamp = 0
    parts = [f"data:{kind}", __version__, sys.version, f"{model}\0{stamp}"]
    parts += [f"{path}\0{size}\0{mtime}" for path, size, mtime in files]
    return "\n".join(parts)


def _cache_path(key: str) -> str | None:
    from wukong_lint.engine.patterns import cache_dir, checksum

    directory = cache_dir()
    return os.path.join(directory, f"data-{checksum(key)}.bin") if directory else None


def _read_cache(key: str) -> dict[str, dict[str, Any]] | None:
    path = _cache_path(key)
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            blob = handle.read()
        if blob[:4] != _MAGIC:
            return None
        stored, data = marshal.loads(blob[4:])
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return data if stored == key and isinstance(data, dict) else None


def _write_cache(key: str, data: dict[str, dict[str, Any]]) -> None:
    path = _cache_path(key)
    if path is None:
        return
    try:
        from wukong_lint.util.fsutil import atomic_write_bytes

        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write_bytes(path, _MAGIC + marshal.dumps((key, data)))
        _prune(os.path.dirname(path))
    except (OSError, ValueError):
        pass  # a cache we cannot write only costs speed


def _prune(directory: str, keep: int = 8) -> None:
    entries = []
    for name in os.listdir(directory):
        if name.startswith("data-") and name.endswith(".bin"):
            full = os.path.join(directory, name)
            entries.append((os.stat(full).st_mtime_ns, full))
    for _, full in sorted(entries, reverse=True)[keep:]:
        os.unlink(full)


def _validate(kind: str, files: list[tuple[str, int, int]]) -> dict[str, dict[str, Any]]:
    import importlib

    from pydantic import ValidationError

    from wukong_lint.util.yaml_strict import load

    module, _, name = DATA_KINDS[kind][1].partition(":")
    model = getattr(importlib.import_module(module), name)
    found: dict[str, dict[str, Any]] = {}
    for path, _, _ in files:
        try:
            with open(path, encoding="utf-8") as handle:
                raw = load(handle)
        except (OSError, UnicodeDecodeError) as err:
            raise RuleError(f"{path}: cannot read: {err}") from None
        except Exception as err:  # (the YAML parser's own errors, named)
            raise RuleError(f"{path}: invalid YAML: {str(err).splitlines()[0]}") from None
        if not isinstance(raw, dict) or kind not in raw:
            continue  # another kind's, or no data document
        try:
            data = model.model_validate(raw).model_dump()
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise RuleError(f"{path}: {kind} {where}: {first['msg']}") from None
        ident = str(raw[kind])
        if ident in found:
            raise RuleError(f"{path}: {kind} {ident!r} is defined twice")
        found[ident] = data
    return found


def documents(kind: str) -> dict[str, dict[str, Any]]:
    """Id -> the validated data of every document of `kind` (RuleError: a bad file)."""
    loaded = _LOADED.get(kind)
    if loaded is not None:
        return loaded
    files = _files(kind)
    key = _key(kind, files)
    data = _read_cache(key)
    if data is None:
        data = _validate(kind, files)
        _write_cache(key, data)
    _LOADED[kind] = data
    return data
