"""The configuration the live hook applies, and the cache that keeps it cheap.

Validating `.wukong-lint.yaml` imports YAML and pydantic (~100 ms), and the hook runs once per
tool call: its budget is 60 ms. So the hook keeps each validated `Config` as JSON in the cache
folder and reads it back with the standard JSON reader.

The cache is never a source of policy (its folder is writable by whatever runs as the user,
an agent included, and `WUKONG_LINT_CACHE_DIR` may point anywhere):

- an entry is keyed by the config file's *content* (its bytes, read on every call: size and
  CRC-32), its path, the home folder (`~` in paths) and the tool's version, so a file edited
  in place is validated again whatever its times say;
- a rewritten entry keeps a valid key, so the policy read from it is checked as if the agent
  had written it: a project config's loosening parts apply only when the user approved the
  file's content *and* the approval's digest of the validated config matches the entry
  (config/approvals.py); a loosening that is not approved is dropped, with a warning. So a
  rewritten entry can only make the hook stricter, or change the non-guarded categories.

Deleting the cache is always safe. Which files apply, and who wins, is config/layers.py;
what loosens, config/loosening.py.
"""

from __future__ import annotations

import json
import os
from typing import Any

from wukong_lint import __version__
from wukong_lint.config.project import Config, find_config, load_config

_TUPLES = ("select", "ignore", "rule_dirs", "allow_comments", "exclude")
_TEXTS = ("path", "fail_on", "profile", "baseline", "audit", "protocol_version")
_FORMAT = 3  # layout of a cache entry (2: keyed by content; 3: with hygiene)
MAX_CONFIG = 4 << 20  # bytes: a larger config file is an error (one line), not read whole


def hook_config(
    explicit: str | None, start: str | None, profile: str | None = None, *, project: bool = True
) -> tuple[Config, list[str]]:
    """(the configuration the hook applies, warnings for the hook's answer): the managed,
    user and project configs merged (config/layers.py), the project's unapproved loosening
    dropped. `profile`: the hook's `--profile`. Without `project`, the user's and managed
    configs alone (the project's cannot be read)."""
    from wukong_lint.config import layers

    project_path = (explicit or find_config(start)) if project else None
    managed_path = layers.managed_config_path()
    user_path = layers.user_config_path()
    managed = cached_config(managed_path)[0] if managed_path else None
    user = cached_config(user_path)[0] if user_path else None
    warnings: list[str] = []
    config = Config()
    if project_path:
        config, data = cached_config(project_path)
        # a --config in the user's or the managed config folder is the user's: as written
        if not (explicit and layers.trusted_location(explicit)):
            config, warning = _approved_part(config, data, start, profile, (managed, user))
            if warning:
                warnings.append(warning)
    return layers.merge(config, user, managed), warnings


def _approved_part(
    project: Config,
    data: bytes,
    start: str | None,
    profile: str | None,
    higher: tuple[Config | None, Config | None],
) -> tuple[Config, str | None]:
    """The project config with its loosening dropped unless approved, and the warning."""
    from wukong_lint.config import approvals
    from wukong_lint.config.loosening import describe, guarded, loosenings, without

    managed = higher[0]
    wukong_project = _wukong_project(start, project.path)
    wukong = (
        wukong_project
        or profile == "wukong"
        or any(layer is not None and layer.profile == "wukong" for layer in (project, *higher))
    )
    found = loosenings(project, guarded(wukong), wukong_project=wukong_project)
    if found and _severity_only(found):
        # a rule's severity set below critical: compare with the rule's own (a raise is
        # tightening), which needs the rule set (rare: not on the usual path)
        found = loosenings(
            project, guarded(wukong), rules=_rule_info(), wukong_project=wukong_project
        )
    if not found:
        return project, None
    allowed = managed is None or managed.approvals is not False
    if allowed and approvals.is_approved(project.path or "", data, project):
        return project, None
    name = _shown(project.path or "", start)
    how = (
        "the managed config forbids approvals"
        if not allowed
        else "run `wukong-lint config approve` to allow it"
    )
    return without(project, found), f"ignored: {name} loosens {describe(found)}; {how}"


def _severity_only(found: list[Any]) -> bool:
    return any(item.key == "rule-params" and item.detail.endswith(".severity") for item in found)


def _rule_info() -> dict[str, tuple[str, int]]:
    from wukong_lint.engine.loader import load_rules

    return {rule.id: (rule.category, rule.severity) for rule in load_rules((), details=False).rules}


def _shown(path: str, start: str | None) -> str:
    """A config's path as the warning shows it: relative to the event's folder when inside."""
    if start:
        rel = os.path.relpath(path, start)
        if not rel.startswith(".."):
            return rel
    return path


def _wukong_project(start: str | None, config_path: str | None) -> bool:
    """Whether the project is `wukong` by its `.wukong/` folder (as the transcript context
    finds it): from the event's folder up to the top of its git work tree."""
    folder = os.path.abspath(start or (os.path.dirname(config_path) if config_path else "."))
    for _ in range(64):
        if os.path.isdir(os.path.join(folder, ".wukong")):
            return True
        if os.path.exists(os.path.join(folder, ".git")):
            return False
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
    return False


def _read_bytes(path: str) -> bytes:
    from wukong_lint.util.errors import UsageError

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CONFIG + 1)
    except OSError as err:
        raise UsageError(f"{path}: cannot read: {err.strerror or err}") from None
    if len(data) > MAX_CONFIG:
        raise UsageError(f"{path}: larger than {MAX_CONFIG >> 20} MB; not a config file")
    return data


def cached_config(path: str) -> tuple[Config, bytes]:
    """(the validated config of `path`, the bytes it was validated from), from the cache
    when an entry for these very bytes is there."""
    from zlib import crc32

    from wukong_lint.engine.patterns import cache_dir, checksum

    data = _read_bytes(path)
    full = os.path.abspath(path)
    key = [_FORMAT, full, len(data), f"{crc32(data):08x}", os.path.expanduser("~"), __version__]
    folder = cache_dir()
    # (not hashlib: OpenSSL takes ~2 ms to load; the name only spreads files, the key decides)
    cached = os.path.join(folder, "config-" + checksum(full) + ".json") if folder else None
    if cached:
        config = _read(cached, key)
        if config is not None:
            return config, data
    config = load_config(path, data)
    if cached:
        _write(cached, key, config)
    return config, data


def _read(cached: str, key: list[Any]) -> Config | None:
    try:
        with open(cached, encoding="utf-8") as handle:
            data = json.load(handle)
        if data.get("key") != key:
            return None
        fields = data["config"]
        approvals = fields["approvals"]
        return Config(
            **{name: fields[name] for name in _TEXTS},
            **{name: tuple(fields[name]) for name in _TUPLES},
            per_path_ignores=tuple((glob, tuple(names)) for glob, names in fields["ppi"]),
            builtin_rules=bool(fields["builtin_rules"]),
            rule_params=fields["rule_params"],
            live=fields["live"],
            hygiene=fields["hygiene"],
            approvals=approvals if approvals is None else bool(approvals),
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
        hygiene=config.hygiene,
        approvals=config.approvals,
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
