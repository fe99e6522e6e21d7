"""Wrappers: the command a wrapper command runs, from its words alone.

`unwrap(argv)` answers for one command what else it runs: `sudo -u x rm -rf /` runs
`rm -rf /`; `bash -c STRING`, `su -c STRING`, `env -S STRING`, `eval STRING`, `watch STRING`
and `ssh host STRING` run a script (returned as `(SCRIPT, text)`, parsed in turn by shell.py);
`python -c CODE`, `node -e CODE`, `perl -e CODE`... run interpreter code (`(CODE, language,
text)`, read by interpreters.py). `find -exec`, `xargs`, `parallel` get their targets from
elsewhere (find's start paths, a pipeline's producer): shell.py fills them in, see
`find_parts`, `xargs_parts` and `parallel_parts`.

Options are read the way each program reads them (the options that take a value are listed
per program), so that `env -P /usr/bin git reset --hard` runs `git`, not `/usr/bin`.
"""

from __future__ import annotations

import functools
import os
import re

SCRIPT = "\0script"
CODE = "\0code"

SHELLS = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish", "yash", "tcsh", "csh"}
)
APPLET_RUNNERS = frozenset({"busybox", "toybox"})

# interpreter -> (the options whose value is code, the options that take another value)
INTERPRETERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "python": (frozenset({"-c"}), frozenset({"-W", "-X", "-m", "--check-hash-based-pycs"})),
    "node": (
        frozenset({"-e", "--eval", "-p", "--print"}),
        frozenset({"-r", "--require", "--import", "--loader"}),
    ),
    "bun": (frozenset({"-e", "--eval", "-p", "--print"}), frozenset({"-r", "--preload", "--cwd"})),
    "deno": (frozenset(), frozenset()),
    "perl": (frozenset({"-e", "-E"}), frozenset({"-I", "-M", "-m", "-x"})),
    "ruby": (frozenset({"-e"}), frozenset({"-I", "-r", "-C", "-E"})),
    "php": (frozenset({"-r"}), frozenset({"-c", "-d", "-f", "-z"})),
}  # fmt: skip
_PYTHON_NAME = re.compile(r"(python|pypy)[23]?(\.\d+)?[mtw]?")


@functools.lru_cache(maxsize=1024)
def interpreter(name: str) -> str | None:
    """The language of an interpreter program name (`python3.12` -> python), or None."""
    if _PYTHON_NAME.fullmatch(name):
        return "python"
    if name in ("nodejs", "node"):
        return "node"
    return name if name in INTERPRETERS else None


# wrapper -> options that take a value (the wrapped command starts after its options)
VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "sudo": frozenset(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R",
                       "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type",
                       "--other-user", "--close-from", "--command-timeout", "--chroot"]),
    "doas": frozenset(["-u", "-C"]),
    "pkexec": frozenset(["--user"]),
    "runuser": frozenset(["-u", "-g", "-G", "--user", "--group", "--supp-group", "-w"]),
    "env": frozenset(["-u", "-C", "-P", "-a", "--unset", "--chdir", "--argv0"]),
    "nice": frozenset(["-n", "--adjustment"]),
    "ionice": frozenset(["-c", "-n", "--class", "--classdata"]),
    "timeout": frozenset(["-s", "-k", "--signal", "--kill-after"]),
    "stdbuf": frozenset(["-i", "-o", "-e", "--input", "--output", "--error"]),
    "nohup": frozenset(),
    "time": frozenset(["-f", "-o", "--format", "--output"]),
    "exec": frozenset(["-a"]),
    "command": frozenset(),
    "builtin": frozenset(),
    "setsid": frozenset(),
    "unbuffer": frozenset(),
    "chrt": frozenset(),
    "taskset": frozenset(),
    "flock": frozenset(["-w", "-E", "--timeout", "--conflict-exit-code"]),
    "caffeinate": frozenset(["-t", "-w"]),
    "strace": frozenset(["-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-P", "-S", "-X"]),
    "ltrace": frozenset(["-o", "-e", "-p", "-s", "-u", "-a", "-n"]),
    "sem": frozenset(["-j", "--jobs", "--id", "--timeout", "--semaphorename"]),
    "doppler": frozenset(),
    "proxychains": frozenset(["-f"]),
    "proxychains4": frozenset(["-f"]),
    "torsocks": frozenset(),
    "firejail": frozenset(),
    "catchsegv": frozenset(),
    "valgrind": frozenset(),
    "npx": frozenset(["-p", "--package", "-c", "--call"]),
    "pnpx": frozenset(["-p", "--package"]),
    "bunx": frozenset(["-p", "--package"]),
}  # fmt: skip
# `uv run CMD`, `bundle exec CMD`...: package-manager runners
RUNNERS: dict[str, frozenset[str]] = {
    "uv": frozenset(["run"]), "poetry": frozenset(["run"]), "pipenv": frozenset(["run"]),
    "pdm": frozenset(["run"]), "hatch": frozenset(["run"]), "rye": frozenset(["run"]),
    "bundle": frozenset(["exec"]), "pnpm": frozenset(["exec", "dlx"]),
    "yarn": frozenset(["exec", "dlx"]), "npm": frozenset(["exec"]), "mise": frozenset(["exec"]),
}  # fmt: skip
CONTAINER_EXEC_VALUES = frozenset(["-e", "--env", "-u", "--user", "-w", "--workdir",
                                   "--env-file", "--detach-keys"])  # fmt: skip
XARGS_VALUES = frozenset(["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file",
                          "--delimiter", "--max-args", "--max-procs", "--max-lines",
                          "--max-chars", "--replace", "--eof", "--process-slot-var"])  # fmt: skip
PARALLEL_VALUES = frozenset(["-j", "--jobs", "-N", "-n", "--max-args", "-S", "--sshlogin",
                             "--joblog", "--results", "--tmpdir", "-a", "--arg-file", "-d",
                             "--delimiter", "-I", "--timeout", "--retries", "--delay",
                             "--colsep", "-C", "--workdir", "--wd", "-E"])  # fmt: skip
SSH_VALUES = frozenset(["-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m",
    "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w", "-B"])  # fmt: skip
WATCH_VALUES = frozenset(["-n", "--interval", "-d", "-q", "--equexit"])
GIT_GLOBAL_VALUES = frozenset(
    [
        "-C",
        "-c",
        "--git-dir",
        "--work-tree",
        "--namespace",
        "--exec-path",
        "--super-prefix",
        "--config-env",
        "--list-cmds",
    ]
)
FIND_FILTERS = frozenset(["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
                          "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-atime", "-amin",
                          "-ctime", "-cmin", "-size", "-user", "-group", "-perm", "-empty",
                          "-links", "-inum", "-samefile", "-lname", "-ilname", "-uid", "-gid",
                          "-nouser", "-nogroup", "-newermt", "-used"])  # fmt: skip
FIND_RUNS = ("-exec", "-execdir", "-ok", "-okdir")


def after_options(args: tuple[str, ...], takes_value: frozenset[str]) -> tuple[str, ...]:
    """The words after a wrapper's options (`--` ends them; `--opt=value` is one word)."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return args[i + 1 :]
        if not arg.startswith("-") or arg == "-":
            return args[i:]
        if arg in takes_value:
            i += 2
            continue
        i += 1
    return ()


def runs_stdin(argv: tuple[str, ...]) -> bool:
    """A shell reading its script from stdin: no -c and no script file argument."""
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--" or arg == "-s" or arg == "-":
            return True
        if arg in ("-o", "+o", "-O", "+O"):
            i += 2
            continue
        if arg.startswith(("-", "+")):
            if "c" in arg.lstrip("-+") and not arg.startswith("--"):
                return False
            i += 1
            continue
        return False
    return True


def interpreter_code(lang: str, args: tuple[str, ...]) -> tuple[str | None, bool]:
    """(code given on the command line, reads its program from stdin) of an interpreter."""
    code_options, value_options = INTERPRETERS[lang]
    if lang == "deno":
        if len(args) >= 2 and args[0] == "eval":
            return args[-1], False
        return None, False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-":
            return None, True
        if arg == "--":
            return None, i + 1 >= len(args)
        if not arg.startswith("-"):
            return None, False  # a script file
        if arg in code_options:
            return (args[i + 1] if i + 1 < len(args) else None), False
        for option in code_options:
            if option.startswith("--") and arg.startswith(option + "="):
                return arg[len(option) + 1 :], False
        if arg[:2] in value_options and len(arg) > 2:
            i += 1  # an attached value: perl -MFile::Path, python -W error
            continue
        if lang in ("perl", "ruby", "python") and not arg.startswith("--"):
            # bundled short options: perl -pe CODE, python -Bc CODE, ruby -we CODE
            letters = arg[1:]
            for option in code_options:
                letter = option[1]
                if letter in letters:
                    at = letters.index(letter)
                    if at + 1 < len(letters):  # attached: -e'CODE' (perl -le'print 1')
                        return letters[at + 1 :], False
                    return (args[i + 1] if i + 1 < len(args) else None), False
            if lang == "python" and "m" in letters:
                return None, False
        if arg in value_options:
            i += 2
            continue
        i += 1
    return None, True


def unwrap(argv: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The commands a wrapper command runs (empty for a plain command).

    A script string comes back as `(SCRIPT, text)` and interpreter code as `(CODE, language,
    text)`, to be read in turn. find, xargs and parallel are left to shell.py (their targets
    come from elsewhere).
    """
    if not argv:
        return []
    name = os.path.basename(argv[0].rstrip("/")) or argv[0]
    if name not in _UNWRAPPED and interpreter(name) is None:
        return []  # (most commands wrap nothing)
    args = argv[1:]
    if name in SHELLS:
        i = 0
        while i < len(args):
            arg = args[i]
            if arg in ("-o", "+o", "-O", "+O"):
                i += 2
                continue
            if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
                rest = after_options(args[i + 1 :], frozenset({"-o", "-O"}))
                # the words after the script are its $0, $1...: `sh -c 'rm -rf "$1"' _ ~`
                return [(SCRIPT, rest[0], *rest[1:])] if rest else []
            if not arg.startswith(("-", "+")):
                return []
            i += 1
        return []
    if name in APPLET_RUNNERS:
        return [args] if args and not args[0].startswith("-") else []
    if name in ("su", "runuser", "script"):
        for i, arg in enumerate(args):
            if arg in ("-c", "--command") and i + 1 < len(args):
                return [(SCRIPT, args[i + 1])]
            if arg.startswith("--command="):
                return [(SCRIPT, arg[len("--command=") :])]
        if name == "su":
            return []
    if name == "eval":
        return [(SCRIPT, " ".join(args))] if args else []
    if name == "trap" and len(args) >= 2 and not args[0].startswith("-"):
        return [(SCRIPT, args[0])]
    if name == "watch":
        if any(a in ("-x", "--exec") for a in args):
            rest = after_options(tuple(a for a in args if a not in ("-x", "--exec")), WATCH_VALUES)
            return [rest] if rest else []
        rest = after_options(args, WATCH_VALUES)
        return [(SCRIPT, " ".join(rest))] if rest else []
    if name in ("ssh", "autossh", "mosh"):
        rest = after_options(args, SSH_VALUES)
        remote = rest[2:] if rest[1:2] == ("--",) else rest[1:]
        return [(SCRIPT, " ".join(remote))] if remote else []
    if name in RUNNERS and args and args[0] in RUNNERS[name]:
        rest = after_options(args[1:], frozenset(["--with", "--python", "-p", "--env-file"]))
        return [rest] if rest else []
    if name in ("docker", "podman", "nerdctl") and args[:1] == ("exec",):
        rest = after_options(args[1:], CONTAINER_EXEC_VALUES)
        return [rest[1:]] if len(rest) > 1 else []
    if name in ("kubectl", "oc") and "exec" in args and "--" in args:
        rest = args[args.index("--") + 1 :]
        return [rest] if rest else []
    if name in WINDOWS_SHELLS:  # powershell -Command "...", cmd /c "...": a script
        for i, arg in enumerate(args):
            if arg.lower() in ("-command", "-c", "/c", "/k") and i + 1 < len(args):
                return [(SCRIPT, " ".join(args[i + 1 :]))]
        return []
    if name in RM_LIKE:  # `npx rimraf /`: a recursive rm of its paths
        paths = tuple(a for a in args if not a.startswith("-"))
        return [("rm", "-rf", *paths)] if paths else []
    if name in AWKS:  # its program is its first word after the options (`-f file`: none)
        if any(a == "-f" or a.startswith(("-f", "--file")) for a in args):
            return []
        rest = after_options(args, AWK_VALUES)
        return [(CODE, "awk", rest[0])] if rest else []
    if name == "lua" or name.startswith("lua5") or name == "luajit":
        rest = list(args)
        while rest and rest[0] != "-e" and rest[0].startswith("-"):
            rest.pop(0)
        return [(CODE, "lua", rest[1])] if len(rest) > 1 and rest[0] == "-e" else []
    lang = interpreter(name)
    if lang is not None:
        code, _ = interpreter_code(lang, args)
        return [(CODE, lang, code)] if code else []
    if name not in VALUE_OPTIONS:
        return []
    if name == "command" and any(a in ("-v", "-V") for a in args[:2]):
        return []  # a lookup, not a run
    if name == "env":
        for i, arg in enumerate(args):
            if arg in ("-S", "--split-string") and i + 1 < len(args):
                return [(SCRIPT, args[i + 1])]
            if arg.startswith("--split-string="):
                return [(SCRIPT, arg[len("--split-string=") :])]
            if arg.startswith("-S") and len(arg) > 2:
                return [(SCRIPT, arg[2:])]
            if not arg.startswith("-"):
                break
    if name == "ionice" and any(a in ("-p", "-P", "-u", "--pid") for a in args):
        return []
    if (
        name in ("sudo", "doas")
        and any(a in ("-l", "--list", "-v", "-k", "-K") for a in args)
        and (not after_options(args, VALUE_OPTIONS[name]))
    ):
        return []
    rest = after_options(args, VALUE_OPTIONS[name])
    if name == "env":
        while rest and "=" in rest[0] and not rest[0].startswith("="):
            rest = rest[1:]
    if name == "timeout" and rest:
        rest = rest[1:]  # the duration
    if name in ("chrt", "taskset", "flock") and rest:
        if name == "flock" and len(rest) >= 3 and rest[1] in ("-c", "--command"):
            return [(SCRIPT, rest[2])]
        rest = rest[1:]
    if name == "sem":
        rest = tuple(a for a in rest if a != ";")
    return [tuple(rest)] if rest else []


# programs that delete their paths recursively, like `rm -rf` (npm's rimraf, del-cli)
RM_LIKE = frozenset(["rimraf", "del-cli"])
AWKS = frozenset(["awk", "gawk", "mawk", "nawk", "busybox-awk"])
AWK_VALUES = frozenset(["-F", "-v", "--field-separator", "--assign", "-W", "-i", "--include",
                        "-l", "--load", "-E", "--exec"])  # fmt: skip
WINDOWS_SHELLS = frozenset(["powershell", "powershell.exe", "pwsh", "pwsh.exe", "cmd", "cmd.exe"])
_UNWRAPPED = (
    WINDOWS_SHELLS
    | RM_LIKE
    | AWKS
    | frozenset(["lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4"])
    | SHELLS
    | APPLET_RUNNERS
    | frozenset(VALUE_OPTIONS)
    | frozenset(RUNNERS)
    | frozenset(["su", "runuser", "script", "eval", "trap", "watch", "ssh", "autossh", "mosh",
                 "docker", "podman", "nerdctl", "kubectl", "oc"])
)  # fmt: skip


def git_normalised(argv: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """`git -C dir -c k=v --no-pager -- reset --hard` as `git reset --hard`, and the folder
    it runs in (`-C`, `--work-tree`) or None."""
    args = argv[1:]
    folder = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-"):
            break
        if arg in GIT_GLOBAL_VALUES:
            if arg in ("-C", "--work-tree") and i + 1 < len(args):
                folder = args[i + 1] if folder is None else os.path.join(folder, args[i + 1])
            i += 2
            continue
        if arg.startswith("--work-tree="):
            folder = arg.split("=", 1)[1]
        i += 1
    if i == 0:
        return argv, None
    return (argv[0], *args[i:]), folder


class FindParts:
    __slots__ = ("deletes", "filtered", "name", "runs", "starts")

    def __init__(self) -> None:
        self.starts: list[str] = []
        self.filtered = False
        self.runs: list[tuple[str, ...]] = []
        self.deletes = False
        self.name = ""  # the -name / -iname pattern, when there is one

    def targets(self, under: str) -> list[str]:
        """What it acts on: its start paths, or (filtered) some files under them."""
        if not self.filtered:
            return list(self.starts)
        return [(s.rstrip("/") or "") + under + self.name for s in self.starts]


def find_parts(args: tuple[str, ...]) -> FindParts:
    """Start paths, whether an expression narrows what is reached (-name, -mtime... : only
    some files), the commands of -exec/-execdir/-ok/-okdir (with `{}` still in them), and
    whether it has -delete."""
    parts = FindParts()
    i = 0
    while i < len(args) and args[i] in ("-H", "-L", "-P", "-O", "-D"):
        i += 2 if args[i] in ("-D",) else 1
    while i < len(args) and not args[i].startswith(("-", "(", "!", "\\(")):
        parts.starts.append(args[i])
        i += 1
    if not parts.starts:
        parts.starts.append(".")
    while i < len(args):
        arg = args[i]
        if arg in FIND_RUNS:
            j = i + 1
            while j < len(args) and args[j] not in (";", "+", "\\;"):
                j += 1
            if j > i + 1:
                parts.runs.append(tuple(args[i + 1 : j]))
            i = j + 1
            continue
        if arg in FIND_FILTERS:
            parts.filtered = True
            if arg in ("-name", "-iname") and i + 1 < len(args) and args[i + 1] in ("*", "*.*"):
                parts.filtered = False  # -name '*' takes every file
            elif arg in ("-name", "-iname") and i + 1 < len(args) and not parts.name:
                parts.name = args[i + 1].replace("/", "")
        elif arg == "-delete":
            parts.deletes = True
        i += 1
    return parts


def xargs_parts(args: tuple[str, ...]) -> tuple[tuple[str, ...], str | None, bool, str | None]:
    """(the command xargs runs, its -I replacement string or None, -0, its -a file)."""
    replace = None
    arg_file = None
    nul = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        if arg in ("-0", "--null"):
            nul = True
        elif arg in ("-a", "--arg-file") and i + 1 < len(args):
            arg_file = args[i + 1]
        elif arg in ("-I", "--replace") and i + 1 < len(args):
            replace = args[i + 1]
        elif arg.startswith("-I") and len(arg) > 2:
            replace = arg[2:]
        elif arg == "-i" or arg.startswith("--replace="):
            replace = arg.split("=", 1)[1] if "=" in arg else "{}"
        elif arg.startswith("-i") and len(arg) > 2:
            replace = arg[2:]
        if arg in XARGS_VALUES:
            i += 2
            continue
        i += 1
    rest = args[i:]
    return (rest or ("echo",)), replace, nul, arg_file


def parallel_parts(args: tuple[str, ...]) -> tuple[tuple[str, ...], list[str] | None, bool]:
    """(the command parallel runs, its `:::` arguments or None (stdin), --dry-run)."""
    dry = any(a in ("--dry-run", "--dryrun") for a in args)
    if ":::" in args or "::::" in args:
        cut = min(args.index(m) for m in (":::", "::::") if m in args)
        head, tail = args[:cut], [a for a in args[cut + 1 :] if a not in (":::", "::::", ":::+")]
    else:
        head, tail = args, None
    command = after_options(head, PARALLEL_VALUES)
    return command, tail, dry
