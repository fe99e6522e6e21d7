"""The validated project config, cached for the live hook.

Validating `.wukong-lint.yaml` imports YAML and pydantic (~100 ms), and the hook runs once per
tool call: its budget is 60 ms. So the hook keeps the validated `Config` as JSON in the cache
folder, keyed by the config file's path, size, modification time and inode, the home folder
(`~` in paths) and the tool's version, and reads it back with the standard JSON reader. A key
that does not match, or a cache file that cannot be read or does not have the expected
shape, means the config is validated again (and the cache rewritten). Deleting the cache is
always safe.
"""

from __future__ import annotations

import json
import os
from typing import Any

from wukong_lint import __version__
from wukong_lint.config.project import Config, find_config, load_config

_TUPLES = ("select", "ignore", "rule_dirs", "allow_comments", "exclude")
_TEXTS = ("path", "fail_on", "profile", "baseline", "audit", "protocol_version")


def hook_config(explicit: str | None, start: str | None) -> Config:
    """`resolve_config(explicit, start)`, read from the cache when the file has not changed."""
    path = explicit or find_config(start)
    if not path:
        return Config()
    from wukong_lint.engine.patterns import cache_dir, checksum

    folder = cache_dir()
    try:
        st = os.stat(path)
    except OSError:
        return load_config(path)  # (its own one-line error)
    full = os.path.abspath(path)
    key = [full, st.st_size, st.st_mtime_ns, st.st_ino, os.path.expanduser("~"), __version__]
    # (not hashlib: OpenSSL takes ~2 ms to load; the name only spreads files, the key decides)
    name = "config-" + checksum(full)
    cached = os.path.join(folder, name + ".json") if folder else None
    if cached:
        config = _read(cached, key)
        if config is not None:
            return config
    config = load_config(path)
    if cached:
        _write(cached, key, config)
    return config


def _read(cached: str, key: list[Any]) -> Config | None:
    try:
        with open(cached, encoding="utf-8") as handle:
            data = json.load(handle)
        if data.get("key") != key:
            return None
        fields = data["config"]
        return Config(
            **{name: fields[name] for name in _TEXTS},
            **{name: tuple(fields[name]) for name in _TUPLES},
            per_path_ignores=tuple((glob, tuple(names)) for glob, names in fields["ppi"]),
            builtin_rules=bool(fields["builtin_rules"]),
            rule_params=fields["rule_params"],
            live=fields["live"],
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # no cache yet, or one that is not ours: validate again


def _write(cached: str, key: list[Any], config: Config) -> None:
    fields = {name: getattr(config, name) for name in (*_TEXTS, *_TUPLES)}
    fields.update(
        ppi=config.per_path_ignores,
        builtin_rules=config.builtin_rules,
        rule_params=config.rule_params,
        live=config.live,
    )
    try:
        text = json.dumps({"key": key, "config": fields}, ensure_ascii=True)
    except (TypeError, ValueError):
        return  # a value JSON cannot hold: no cache, the config is validated each time
    from wukong_lint.util.fsutil import atomic_write_text

    try:
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        atomic_write_text(cached, text)
    except OSError:
        pass  # a cache that cannot be written only costs time
