"""What the command model cannot tell about a command, recorded on it (`Command.unknown`)
so that rules can ask instead of allowing: unknown is not safe.

Each entry is "kind:what", `what` being the words that could not be resolved:

- `program`: the program word is an expansion the line does not give (`$x`, `"${a[@]}"`,
  `$(cat f)`, `/bin/r?`): anything could run;
- `code`: a shell or an interpreter runs code the line does not show: its stdin is a pipe or
  a file of unknown content (`cat x | sh`, `python3 < f`), or its code is one expansion
  (`python3 -c "$CODE"`);
- `download`: it runs a file fetched from the network earlier on the same line
  (`curl -o x.sh URL && sh x.sh`, `wget URL/setup.sh && ./setup.sh`): a pipe to a shell in
  two steps; `fetched`: it runs a file from a folder the line filled from the network
  (`git clone URL /tmp/d && bash /tmp/d/install.sh`, `curl URL | tar x -C /tmp && /tmp/t/i`).

`Downloads` follows, along the line, which files and folders network commands wrote.
"""

from __future__ import annotations

import posixpath
import re

from wukong_lint.shell.expand import unresolved

PROGRAM = "program"
CODE = "code"
DOWNLOAD = "download"
FETCHED = "fetched"

# programs that fetch from the network (what they print is the server's)
NETWORK = frozenset(["curl", "wget", "fetch", "http", "https", "xh", "curlie", "aria2c",
                     "lwp-request", "GET", "ftp", "tftp", "nc", "ncat", "netcat",
                     "socat"])  # fmt: skip
_PLAIN = re.compile(r"[\w./+:@%,=~-]+")
_HIDING = frozenset("*?[()`$")  # a glob, or a part of an expansion the line does not give
_ONE_EXPANSION = re.compile(
    r"\s*(?:\$[A-Za-z_]\w*|\$\{[^}]*\}|\$\(.*\)|`[^`]*`|\$[0-9@*])\s*", re.S
)
_URL = re.compile(r"[a-z][a-z0-9+.-]*://", re.I)


def marker(kind: str, what: str) -> str:
    return f"{kind}:{what[:80]}"


def program_marker(argv0: str) -> str | None:
    """`program:WORD` when the program word is not known: an expansion or a glob in its file
    name (`$x`, `$(cat f)`, `/???/?m`); a folder given by a variable names no other program
    (`"$VIRTUAL_ENV/bin/python"` runs python, `"$(go env GOPATH)/bin/lint"` runs lint). None
    for a known program."""
    if _PLAIN.fullmatch(argv0) or argv0 in ("[", "[["):
        return None  # (most program words: letters, digits, `/ . _ - + :`)
    name = posixpath.basename(argv0.rstrip("/")) or argv0
    if (
        not argv0
        or unresolved(name)
        or argv0.startswith("<(")
        or any(c in _HIDING for c in name)  # (`$(cat /tmp/x)`: its last part is `x)`)
    ):
        return marker(PROGRAM, argv0 or '""')
    return None


def whole_expansion(text: str) -> bool:
    """Is a script or code text one expansion the line does not give (`"$CODE"`)?"""
    return _ONE_EXPANSION.fullmatch(text) is not None


def _after_value_options(args: tuple[str, ...], values: frozenset[str]) -> list[str]:
    positional: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in values:
            i += 2
            continue
        if not arg.startswith("-") or arg == "-":
            positional.append(arg)
        i += 1
    return positional


_CURL_VALUES = frozenset(["-o", "--output", "-d", "--data", "-H", "--header", "-u", "--user",
                          "-X", "--request", "-A", "--user-agent", "-e", "--referer", "-F",
                          "--form", "-x", "--proxy", "-T", "--upload-file", "--output-dir",
                          "-b", "--cookie", "-c", "--cookie-jar", "-m", "--max-time",
                          "--connect-timeout", "-w", "--write-out", "-K", "--config",
                          "--retry", "-r", "--range", "-z", "--time-cond"])  # fmt: skip
_WGET_VALUES = frozenset(["-O", "--output-document", "-P", "--directory-prefix", "-o",
                          "--output-file", "-a", "-t", "--tries", "-T", "--timeout", "-U",
                          "--user-agent", "--header", "-e", "--execute", "-i",
                          "--input-file"])  # fmt: skip


def _remote_name(url: str) -> str | None:
    path = url.split("?", 1)[0].split("#", 1)[0]
    if not _URL.match(path):
        return None
    rest = path.split("://", 1)[1]
    name = rest.rstrip("/").rsplit("/", 1)[-1] if "/" in rest else ""
    return name or "index.html"


def _option(args: tuple[str, ...], names: tuple[str, ...]) -> str | None:
    """The value of the last of these options (`-o f`, `-of`, `-fsSLo f`, `--output=f`)."""
    found = None
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                found = args[i + 1]
            elif name.startswith("--") and arg.startswith(name + "="):
                found = arg[len(name) + 1 :]
            elif len(name) == 2 and arg[:1] == "-" and arg[1:2] != "-" and name[1] in arg[1:]:
                # a bundle of short options, the last one taking the value: `-fsSLo f`
                at = arg.index(name[1], 1)
                value = arg[at + 1 :]
                if value:
                    found = value
                elif i + 1 < len(args):
                    found = args[i + 1]
    return found


def fetched(
    name: str,
    argv: tuple[str, ...],
    redirects: tuple[tuple[str, str], ...],
    stdin_from: tuple[str, ...],
) -> list[tuple[str, bool]]:
    """The files (False) and folders (True) a command fills from the network: curl's `-o`,
    `-O`, wget's download, a `>` of a network command, `tee` fed by one, a `git clone`, an
    archive fed by one unpacked into a folder."""
    args = argv[1:]
    found: list[tuple[str, bool]] = []
    fed = any(p in NETWORK for p in stdin_from)
    if name in NETWORK:
        found += [(target, False) for op, target in redirects if op in (">", ">>", ">|", "&>")]
    if name == "curl":
        output = _option(args, ("-o", "--output"))
        folder = _option(args, ("--output-dir",)) or ""
        if output is not None and output != "-":
            found.append((posixpath.join(folder, output), False))
        if any(a in ("-O", "--remote-name", "--remote-name-all") or
               (a[:1] == "-" and a[1:2] != "-" and "O" in a[1:]) for a in args):  # fmt: skip
            for url in _after_value_options(args, _CURL_VALUES):
                remote = _remote_name(url)
                if remote:
                    found.append((posixpath.join(folder, remote), False))
    elif name == "wget":
        output = _option(args, ("-O", "--output-document"))
        if output is not None:
            if output != "-":
                found.append((output, False))
        else:
            folder = _option(args, ("-P", "--directory-prefix")) or ""
            for url in _after_value_options(args, _WGET_VALUES):
                remote = _remote_name(url)
                if remote:
                    found.append((posixpath.join(folder, remote), False))
    elif name in ("tee", "sponge") and fed:
        found += [(a, False) for a in args if not a.startswith("-")]
    elif name == "git" and args[:1] == ("clone",):
        rest = _after_value_options(args[1:], frozenset(["-b", "--branch", "-o", "--origin",
                                                         "--depth", "-c", "--config",
                                                         "--reference", "-j", "--jobs",
                                                         "--filter", "--template"]))  # fmt: skip
        if len(rest) >= 2:
            found.append((rest[1], True))
        elif rest:
            base = rest[0].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
            found.append((base[:-4] if base.endswith(".git") else base, True))
    elif name in ("tar", "bsdtar", "gtar", "unzip", "cpio", "7z", "busybox") and fed:
        folder = _option(args, ("-C", "--directory", "-d")) or "."
        found.append((folder, True))
    return found


class Downloads:
    """The files and folders the line filled from the network so far, as normalised paths
    (relative ones from the project root, through the folder a `cd` moved to)."""

    __slots__ = ("files", "folders")

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.folders: set[str] = set()

    def add(self, path: str, folder: bool, cwd: str) -> None:
        where = _normal(path, cwd)
        if where is not None:
            (self.folders if folder else self.files).add(where)

    def runs(self, path: str, cwd: str) -> str | None:
        """`download` or `fetched` when running `path` runs what the network sent."""
        if not (self.files or self.folders):
            return None
        where = _normal(path, cwd)
        if where is None:
            return None
        if where in self.files:
            return DOWNLOAD
        for folder in self.folders:
            if folder == "." or where == folder or where.startswith(folder.rstrip("/") + "/"):
                return FETCHED
        return None


def _normal(path: str, cwd: str) -> str | None:
    if not path or unresolved(path) or cwd == "?":
        return None
    if not path.startswith(("/", "~")) and cwd not in ("", "."):
        path = posixpath.join(cwd, path)
    return posixpath.normpath(path)


# the script file a shell or an interpreter runs: its first word that is not an option
_SHELL_VALUES = frozenset(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"])


def script_argument(name: str, argv: tuple[str, ...], interpreter: bool) -> str | None:
    """The file a shell (`bash x.sh`), `source`/`.` or an interpreter (`python3 x.py`) runs,
    or None (`bash -c`, `python3 -m mod`, `python3 -c CODE`)."""
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if arg in _SHELL_VALUES:
            i += 2
            continue
        if arg.startswith(("-", "+")) and arg != "-":
            letters = arg.lstrip("-+")
            if "c" in letters and not arg.startswith("--") and name not in ("source", "."):
                return None
            if interpreter and not arg.startswith("--") and any(c in letters for c in "emr"):
                return None  # python -m, node -e, perl -e, ruby -e, php -r
            if interpreter and arg in ("-W", "-X", "-I", "-M", "--require", "-r"):
                i += 2
                continue
            i += 1
            continue
        return arg if arg != "-" else None
    return None
