"""The user's approvals of project configs that loosen the guarded categories, as direnv's
`allow`: `wukong-lint config approve` records a file's path and the SHA-256 of its content
in `$XDG_CONFIG_HOME/wukong-lint/approved.json` (mode 0600, written atomically), and the live
hook applies a loosening project config only while its content is the approved one.

That folder is a protected path: the hook denies an agent's writes there (and the `config
approve` command run by an agent), so an approval is the user's. A record also holds the
SHA-256 of the validated configuration it approved (`config_digest`): the hook reads its
configs through a cache an agent could rewrite, and a rewritten cache entry that holds a
looser policy than the approved file's does not match it.

    {"version": 1, "approved": [{"path": "/abs/.wukong-lint.yaml", "sha256": "...",
      "config_digest": "...", "loosens": "...", "approved_at": "2026-01-01T00:00:00Z"}]}

The managed config (layers.py) may forbid approvals (`approvals: false`).
"""

from __future__ import annotations

import json
import os
from typing import Any

from wukong_lint.config.settings import Config

FILE_NAME = "approved.json"
VERSION = 1
MAX_SIZE = 4 << 20  # an approvals file larger than this is not read (none are approved)


def user_config_dir() -> str | None:
    """`$XDG_CONFIG_HOME/wukong-lint` (default `~/.config/wukong-lint`); None without a
    home folder."""
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    if not base.startswith("/"):
        home = os.path.expanduser("~")
        if home.startswith("~"):
            return None
        base = os.path.join(home, ".config")
    return os.path.join(base, "wukong-lint")


def approvals_path() -> str | None:
    folder = user_config_dir()
    return os.path.join(folder, FILE_NAME) if folder else None


def content_digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def config_digest(config: Config) -> str:
    """The SHA-256 of a validated configuration's canonical JSON (its path left out: the
    record is keyed by it already)."""
    fields = {name: getattr(config, name) for name in Config._fields if name != "path"}
    text = json.dumps(fields, sort_keys=True, ensure_ascii=True, default=repr)
    return content_digest(text.encode("ascii"))


def load(path: str | None = None) -> list[dict[str, Any]]:
    """The approval records (none when the file is missing, too large or not ours)."""
    path = path or approvals_path()
    if not path:
        return []
    try:
        if os.path.getsize(path) > MAX_SIZE:
            return []
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return []
    records = data.get("approved") if isinstance(data, dict) else None
    if not isinstance(records, list):
        return []
    return [
        r
        for r in records
        if isinstance(r, dict)
        and isinstance(r.get("path"), str)
        and isinstance(r.get("sha256"), str)
    ]


def find(records: list[dict[str, Any]], config_path: str) -> list[dict[str, Any]]:
    full = os.path.abspath(config_path)
    return [r for r in records if r["path"] == full]


def is_approved(config_path: str, data: bytes, config: Config) -> bool:
    """Whether the user approved this content of `config_path`, and the validated `config`
    is the one the approval was given for."""
    records = find(load(), config_path)
    if not records:  # (no hashing for a file nobody approved: the usual case)
        return False
    digest = content_digest(data)
    wanted = config_digest(config)
    return any(r["sha256"] == digest and r.get("config_digest") == wanted for r in records)


def _save(records: list[dict[str, Any]], path: str) -> None:
    from wukong_lint.util.fsutil import atomic_write_text

    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    text = json.dumps({"version": VERSION, "approved": records}, indent=1, sort_keys=True)
    atomic_write_text(path, text + "\n", mode=0o600)


def approve(config_path: str, data: bytes, config: Config, loosens: str) -> dict[str, Any]:
    """Record the approval of this content of `config_path` (replacing earlier ones of the
    same path). Raises OSError when the file cannot be written."""
    import time

    path = approvals_path()
    if not path:
        raise OSError("no home folder: nowhere to keep approvals")
    full = os.path.abspath(config_path)
    record = {
        "path": full,
        "sha256": content_digest(data),
        "config_digest": config_digest(config),
        "loosens": loosens,
        "approved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    records = [r for r in load(path) if r["path"] != full] + [record]
    _save(records, path)
    return record


def revoke(config_path: str | None) -> int:
    """Remove the approvals of `config_path` (all of them for None); how many were."""
    path = approvals_path()
    if not path:
        return 0
    records = load(path)
    if config_path is None:
        kept: list[dict[str, Any]] = []
    else:
        full = os.path.abspath(config_path)
        kept = [r for r in records if r["path"] != full]
    if len(kept) != len(records):
        _save(kept, path)
    return len(records) - len(kept)
