"""The baseline: findings a team has accepted, so that only new ones fail a run.

The file is JSON, one entry per finding: rule id, path (relative to the baseline file's
folder, so it works from any working folder), a hash of the matched text and the finding's
fingerprint. Neither holds a line number (moving code keeps a finding baselined) or
a secret value. Entries are sorted and the file has no timestamps, so it diffs and merges
cleanly. A second copy of a baselined secret in the same file has another fingerprint (it is
the next occurrence of that value), so it is new.

Version 2 stores a slow salted hash (scrypt, keyed_hash.py) of each matched text, with the
file's own random salt and the cost parameters under `hash`, so that a weak password cannot
be recovered from a committed baseline. Version 1 files (bare SHA-256) still load and match;
`baseline update` rewrites them as version 2 (their entries convert exactly: the scrypt is
taken of that same SHA-256). `update` keeps the file's salt, so an unchanged scan rewrites
the same bytes.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable
from typing import NamedTuple

from wukong_lint.model import Finding
from wukong_lint.util.errors import UsageError

DEFAULT_PATH = ".wukong-lint-baseline.json"
VERSION = 2
LEGACY_VERSION = 1  # bare SHA-256 hashes: read, never written


class Hashing(NamedTuple):
    """How a baseline's `hash` fields were made from the matched text's SHA-256."""

    salt: str  # hex
    n: int
    r: int
    p: int

    @classmethod
    def new(cls) -> Hashing:
        from wukong_lint.engine.keyed_hash import BASELINE_PARAMS, new_salt

        return cls(new_salt(), **BASELINE_PARAMS)

    def of(self, match_hash: str) -> str:
        from wukong_lint.engine.keyed_hash import scrypt_hex

        return scrypt_hex(match_hash, bytes.fromhex(self.salt), self.n, self.r, self.p)

    def to_dict(self) -> dict[str, object]:
        return {"algorithm": "scrypt", "salt": self.salt, "n": self.n, "r": self.r, "p": self.p}


class Entry(NamedTuple):
    rule_id: str
    path: str
    # scrypt of the sha256 of the matched text (the secret for secret rules) under the file's
    # salt (version 1 files: the bare sha256), never the text
    hash: str
    fingerprint: str

    def to_dict(self) -> dict[str, str]:
        return {
            "rule_id": self.rule_id,
            "path": self.path,
            "hash": self.hash,
            "fingerprint": self.fingerprint,
        }


class Baseline(NamedTuple):
    entries: list[Entry]
    hashing: Hashing | None  # None: a version 1 file (bare SHA-256)

    def upgraded(self, hashing: Hashing) -> list[Entry]:
        """The entries with their hashes under `hashing` (a version 1 file's, converted)."""
        if self.hashing == hashing:
            return self.entries
        if self.hashing is None:
            return [e._replace(hash=hashing.of(e.hash)) for e in self.entries]
        return []  # another salt: the old hashes cannot be converted


def entries_for(
    findings: Iterable[Finding], base_dir: str, baseline_path: str, hashing: Hashing
) -> list[Entry]:
    """Entries of the findings that are not suppressed, with paths relative to the baseline
    file's folder (`base_dir`: the folder the findings' paths are relative to), sorted."""
    from wukong_lint.suppression.filtering import relative_to

    root = os.path.dirname(os.path.abspath(baseline_path))
    return sorted(
        {
            Entry(
                f.rule_id,
                relative_to(f.path, base_dir, root),
                hashing.of(f.match_hash),
                f.fingerprint,
            )
            for f in findings
            if not f.suppressed
        }
    )


def dumps(entries: Iterable[Entry], hashing: Hashing) -> str:
    document = {
        "version": VERSION,
        "tool": "wukong-lint",
        "hash": hashing.to_dict(),
        "findings": [e.to_dict() for e in sorted(set(entries))],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _hashing(path: str, data: dict) -> Hashing:
    spec = data.get("hash")
    try:
        if not isinstance(spec, dict) or spec.get("algorithm") != "scrypt":
            raise ValueError
        hashing = Hashing(str(spec["salt"]), int(spec["n"]), int(spec["r"]), int(spec["p"]))
        bytes.fromhex(hashing.salt)
        # powers of two, and bounded: a hostile file must not make each hash take minutes
        if not (
            2 <= hashing.n <= 2**20
            and hashing.n & (hashing.n - 1) == 0
            and 1 <= hashing.r <= 32
            and 1 <= hashing.p <= 16
            and hashing.n * hashing.r * hashing.p <= 2**22
            and len(hashing.salt) >= 16
        ):
            raise ValueError
    except (KeyError, TypeError, ValueError):
        raise UsageError(
            f"{path}: not a wukong-lint baseline (bad 'hash': expected scrypt with salt, n, r, p)"
        ) from None
    return hashing


def load(path: str) -> Baseline:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except FileNotFoundError:
        raise UsageError(f"baseline file not found: {path}") from None
    except OSError as err:
        raise UsageError(f"{path}: cannot read: {err.strerror or err}") from None
    except (ValueError, UnicodeDecodeError) as err:
        raise UsageError(f"{path}: not a wukong-lint baseline (invalid JSON: {err})") from None
    if not isinstance(data, dict) or not isinstance(data.get("findings"), list):
        raise UsageError(f"{path}: not a wukong-lint baseline (no 'findings' list)")
    version = data.get("version")
    if version not in (VERSION, LEGACY_VERSION):
        raise UsageError(f"{path}: unsupported baseline version {version!r}")
    hashing = _hashing(path, data) if version == VERSION else None
    entries = []
    for number, item in enumerate(data["findings"], 1):
        try:
            entries.append(Entry(*(str(item[k]) for k in Entry._fields)))
        except (KeyError, TypeError):
            raise UsageError(
                f"{path}: entry {number}: expected keys {', '.join(Entry._fields)}"
            ) from None
    return Baseline(entries, hashing)


def save(path: str, entries: Iterable[Entry], hashing: Hashing) -> None:
    from wukong_lint.util.fsutil import atomic_write_text

    try:
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        atomic_write_text(path, dumps(entries, hashing), contained=True)
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


def keys(baseline: Baseline) -> Counter[tuple[str, str, str]]:
    """The multiset the suppression stage matches findings against (see filtering.apply)."""
    return Counter((e.rule_id, e.path, e.hash) for e in baseline.entries)


def finding_hasher(baseline: Baseline) -> Callable[[str], str]:
    """A finding's match hash -> the form the baseline's entries hold."""
    if baseline.hashing is None:
        return lambda match_hash: match_hash
    return baseline.hashing.of
