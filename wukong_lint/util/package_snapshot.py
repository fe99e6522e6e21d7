"""Snapshots kept inside the installed package: what every short run (a hook call, a staged
check) would otherwise rebuild from the package's own files, stored once beside the code.

A snapshot is trusted as the code beside it is (the hook protects the package folder from
writes by the agent it guards; a file in the user's cache folder would not be) and is keyed
by what it was built from, checked by the caller's `key` on every read: a snapshot of other
inputs, of another layout or damaged is ignored, never an error. A package folder that is
not writable (a system-wide install) keeps nothing: each run rebuilds, as without them.
`WUKONG_LINT_NO_SNAPSHOT=1` turns them all off (e.g. to compare).

May import: the standard library and util.fsutil.
"""

from __future__ import annotations

import marshal
import os
from typing import Any

OFF_ENV = "WUKONG_LINT_NO_SNAPSHOT"
_MAGIC = b"WKSNAP1\n"


def path(name: str) -> str:
    """The snapshot file `name` in the package folder (an absolute path is taken as it is:
    the tests' own folder)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name)


def enabled() -> bool:
    return os.environ.get(OFF_ENV, "") in ("", "0")


def load(name: str, key: Any) -> Any:
    """The value stored under `name` for `key` (compared whole), or None."""
    if not enabled():
        return None
    try:
        with open(path(name), "rb") as handle:
            blob = handle.read()
        if blob[: len(_MAGIC)] != _MAGIC:
            return None
        stored_key, value = marshal.loads(blob[len(_MAGIC) :])
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return value if stored_key == key else None


def store(name: str, key: Any, value: Any) -> None:
    """Keep `value` for `key` under `name` (atomically; never raises: a snapshot that
    cannot be written only costs speed)."""
    if not enabled():
        return
    try:
        from wukong_lint.util.fsutil import atomic_write_bytes

        atomic_write_bytes(path(name), _MAGIC + marshal.dumps((key, value)))
    except (OSError, ValueError):
        pass
