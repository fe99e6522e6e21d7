"""The baseline: findings a team has accepted, so that only new ones fail a run.

The file is JSON, one entry per finding: rule id, path (relative to the baseline file's
folder, so it works from any working folder), a hash of the matched text and the finding's
fingerprint. Neither holds a line number (moving code keeps a finding baselined) or
a secret value. Entries are sorted and the file has no timestamps, so it diffs and merges
cleanly. A second copy of a baselined secret in the same file has another fingerprint (it is
the next occurrence of that value), so it is new.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from wukong_lint.errors import UsageError
from wukong_lint.model import Finding

DEFAULT_PATH = ".wukong-lint-baseline.json"
VERSION = 1


class Entry(NamedTuple):
    rule_id: str
    path: str
    hash: str  # sha256 of the matched text (the secret for secret rules), never the text
    fingerprint: str

    def to_dict(self) -> dict[str, str]:
        return {
            "rule_id": self.rule_id,
            "path": self.path,
            "hash": self.hash,
            "fingerprint": self.fingerprint,
        }


def entries_for(findings: Iterable[Finding], base_dir: str, baseline_path: str) -> list[Entry]:
    """Entries of the findings that are not suppressed, with paths relative to the baseline
    file's folder (`base_dir`: the folder the findings' paths are relative to), sorted."""
    from wukong_lint.filtering import relative_to

    root = os.path.dirname(os.path.abspath(baseline_path))
    return sorted(
        {
            Entry(f.rule_id, relative_to(f.path, base_dir, root), f.match_hash, f.fingerprint)
            for f in findings
            if not f.suppressed
        }
    )


def dumps(entries: Iterable[Entry]) -> str:
    document = {
        "version": VERSION,
        "tool": "wukong-lint",
        "findings": [e.to_dict() for e in sorted(set(entries))],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def load(path: str) -> list[Entry]:
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
    if data.get("version") != VERSION:
        raise UsageError(f"{path}: unsupported baseline version {data.get('version')!r}")
    entries = []
    for number, item in enumerate(data["findings"], 1):
        try:
            entries.append(Entry(*(str(item[k]) for k in Entry._fields)))
        except (KeyError, TypeError):
            raise UsageError(
                f"{path}: entry {number}: expected keys {', '.join(Entry._fields)}"
            ) from None
    return entries


def save(path: str, entries: Iterable[Entry]) -> None:
    from wukong_lint.fsutil import atomic_write_text

    try:
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        atomic_write_text(path, dumps(entries), contained=True)
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


def keys(entries: Iterable[Entry]) -> Counter[tuple[str, str, str]]:
    """The multiset the suppression stage matches findings against (see filtering.apply)."""
    return Counter((e.rule_id, e.path, e.hash) for e in entries)
