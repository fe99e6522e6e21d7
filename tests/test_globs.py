"""Rule path globs: the shortcuts for the usual shapes (`*.pem`, `.env`, `id_rsa*`) agree
with fnmatch on the path and on its basename."""

from __future__ import annotations

import fnmatch

from hypothesis import given
from hypothesis import strategies as st

from wukong_lint.engine.rules import _glob

PATTERNS = ["*.pem", "settings.py", ".env", ".env*", "id_rsa*", "a/b*", "*/settings/*.py",
            "Dockerfile", "*", "config/*.yaml", "x*y", "docker/*", "*.tar.gz", "*/x",
            "[ab].py"]  # fmt: skip


def _reference(path: str, pattern: str) -> bool:
    if fnmatch.fnmatchcase(path, pattern):
        return True
    return "/" not in pattern and fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], pattern)


@given(
    st.lists(st.sampled_from(["a", "b", "x", "y", ".", "/", "pem", "env", "settings", "py"]),
             max_size=8).map("".join),
    st.sampled_from(PATTERNS),
)  # fmt: skip
def test_glob_shortcuts_agree_with_fnmatch(path: str, pattern: str):
    assert _glob(path, pattern) == _reference(path, pattern)


def test_glob_examples():
    assert _glob("deploy/keys/server.pem", "*.pem")
    assert _glob("app/.env", ".env") and not _glob("app/.envrc", ".env")
    assert _glob("home/.ssh/id_rsa.pub", "id_rsa*")
    assert not _glob("src/settings.py.bak", "settings.py")
