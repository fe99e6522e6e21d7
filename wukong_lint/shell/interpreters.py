"""What interpreter one-liners run: `python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`,
`deno eval`, `bun -e`, or a program fed to an interpreter's stdin (a heredoc, a here-string,
`echo CODE | python3`).

`commands(language, code)` returns what the shell model judges:

- shell strings passed to `os.system`, `os.popen`, `subprocess.*`, `child_process.exec*`,
  `system()`, `exec()`, `shell_exec()`, `passthru()`, backticks, `%x()`, `qx{}`, Bun's `$```
  as `(SCRIPT, text)`; argument lists (`subprocess.run(["rm", "-rf", "/"])`,
  `spawn("rm", ["-rf", "/"])`) as the argv they are;
- file-destroying calls with a literal target as the `rm` they amount to: `shutil.rmtree`,
  `os.remove/unlink/rmdir/removedirs`, `Path(...).unlink()/.rmdir()`, `fs.rmSync/rmdirSync/
  unlinkSync/rm` (`-r` with `recursive: true`), `FileUtils.rm_rf/rm_r/rm`, `File.delete`,
  perl `unlink`/`rmtree`/`remove_tree`, php `unlink`/`rmdir`, `Deno.remove`;
- opening a literal path for writing (mode "w") as `truncate -s 0 path`;
- paths built from a literal folder and a value, loops over a literal glob, and uploads of
  the environment or of files the code reads (interpreter_values.py).

A literal is a string in quotes (or a name bound to one earlier in the code:
`p = "/"; shutil.rmtree(p)`), optionally wrapped in `Path(...)`, `expanduser(...)`,
`File.expand_path(...)`. Anything else is not judged: the check never guesses a value.
The code is read as text with a small tokenizer rather than each language's parser: one
reader for seven languages, and code that does not parse (a one-liner cut short) still
shows its calls.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from wukong_lint.shell.interpreter_forms import (
    EXEC_FAMILY,
    HOME_EXPR,
    HOME_HOLE,
    RECURSIVE,
    aliases,
    bound_paths,
    deleted,
    fetched_code,
    file_runs,
    joined_name,
    method_deletes,
    normalize,
    perl_eval,
    runs_a_file,
    written_files,
)
from wukong_lint.shell.interpreter_values import glob_names, joined_paths, sends
from wukong_lint.shell.runner_langs import READERS
from wukong_lint.shell.runner_registry import CODE, SCRIPT, UNSEEN, split_words

# (a double-quoted string may hold a Ruby interpolation with quotes in it: "#{ENV["HOME"]}")
_STRING = (
    r"""(?:[rRbBuUfF]{0,2}(?:"(?:[^"\\#]|\\.|#\{[^{}\n]*\}|#)*"|'(?:[^'\\]|\\.)*')|"""
    r"""`(?:[^`\\$]|\\.|\$(?!\{))*`)"""
)
_STRING_RE = re.compile(_STRING, re.S)
_CALL = re.compile(
    r"(?P<name>(?:[A-Za-z_$][\w$]*\s*(?:\.|::|->)\s*)*[A-Za-z_$][\w$]*)"
    r"(?:\s*\(\s*|[ \t]+(?=[\"'\[]|qw|glob\b|\$))"
)
_ASSIGN = re.compile(
    r"(?:^|[\s;({,])(?:my\s+|const\s+|let\s+|var\s+)?\$?([A-Za-z_]\w*)\s*=\s*(" + _STRING + ")",
    re.S,
)
_BACKTICKS = re.compile(
    r"(?:%x\(([^)]*)\)|%x\{([^}]*)\}|qx\{([^}]*)\}|qx\(([^)]*)\)|qx/([^/]*)/|`([^`]*)`)"
)
_REQUIRED = re.compile(r"require\(\s*['\"](?:node:)?([\w/-]+)['\"]\s*\)\s*\.$")
_HOME_VALUE = re.compile(HOME_EXPR)
# the temporary folder as code names it (as `$TMPDIR` for the shell: a temporary folder)
_TEMP_VALUE = re.compile(
    r"(?:tempfile\s*\.\s*)?(?:gettempdir|mkdtemp)\s*\([^()]*\)|(?:os\s*\.\s*)?tmpdir\s*\(\s*\)"
    r"|Dir\s*\.\s*(?:tmpdir|mktmpdir)\b(?:\s*\(\s*\))?|sys_get_temp_dir\s*\(\s*\)"
    r"|File::Spec->tmpdir(?:\s*\(\s*\))?|os\.TempDir\(\s*\)|env::temp_dir\(\s*\)"
)
_PATH_METHOD = re.compile(
    r"Path\s*\(\s*(" + _STRING + r")\s*\)\s*\.\s*(unlink|rmdir|write_text|write_bytes)\b", re.S
)
_WRAPPERS = re.compile(
    r"^(?:pathlib\.)?(?:Path|PurePath|PosixPath|os\.path\.expanduser|expanduser|"
    r"File\.expand_path|path\.resolve|resolve|os\.path\.abspath|abspath|Pathname\.new|"
    r"path\.expand|normalizePath|os\.path\.realpath|realpath|"
    r"glob\.i?glob|glob|Dir\.glob)\s*\(\s*"
)
# a deleting function handed to a map over a glob (`array_map("unlink", glob("/etc/*"))`,
# `list(map(os.remove, glob.glob('/etc/*')))`, `array_walk(glob(...), 'unlink')`): each file
_GLOB_CALL = r"(?:glob\s*\.\s*i?glob|glob|Dir\s*\.\s*glob)\s*\(\s*(?P<target>" + _STRING + ")"
_MAPPED_DELETE = re.compile(
    r"\b(?:array_map|map)\s*\(\s*(?:['\"](?:unlink|rmdir|remove)['\"]|(?P<fn>(?:os\s*\.\s*)?"
    r"(?:remove|unlink|rmdir)|(?:shutil\s*\.\s*)?rmtree))\s*,\s*(?:list\s*\(\s*)?"
    + _GLOB_CALL
    + r"|\barray_walk\s*\(\s*"
    + _GLOB_CALL.replace("target", "walked")
    + r"\s*\)\s*,\s*['\"](?:unlink|rmdir)['\"]",
    re.S,
)
# a change of folder (os.chdir, process.chdir, Dir.chdir, perl's and php's chdir): the
# relative paths of the code's calls are read from there (`os.chdir('/'); rmtree('usr')`)
_CHDIR = re.compile(r"\bchdir\s*\(?\s*(" + _STRING + r")", re.S)
_OPEN_WRITE = re.compile(
    r"\bopen\s*\(\s*(" + _STRING + r")\s*,\s*[rbuU]?['\"](w|wb|w\+|wt)['\"]", re.S
)


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


SHELL_CALLS = _names(
    "system popen getoutput getstatusoutput execSync shell_exec passthru proc_open capture2 "
    "capture2e capture3 popen2 popen3 spawn_shell exec_command sh"
)
# argv-or-string calls: a string runs through a shell (or is judged as if), a list is argv
ARGV_CALLS = _names(
    "run call check_call check_output Popen spawn spawnSync execFile execFileSync exec execa "
    "execaSync Command spawn_process"
)
ARGV_OWNERS = _names(
    "subprocess child_process cp childProcess Bun Deno Process Kernel IO Open3 os pty execa sp"
) | {""}
RECURSIVE_DELETES = _names(
    "rmtree remove_tree rm_rf rm_r remove_entry remove_entry_secure removedirs rmdir_p "
    "emptyDirSync emptyDir removeSync remove_dir_all deleteRecursively"
)
# names that delete a file only when called on a file API (not `list.remove`, `map.delete`);
# "" stands for a bare call (perl's and php's `unlink`)
FILE_DELETES: dict[str, frozenset[str]] = {
    "remove": _names("os fs fse FileUtils File Deno Files promises fsp"),
    "removeSync": _names("fs fse Deno"),
    "unlink": _names("os fs File FileUtils Files promises fsp Pathname") | {""},
    "unlinkSync": _names("fs fse"),
    "rmdir": _names("os fs Dir FileUtils promises fsp") | {""},
    "rmdirSync": _names("fs fse"),
    "rm": _names("fs fse FileUtils promises fsp shell"),
    "rmSync": _names("fs fse"),
    "rm_f": _names("FileUtils"),
    "delete": _names("File Files FileUtils"),
    "deleteIfExists": _names("Files"),
    "safe_unlink": _names("File FileUtils"),
}
_MAX_CODE = 200_000  # longer programs are read up to here
_MAX_FOUND = 200


def _literal(text: str) -> str | None:
    """The value of a string literal token (escapes of the quote and backslash undone)."""
    match = re.match(r"[rRbBuUfF]{0,2}", text)
    prefix = match.group(0) if match else ""
    body = text[len(prefix) :]
    if len(body) < 2 or body[0] not in "\"'`" or body[-1] != body[0]:
        return None
    inner = body[1:-1]
    if "HOME" in inner or "home" in inner:  # "rm -rf $ENV{HOME}", f"{Path.home()}/x"...
        inner = HOME_HOLE.sub("~", inner)
    if "f" in prefix.lower() and "{" in inner:
        return None  # an f-string with a value in it
    if body[0] == "`" and "${" in inner:
        return None
    if body[0] == '"' and "#{" in inner:
        return None  # Ruby's "#{value}"
    if "r" in prefix.lower():
        return inner
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), inner)


def _argument(rest: str, names: dict[str, str]) -> tuple[str | list[str] | None, str]:
    """The first argument at the start of `rest`: a string, a list of strings, or None; and
    the text after it."""
    rest = rest.lstrip()
    wrapped = _WRAPPERS.match(rest)
    if wrapped:
        value, after = _argument(rest[wrapped.end() :], names)
        if re.match(r"\s*\)\s*/", after):
            return None, after  # Path('/srv') / name: a path under it (interpreter_values.py)
        closing = re.match(r"\s*(?:,[^()]*)?\)", after)  # expanduser('~'): its `)` too
        if closing is not None and isinstance(value, str):
            after = after[closing.end() :]
        return (value if isinstance(value, str) else None), after
    if rest[:1] in ("[", "(") or rest.startswith("qw"):
        closing = {"[": "]", "(": ")"}.get(rest[:1], ")")
        if rest.startswith("qw"):
            end = re.match(r"qw\s*([(\[{/])", rest)
            if not end:
                return None, rest
            opener = end.group(1)
            closer = {"(": ")", "[": "]", "{": "}", "/": "/"}[opener]
            stop = rest.find(closer, end.end())
            if stop < 0:
                return None, rest
            return rest[end.end() : stop].split(), rest[stop + 1 :]
        stop = rest.find(closing)
        if stop < 0:
            return None, rest
        items = []
        for piece in split_items(rest[1:stop]):
            value = _value(piece, names)
            if value is None:
                items.append("\0unknown")
            else:
                items.append(value)
        return items, rest[stop + 1 :]
    value, after = _term(rest, names)
    if value is None:
        return None, after
    # "rm -rf " + "/", 'rm -rf ' + os.path.expanduser('~'), process.env.HOME + '/.ssh'
    while True:
        if re.match(r"\s*\.\s*(?:join|format|format_map|replace|concat|sub|gsub)\s*\(", after):
            return None, after  # '/'.join(parts): the literal is not the value
        more = re.match(r"\s*[+.]\s*(?![\w$]+\s*\()", after) or re.match(
            r"\s*[+.]\s*(?=" + HOME_EXPR + ")", after
        )
        if not more:
            break
        extra, rest_after = _term(after[more.end() :], names)
        if extra is None:
            return None, after  # joined with a value
        value += extra
        after = rest_after
    if re.match(r"\s*[+.%]\s*[\w(]", after) and not re.match(r"\s*\.\s*\w+\s*\(", after):
        return None, after  # joined with a value
    return value, after


def _term(rest: str, names: dict[str, str]) -> tuple[str | None, str]:
    """One value of a concatenation: a string literal, the home folder, a bound name."""
    rest = rest.lstrip()
    token = _STRING_RE.match(rest)
    if token:
        return _literal(token.group(0)), rest[token.end() :]
    home = _HOME_VALUE.match(rest)
    if home:  # os.environ["HOME"], Path.home(), Dir.home, os.homedir()...
        return "~", rest[home.end() :]
    temp = _TEMP_VALUE.match(rest)
    if temp:  # tempfile.gettempdir(), os.tmpdir(), Dir.tmpdir, sys_get_temp_dir()...
        return "/tmp", rest[temp.end() :]
    joined = joined_name(rest, names)
    if joined is not None:  # os.path.join(root, f) of a name bound by os.walk(...)
        return joined, _skip_call(rest)
    name = re.match(r"[A-Za-z_$][\w$]*", rest)
    if name and name.group(0).lstrip("$") in names:  # (perl's $f is bound as f)
        return names[name.group(0).lstrip("$")], rest[name.end() :]
    return None, rest


def _skip_call(rest: str) -> str:
    """`rest` after the call that starts it (its closing parenthesis)."""
    opened = rest.find("(")
    window = _call_window(rest[opened + 1 :])
    return rest[opened + 1 + len(window) + 1 :]


def split_items(text: str) -> list[str]:
    """Top-level comma-separated items of an argument list (quotes and brackets kept)."""
    items, depth, current, quote = [], 0, [], ""
    for char in text:
        if quote:
            current.append(char)
            if char == quote:
                quote = ""
            continue
        if char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    if "".join(current).strip():
        items.append("".join(current).strip())
    return items


def _value(piece: str, names: dict[str, str]) -> str | None:
    value, after = _argument(piece, names)
    if isinstance(value, str) and not after.strip():
        return value
    return names.get(piece.strip())


def _call_window(after: str) -> str:
    """The rest of a call's arguments (up to its closing parenthesis, roughly)."""
    depth = 1
    for i, char in enumerate(after[:400]):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return after[:i]
    return after[:400]


def commands(language: str, code: str, program: bool = False) -> list[tuple[str, ...]]:
    """What running `code` amounts to, as shell model items (see the module docstring).
    `program`: the code is a program file the hook read (`python x.py`), not a one-liner:
    a call whose argument is computed is not asked about there (programs are full of
    them); in a one-liner it is (`unseen-script`)."""
    if language in READERS:  # sed, ex/vim, ed, Emacs Lisp, gdb, Tcl, AppleScript
        return READERS[language](code[:_MAX_CODE])
    code = normalize(language, code[:_MAX_CODE])
    modules, functions = aliases(language, code)
    names: dict[str, str] = {}
    for match in _ASSIGN.finditer(code):
        value = _literal(match.group(2))
        if value is not None:
            names[match.group(1)] = value
    names.update(glob_names(code))  # for f in glob.glob('/etc/*'): os.remove(f)
    names.update(bound_paths(code))  # for p in Path.home().iterdir(): ...
    joined = joined_paths(code)  # os.path.join('/etc', f), '/etc/' + f, f'/etc/{f}'
    found: list[tuple[str, ...]] = []
    computed: list[str] = []  # what a call with a computed argument does (one-liners)
    # calls written inside a string (`print('os.remove("/")')`) are text, not calls
    strings = [m.span() for m in _STRING_RE.finditer(code)]
    starts = [start for start, _ in strings]
    for match in _CALL.finditer(code):
        if len(found) >= _MAX_FOUND:
            break
        at = bisect_right(starts, match.start()) - 1
        if at >= 0 and strings[at][0] < match.start() < strings[at][1]:
            continue
        full = re.sub(r"\s+", "", match.group("name"))
        parts = re.split(r"\.|::|->", full)
        name, owner = parts[-1], (parts[-2] if len(parts) > 1 else "")
        owner = owner.lstrip("$")
        if not owner and match.start() and code[match.start() - 1] == ".":
            # require('fs').rmSync(...), require("child_process").execSync(...)
            module = _REQUIRED.search(code, max(0, match.start() - 80), match.start())
            if module:
                owner = module.group(1).split("/")[0]
        if owner in modules:  # import os as o; const cp = require('child_process')
            owner = modules[owner]
        elif not owner and name in functions:  # from os import system; import {rm} ...
            owner, name = functions[name]
        rest = code[match.end() :]
        if name in EXEC_FAMILY and owner in ("os", "posix", ""):
            item = _exec_family(name, rest, names)
            if item is not None:
                found.append(item)
            elif not program:
                computed.append("computed-command")
            continue
        value, after = _argument(rest, names)
        if value is None:
            start = match.end() + len(rest) - len(rest.lstrip())
            value = joined.get(start)
            if value is None:
                if not program and not runs_a_file(language, rest):
                    sink = _sink(language, name, owner, rest)
                    if sink:
                        computed.append(sink)
                continue
            after = code[start:]
        item = _judge(language, name, owner, value, _call_window(after))
        if item is not None:
            found.append(item)
    found += method_deletes(code, names)  # p.unlink() for p in Path.home().rglob('*')
    for match in _PATH_METHOD.finditer(code):
        target = _literal(match.group(1))
        if target is not None:
            if match.group(2) in ("unlink", "rmdir"):
                found.append(("rm", "-f", target))
            else:
                found.append(_overwrite(target, program))
    for match in _OPEN_WRITE.finditer(code):
        target = _literal(match.group(1))
        if target is not None:
            found.append(_overwrite(target, program))
    for target in written_files(code):  # fs.writeFileSync, File.write, perl open('>')...
        found.append(("dd", "of=" + target) if _DEVICE.match(target) else ("tee", target))
    if language in ("perl", "ruby", "php", "node", "julia"):
        for match in _BACKTICKS.finditer(code):
            text = next((g for g in match.groups() if g is not None), "")
            if text and (language not in ("node", "julia") or match.group(6) is None):
                found.append((SCRIPT, text))
            elif text and language == "julia":
                found.append(tuple(split_words(text)))  # run(`cmd`): a command, no shell
            elif (
                text
                and language == "node"
                and "$`" in code[max(0, match.start() - 1) : match.start() + 1]
            ):
                found.append((SCRIPT, text))  # Bun's $`...` shell
    if language == "awk":
        found += _awk_pipes(code)
    found += fetched_code(language, code)  # exec(urlopen(URL).read())
    found += file_runs(language, code)  # exec(open('x.py').read()): `python3 x.py`
    if not program and perl_eval(language, code):
        computed.append("computed-code")
    found += [(UNSEEN, reason, language) for reason in dict.fromkeys(computed)]
    found += sends(code)  # the environment or a file it reads, uploaded
    for match in _MAPPED_DELETE.finditer(code):
        target = _literal(match.group("target") or match.group("walked"))
        if target is not None:
            recursive = "rmtree" in (match.group("fn") or "")
            found.append(("rm", "-rf" if recursive else "-f", target))
    moved = _CHDIR.search(code)
    folder = _literal(moved.group(1)) if moved is not None else None
    if folder and found:  # (the first literal one, for every call: calls are not ordered)
        found.insert(0, ("cd", folder))
    return found


_DEVICE = re.compile(r"/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper/|loop)")


def _overwrite(target: str, program: bool = False) -> tuple[str, ...]:
    """Opening `target` for writing: a raw disk write for a block device, else the file
    emptied (as `truncate -s 0` is judged); in a program file, a write (`tee`): writing its
    output files is a program's job."""
    if _DEVICE.match(target):
        return ("dd", "of=" + target)
    return ("tee", target) if program else ("truncate", "-s", "0", target)


def _exec_family(name: str, rest: str, names: dict[str, str]) -> tuple[str, ...] | None:
    """The argv of `os.execvp('rm', ['rm', '-rf', x])`, `os.spawnlp(mode, 'rm', 'rm', ...)`."""
    form, index = EXEC_FAMILY[name]
    pieces = split_items(_call_window(rest))
    if len(pieces) <= index:
        return None
    if form == "list":
        value, _ = _argument(pieces[index], names)
        if isinstance(value, list) and value and "\0unknown" not in value:
            return tuple(value)
        return None
    words = [_value(p, names) for p in pieces[index:]]
    if words and all(isinstance(w, str) for w in words):
        return tuple(w for w in words if w is not None)
    return None


def _sink(language: str, name: str, owner: str, rest: str) -> str | None:
    """What a call whose argument cannot be told would do: run a command, delete a path or
    run code (None: it is not such a call)."""
    if name in SHELL_CALLS or (name == "execute" and owner == "os"):
        return "computed-command"
    if name in ARGV_CALLS and owner in ARGV_OWNERS and owner:
        return "computed-command"
    if name in ("exec", "eval") and owner == "" and language in ("python", "node", "php"):
        return "computed-code"
    if name in ("Function", "runInThisContext", "runInNewContext", "instance_eval", "class_eval"):
        return "computed-code"
    if name in RECURSIVE_DELETES:
        return "computed-path"
    owners = FILE_DELETES.get(name)
    if owners is not None and owner and owner in owners:
        return "computed-path"
    return None


_AWK_STRING = r'"(?:[^"\\\n]|\\.)*"'
_AWK_PRINT = re.compile(r"\bprintf?\b([^|;}\n]*)\|&?\s*(" + _AWK_STRING + ")")
_AWK_GETLINE = re.compile("(" + _AWK_STRING + r")\s*\|&?\s*getline\b")
_SHELL_NAMES = frozenset(["sh", "bash", "zsh", "dash", "ksh", "ash", "/bin/sh", "/bin/bash"])


def _awk_pipes(code: str) -> list[tuple[str, ...]]:
    """awk's pipes to and from commands: `print X | "cmd"` runs cmd (and, when cmd is a
    shell, what it prints is the script), `"cmd" | getline` runs cmd."""
    found: list[tuple[str, ...]] = []
    for match in _AWK_PRINT.finditer(code):
        target = _literal(match.group(2)) or ""
        if target.strip() in _SHELL_NAMES:
            printed = "".join(_literal(t) or "" for t in re.findall(_AWK_STRING, match.group(1)))
            if printed:
                found.append((SCRIPT, printed))
        elif target.strip():
            found.append((SCRIPT, target))
    for match in _AWK_GETLINE.finditer(code):
        command = _literal(match.group(1))
        if command:
            found.append((SCRIPT, command))
    return found[:_MAX_FOUND]


def _judge(
    language: str, name: str, owner: str, value: str | list[str], window: str
) -> tuple[str, ...] | None:
    if (
        name in SHELL_CALLS
        or (name == "exec" and language in ("perl", "php", "ruby"))
        or (name == "execute" and owner == "os")  # lua's os.execute
    ):
        if isinstance(value, list):
            return tuple(value) if value else None
        more = re.match(r"\s*,\s*(.+)$", window, re.S)
        if more and language in ("perl", "ruby", "php"):
            # system("rm", "-rf", "/"): a program and its arguments, no shell
            args = [_value(p, {}) for p in split_items(more.group(1))]
            if args and all(a is not None for a in args):
                return (value, *args)  # type: ignore[arg-type]
        return (SCRIPT, value)
    if name in ("exec", "eval") and owner == "" and language == "python":
        # exec('import os; os.system(...)'): more code, read in turn
        return (CODE, language, value) if isinstance(value, str) else None
    if name in ARGV_CALLS and owner in ARGV_OWNERS:
        if name == "exec" and owner == "os":
            return None  # os.exec* take a path and an argv, rare in one-liners
        if isinstance(value, list):
            return tuple(value) if value else None
        extra = re.match(r"\s*,\s*\[([^\]]*)\]", window)
        if extra:  # spawn("rm", ["-rf", "/"]), execFile("rm", [...])
            args = [_value(p, {}) or "\0unknown" for p in split_items(extra.group(1))]
            return (value, *args)
        if (
            name in ("spawn", "spawnSync", "execFile", "execFileSync", "Command")
            and " " not in value
        ):
            return (value,)
        return (SCRIPT, value)
    if not isinstance(value, str):
        return None
    if name in RECURSIVE_DELETES:
        return deleted(value, True)
    owners = FILE_DELETES.get(name)
    if owners is not None and (
        owner in owners or (owner == "" and language in ("perl", "php", "r", "julia"))
    ):
        if value.startswith(RECURSIVE):
            return deleted(value, True)
        recursive = re.search(r"recursive\s*[:=]>?\s*(true|True|TRUE|T|1)\b", window) is not None
        if (
            name in ("rm", "rmdir")
            and owner == "FileUtils"
            and re.search(r"\bforce\b|\br\b", window)
        ):
            recursive = True
        return ("rm", "-rf" if recursive else "-f", value)
    return None
