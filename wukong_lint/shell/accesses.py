"""The files a shell command line touches, and how: read, write, meta (a change of mode or
owner: `chmod`, `chown`), list (`ls`, `stat`: a name, never the content) or find (a search
by a name pattern: `find DIR -name GLOB`). What the `path` rule kind (shell/paths.py) judges
of a Bash call.

Redirections and writing programs write (`>`, `tee`, `cp`'s destination, `dd of=`, `sed -i`,
a sed script's `w FILE`), other path-like arguments of programs that touch files are read.
Beyond the words as written:

- a folder read whole (`tar`, `zip -r`, `cp -r`, `rsync`, `grep -r`, `rg`) reads every file
  under it: the access `DIR/**/*` (with grep's `--include=GLOB`, `DIR/**/GLOB`);
- `$(< FILE)` in a word reads FILE (bash reads it into the word);
- a name bound by `ln -s TARGET NAME` on the line stands for TARGET too
  (`ln -s /dev/sda d && dd of=d`);
- a relative path of a command after `cd /abs` is that folder's (`cd /dev && dd of=sda`);
- `a/../b` is normalised (`/dev/../dev/sda` is `/dev/sda`).

Globs stay globs (`cat ~/.ss*/id_*`): the path rules ask which of their targets a glob can
reach.
"""

from __future__ import annotations

import posixpath
import re

from wukong_lint.shell.path_reasoning import secret_name
from wukong_lint.shell.unwrap import VALUE_OPTIONS


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Programs whose arguments are not files.
_NOT_FILES = _names(
    """echo printf true false export alias unalias set unset declare local readonly type
    which hash help man test [ [[ sleep kill pkill pgrep ps date whoami id uname cd pushd
    popd"""
)
# Programs that write the files they are given (all arguments, or the last one).
_WRITERS_ALL = _names(
    "rm rmdir unlink touch truncate shred tee mkdir mkfifo mknod wipefs blkdiscard"
)
_WRITERS_LAST = frozenset(["cp", "mv", "install", "rsync", "scp", "ln", "ddrescue", "bmaptool"])
# programs that take `if=` and `of=` as dd does
_DD_LIKE = frozenset(["dd", "dcfldd", "dc3dd", "ddpt", "sdd"])
# git subcommands whose words after the subcommand are files (`git diff --no-index a b`
# reads both)
_GIT_FILES = frozenset(["add", "rm", "mv", "checkout", "restore", "diff", "hash-object"])
# Programs that change a file's mode or owner, not its content (`chmod 600 ~/.ssh/config`).
_META = frozenset(["chmod", "chown", "chgrp", "chattr", "setfacl"])
# Programs that show what a folder holds or a file's name, size and mode, never its content:
# `ls ~/.ssh` lists, it does not read a key (access "list").
_LISTERS = frozenset(["ls", "dir", "vdir", "tree", "stat", "du", "file", "exa", "eza", "lsd",
                     "find", "realpath", "readlink", "basename", "dirname",
                     # they use a key without printing it (`ssh -i ~/.ssh/id_ed25519 host`)
                     "ssh", "ssh-add", "ssh-copy-id", "autossh", "mosh", "ssh-keygen"])  # fmt: skip
# Wrappers whose words are another command (recorded by the walker as a command of its own).
_WRAPPERS = frozenset(VALUE_OPTIONS) | frozenset(["xargs", "watch", "doas"])
# Programs that read a folder given to them whole: always, or with one of these options.
_RECURSIVE_ALWAYS = frozenset(["tar", "bsdtar", "gtar", "rg", "ag", "ack", "7z", "7za", "rar",
                               "rsync", "borg", "restic", "duplicity"])  # fmt: skip
_RECURSIVE_WITH = {
    "grep": ("-r", "-R", "--recursive", "--dereference-recursive", "-d"),
    "egrep": ("-r", "-R", "--recursive"),
    "fgrep": ("-r", "-R", "--recursive"),
    "zip": ("-r", "--recurse-paths", "-R"),
    "cp": ("-r", "-R", "-a", "--recursive", "--archive"),
    "scp": ("-r",),
    "gzip": ("-r", "--recursive"),
}
_SUBSTITUTED_FILE = re.compile(r"\$\(\s*<\s*([^()\s]+)\s*\)")
# a sed script's `w FILE` (after an address or two) and `s/a/b/w FILE`: it writes FILE
_ADDRESS = r"(?:[\d$]+|/[^/\n]*/)"
_SED_WRITE = re.compile(rf"(?:^|[;\n{{}}])\s*{_ADDRESS}?(?:,{_ADDRESS})?!?\s*w\s+(\S+)")
_SED_SUBST_WRITE = re.compile(
    r"(?:^|[;\n{}])\s*s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiImMe\d]*w\s+(\S+)"
)
_NAME_TESTS = frozenset(["-name", "-iname"])
# Interpreter one-liners (`node -e CODE`) and the calls in their code that write or read a
# file named by a literal: what they touch is touched as by a shell command
# (a Python open of /dev/sda for writing, `readFileSync(os.homedir() + '/.npmrc')`; what
# the code runs is interpreters.py's).
_INTERPRETERS = frozenset(["python", "python2", "python3", "node", "nodejs", "deno", "bun",
                           "perl", "ruby", "php"])  # fmt: skip
_CODE_OPTIONS = frozenset(["-c", "-e", "-E", "-r", "--eval", "-p", "--print"])
_LIT = r"""(?:"((?:[^"\\\n]|\\.){1,4096})"|'((?:[^'\\\n]|\\.){1,4096})')"""
_LIT_PLAIN = r"""(?:"(?:[^"\\\n]|\\.){1,4096}"|'(?:[^'\\\n]|\\.){1,4096}')"""
_CODE_WRITE = re.compile(
    r"(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|truncateSync"
    r"|file_put_contents|Deno\.writeFile|Deno\.writeTextFile|Bun\.write|File\.write"
    r"|File\.binwrite|IO\.write)\s*\(\s*" + _LIT
    + r"|\b(?:open|fopen|openSync|File\.open|sysopen)\s*\(\s*" + _LIT
    + r"\s*,\s*(?:['\"][rbt]*[wa+]|[\w.]*O_(?:WR|RDWR)|fs\.constants)"
    + r"|\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['\"](?:>|\+<|>>)['\"]\s*,\s*" + _LIT
    + r"|\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['\"](?:>|>>|\+<)\s*([^'\"]{1,4096})['\"]"
)  # fmt: skip
_CODE_READ = re.compile(
    r"(?:\bopen|\bfopen|readFileSync|readFile|createReadStream|File\.read|File\.binread"
    r"|File\.open|IO\.read|file_get_contents|Deno\.readTextFile|Deno\.readFile|read_text"
    r"|read_bytes|expanduser|expand_path|\bPath)\s*\(\s*" + _LIT
)  # fmt: skip
_HOME_PARTS = re.compile(
    r"(?:(?:require\(\s*['\"](?:node:)?os['\"]\s*\)|\bos)\.homedir\(\s*\)|Path\.home\(\s*\)"
    r"|process\.env\.HOME|os\.environ\[\s*['\"]HOME['\"]\s*\]|Dir\.home"
    r"|ENV\[\s*['\"]HOME['\"]\s*\]|os\.getenv\(\s*['\"]HOME['\"]\s*\)"
    r"|os\.path\.expanduser\(\s*['\"]~['\"]\s*\))"
    r"((?:\s*\)?\s*(?:\+|/|,)\s*" + _LIT_PLAIN + r")+)"
)  # fmt: skip
_PART = re.compile(_LIT)
_USES = re.compile(r"open|read|load|send|post|upload|copy|stream|cat\b|exec|system")
_NOT_PARTS = frozenset(["utf8", "utf-8", "utf16le", "latin1", "ascii", "base64", "hex",
                        "binary", "r", "rb", "rt", "w", "wb", "a", "r+"])  # fmt: skip
_PLAIN = re.compile(r"[\w@+-][\w@+.-]{0,254}")


def path_like(arg: str) -> bool:
    if "://" in arg or not arg or arg.startswith("-") or "\n" in arg or len(arg) > 4096:
        return False
    return "/" in arg or arg.startswith(("~", ".", "$HOME", "${HOME}")) or "." in arg


def _recursive(name: str, options: list[str]) -> bool:
    if name in _RECURSIVE_ALWAYS:
        return True
    wanted = _RECURSIVE_WITH.get(name)
    if not wanted:
        return False
    for option in options:
        if option in wanted or option.startswith("--recursive"):
            return True
        if not option.startswith("--") and any(len(w) == 2 and w[1] in option[1:] for w in wanted):
            return True  # bundled: -rn, -ra
    return False


def _sed_writes(scripts: list[str]) -> list[str]:
    found = []
    for script in scripts:
        if "w" not in script:
            continue
        found += [m.group(1) for m in _SED_WRITE.finditer(script)]
        found += [m.group(2) for m in _SED_SUBST_WRITE.finditer(script)]
    return [f for f in found if path_like(f) or f.startswith("/dev/")]


def _find_globs(argv: tuple[str, ...]) -> list[str]:
    """`DIR/**/GLOB` for `find DIR ... -name GLOB` (the names it looks for under DIR)."""
    starts = []
    for word in argv[1:]:
        if word.startswith(("-", "(", "!")):
            break
        starts.append(word)
    globs = [argv[i + 1] for i in range(1, len(argv) - 1) if argv[i] in _NAME_TESTS]
    return [f"{start.rstrip('/')}/**/{glob}" for start in starts[:8] or ["."] for glob in globs[:8]]


def _code_files(argv: tuple[str, ...]) -> list[tuple[str, str]]:
    """(path, mode) of the files an interpreter one-liner's code writes or reads, named by
    a literal (or by literals joined to the home folder)."""
    found: list[tuple[str, str]] = []
    for index in range(1, len(argv) - 1):
        if argv[index] not in _CODE_OPTIONS:
            continue
        code = argv[index + 1][:200_000]
        for regex, mode in ((_CODE_WRITE, "write"), (_CODE_READ, "read")):
            for match in regex.finditer(code):
                path = next((g for g in match.groups() if g), None)
                if path and (path.startswith(("/", "~")) or path_like(path)):
                    found.append((path, mode))
        if _USES.search(code) is None:
            continue  # (a path only printed or compared is not a file read)
        for match in _HOME_PARTS.finditer(code):
            parts = []
            for part in _PART.finditer(match.group(1)):
                text = next(g for g in part.groups() if g is not None)
                if text.lower() in _NOT_PARTS:
                    break  # `readFileSync(home + '/.npmrc', 'utf8')`: an encoding follows
                parts.append(text.strip("/"))
            rest = "/".join(p for p in parts if p)
            if rest:
                found.append(("~/" + rest, "read"))
        if len(found) >= 32:
            break
    return found[:32]


def _in_folder(path: str, cwd: str) -> str:
    """A relative path of a command run after `cd /abs` (or `cd ~/x`), as that folder's."""
    if cwd in (".", "?", "") or path.startswith(("/", "~", "$")):
        return path
    if not cwd.startswith(("/", "~")):
        return path
    return posixpath.join(cwd, path)


def tidy(path: str) -> str:
    """`/dev/../dev/sda` as `/dev/sda`, `a/./b` as `a/b`: an absolute or home path with dots
    normalised (a relative one keeps its leading `./`, which the name globs ignore)."""
    if ("/." not in path) or not path.startswith(("/", "~")):
        return path
    head = "~" if path.startswith("~/") else ""
    body = path[1:] if head else path
    tidied = posixpath.normpath(body)
    if head:
        tidied = "~" + (tidied if tidied.startswith("/") else "/" + tidied)
        if tidied.startswith("~/.."):
            return path  # (above the home folder: keep the words as written)
    return tidied


def shell_accesses(command: str) -> list[tuple[str, str]]:
    from wukong_lint.shell.parse import WRITE_REDIRECTS, parse, split_options

    try:
        script = parse(command)
    except Exception:
        return []
    found: list[tuple[str, str]] = []
    links: dict[str, str] = {}  # `ln -s TARGET NAME` on the line: NAME -> TARGET
    for cmd in script.commands:
        cwd = cmd.cwd
        for op, target in cmd.redirects:
            found.append((_in_folder(target, cwd), "write" if op in WRITE_REDIRECTS else "read"))
        for word in cmd.argv[1:]:
            if "$(" in word and "<" in word:  # `"$(< ~/.aws/credentials)"`: bash reads it
                found += [(m.group(1), "read") for m in _SUBSTITUTED_FILE.finditer(word)]
        name = cmd.name
        if name in _NOT_FILES or name in _WRAPPERS:
            continue  # (a wrapper's command is recorded on its own: `env ls ~/.ssh` lists)
        options, positional = split_options(cmd.argv)
        if name == "git":
            if not positional or positional[0] not in _GIT_FILES:
                continue
            if positional[0] == "rm" and "--cached" in options:
                continue  # untracks, the file stays as it is (the fix for a committed .env)
            positional = positional[1:]
        if name == "sed":
            scripts = [cmd.argv[i + 1] for i in range(len(cmd.argv) - 1)
                       if cmd.argv[i] in ("-e", "--expression")]  # fmt: skip
            has_e = bool(scripts) or any(o.startswith("--expression=") for o in options)
            if not has_e and positional:
                scripts.append(positional[0])
            found += [(_in_folder(p, cwd), "write") for p in _sed_writes(scripts)]
            files = positional if has_e else positional[1:]
            in_place = any(o.startswith("-i") or o == "--in-place" for o in options)
            found += [(_in_folder(a, cwd), "write" if in_place else "read")
                      for a in files if path_like(a)]  # fmt: skip
            continue
        if name in _DD_LIKE:
            for arg in positional:
                if arg.startswith("of="):
                    found.append((_in_folder(arg[3:], cwd), "write"))
                elif arg.startswith("if="):
                    found.append((_in_folder(arg[3:], cwd), "read"))
            continue
        code: set[str] = set()
        if name in _INTERPRETERS or name.startswith(("python3.", "python2.")):
            found += [(_in_folder(p, cwd), mode) for p, mode in _code_files(cmd.argv)]
            code = {cmd.argv[i + 1] for i in range(len(cmd.argv) - 1)
                    if cmd.argv[i] in _CODE_OPTIONS}  # fmt: skip
        if name == "ln" and len(positional) >= 2:
            links[tidy(_in_folder(positional[-1], cwd))] = positional[0]
        if name == "find":
            found += [(_in_folder(g, cwd), "find") for g in _find_globs(cmd.argv)]
        recursive = _recursive(name, options)
        moved = cwd not in (".", "?")
        for index, arg in enumerate(positional):
            if arg in code:
                continue  # (a one-liner's code is no file)
            if not (
                path_like(arg)
                or (recursive and arg in ("~", "/", "$HOME"))
                or (_PLAIN.fullmatch(arg) is not None and (moved or secret_name(arg)))
            ):
                continue  # (a plain word is a file after a `cd`, or when named for secrets)
            writes = name in _WRITERS_ALL or (
                name in _WRITERS_LAST and index == len(positional) - 1 and index > 0
            )
            if name in _META:
                mode = "meta"
            elif name == "ln" and not writes:
                mode = "list"  # the file a link points to is neither read nor changed
            else:
                mode = "write" if writes else "list" if name in _LISTERS else "read"
            path = _in_folder(arg, cwd)
            found.append((path, mode))
            if recursive and mode == "read":  # a folder given whole: every file under it
                includes = [o.split("=", 1)[1] for o in options if o.startswith("--include=")]
                for glob in includes[:8] or ["*"]:
                    found.append((path.rstrip("/") + "/**/" + glob, "read"))
    if links:
        found += [(links[tidy(path)], mode) for path, mode in found if tidy(path) in links]
    return found
