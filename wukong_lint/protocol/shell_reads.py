"""What a shell command or a patch says about files, for the 戒 Layer 3 counts.

Agents without a Read tool (Codex, many OpenAI-style agents) read files through the shell:
`cat a.py`, `sed -n '1,200p' b.py`, `head -50 c.py`, `nl -ba d.py`. Those are file reads of
the main agent like Read calls (seed 004: 读取 1-2 个文件 is allowed, more is exploration).
A patch says itself whether it creates a file (`*** Add File:`, a diff from /dev/null); the
paths a transcript happened to mention before are no evidence either way.
"""

from __future__ import annotations

import re
import shlex

# Programs that print the files they are given; the options that take a value (skipped).
_READERS: dict[str, frozenset[str]] = {
    "cat": frozenset(),
    "bat": frozenset({"-l", "--language", "-r", "--line-range", "--style"}),
    "batcat": frozenset({"-l", "--language", "-r", "--line-range", "--style"}),
    "head": frozenset({"-n", "-c", "--lines", "--bytes"}),
    "tail": frozenset({"-n", "-c", "--lines", "--bytes"}),
    "nl": frozenset({"-b", "-s", "-w", "-v", "-i", "-n"}),
    "less": frozenset(),
    "more": frozenset(),
    "sed": frozenset({"-e", "-f"}),
}
_STOP = frozenset({"|", "||", "&&", ";", "&", ">", ">>", "<", "2>", "2>&1", "&>", "|&"})
_MAX_COMMAND = 4096  # longer commands are scripts, not a read of a few files
# shlex's own whitespace (posix mode): the separators of words when nothing is quoted
_BLANKS = re.compile(r"[ \t\r\n]+")


def _words(command: str) -> list[str]:
    """`shlex.split(command, posix=True)`. Without a quote or a backslash (most reading
    commands: `cat a.py`, `sed -n 1,80p b.py`) shlex only splits at its whitespace, which is
    exactly `_BLANKS` (no comments: shlex.split turns them off; no punctuation characters):
    the same words without its per-character tokeniser."""
    if "'" not in command and '"' not in command and "\\" not in command:
        return [word for word in _BLANKS.split(command) if word]
    return shlex.split(command, posix=True)


def shell_read_paths(command: str) -> list[str]:
    """The files a simple reading command prints (`cd dir && cat a b` included); [] when the
    command does anything else (writes, pipes into a writer, runs a program)."""
    if len(command) > _MAX_COMMAND or "\n" in command.strip():
        return []
    first = command.lstrip()[:8].split(" ", 1)[0]
    if first not in _READERS and first != "cd":
        return []  # the common case, without tokenising
    try:
        words = _words(command)
    except ValueError:
        return []
    # `cd dir && cat file`: the read is the last simple command
    while len(words) > 3 and words[0] == "cd" and words[2] == "&&":
        words = words[3:]
    if not words or words[0] not in _READERS:
        return []
    if any(w in _STOP or w.startswith((">", "2>")) for w in words):
        return []
    program, args = words[0], words[1:]
    takes_value = _READERS[program]
    paths: list[str] = []
    script_seen = program != "sed"
    skip = False
    for word in args:
        if skip:
            skip = False
            continue
        if word.startswith("-") and word != "-":
            if program == "sed" and word.startswith(("-i", "--in-place")):
                return []  # sed -i edits the file
            if word in takes_value:
                skip = True
                if program == "sed":
                    script_seen = True
            continue
        if not script_seen:  # sed's script ('1,200p') comes before its files
            script_seen = True
            continue
        paths.append(word)
    return paths


def patch_creates(patch: str) -> bool:
    """Whether an apply_patch text or unified diff adds a file."""
    previous = ""
    for line in patch.splitlines():
        if line.startswith("*** Add File: "):
            return True
        if line.startswith("+++ ") and previous.startswith("--- /dev/null"):
            return True
        previous = line
    return False
