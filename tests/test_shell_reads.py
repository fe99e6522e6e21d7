"""Files read through the shell and patches that create files (戒 Layer 3 counts)."""

from __future__ import annotations

import pytest

from wukong_lint.protocol.shell_reads import patch_creates, shell_read_paths


@pytest.mark.parametrize(
    ("command", "paths"),
    [
        ("cat a.py", ["a.py"]),
        ("cat a.py b.py", ["a.py", "b.py"]),
        ("sed -n '1,200p' src/app.py", ["src/app.py"]),
        ("sed -n -e '5,9p' app.py", ["app.py"]),
        ("head -n 50 README.md", ["README.md"]),
        ("head -50 README.md", ["README.md"]),
        ("tail -f logs/app.log", ["logs/app.log"]),
        ("nl -ba main.go", ["main.go"]),
        ("cd src && cat util.py", ["util.py"]),
        ("bat --style plain x.rs", ["x.rs"]),
    ],
)
def test_reading_commands(command: str, paths: list[str]) -> None:
    assert shell_read_paths(command) == paths


@pytest.mark.parametrize(
    "command",
    [
        "cat > notes.md",  # writes
        "cat a.py | python -",  # runs what it reads
        "sed -i 's/a/b/' a.py",  # edits
        "sed -i.bak 's/a/b/' a.py",
        "grep -rn foo src",  # a search, counted as one
        "python app.py",
        "cat 'unbalanced",
        "cat <<EOF\nhello\nEOF",
        "",
    ],
)
def test_other_commands_read_nothing(command: str) -> None:
    assert shell_read_paths(command) == []


def test_patch_creates() -> None:
    assert patch_creates("*** Begin Patch\n*** Add File: src/new.py\n+x = 1\n*** End Patch\n")
    assert not patch_creates(
        "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"
    )
    assert patch_creates("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi\n")
    assert not patch_creates("--- a/old.txt\n+++ b/old.txt\n@@ -1 +1 @@\n-a\n+b\n")


@pytest.mark.parametrize(
    "command",
    [
        "cat a.py\tb.py",
        "cat  a.py \r\n",
        "cat a\x0bb.py",  # a vertical tab is no shlex whitespace: one word
        "cat a\u00a0b.py",  # nor a no-break space
        "cat a#b.py # c",  # no comments in shlex.split
        "cat $HOME/a;b",
        "cat 'a b.py' c.py",  # quoted: shlex itself
        'cat "a b.py"',
        "cat a\\ b.py",
        "cat 'open",
    ],
)
def test_words_as_shlex_splits_them(command: str) -> None:
    """The unquoted fast path splits exactly as shlex.split(posix=True) does."""
    import shlex

    from wukong_lint.protocol.shell_reads import _words

    try:
        expected: list[str] | None = shlex.split(command, posix=True)
    except ValueError:
        expected = None
    try:
        got: list[str] | None = _words(command)
    except ValueError:
        got = None
    assert got == expected
