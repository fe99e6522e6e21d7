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

from wukong_lint.shell.interpreter_values import glob_names, joined_paths, sends
from wukong_lint.shell.unwrap import CODE, SCRIPT

_STRING = (
    r"""(?:[rRbBuUfF]{0,2}(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|`(?:[^`\\$]|\\.|\$(?!\{))*`)"""
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
_HOME_VALUE = re.compile(
    r"(?:os\.environ\[\s*['\"]HOME['\"]\s*\]|os\.environ\.get\(\s*['\"]HOME['\"]\s*\)|"
    r"os\.getenv\(\s*['\"]HOME['\"]\s*\)|(?:pathlib\.)?Path\.home\(\s*\)|Dir\.home|"
    r"ENV\[\s*['\"]HOME['\"]\s*\]|\$ENV\{\s*['\"]?HOME['\"]?\s*\}|(?:require\(\s*['\"]os['\"]\s*\)|os)\.homedir\(\s*\)|"
    r"process\.env\.HOME|\$_SERVER\[\s*['\"]HOME['\"]\s*\]|getenv\(\s*['\"]HOME['\"]\s*\))"
)
_PATH_METHOD = re.compile(
    r"Path\s*\(\s*(" + _STRING + r")\s*\)\s*\.\s*(unlink|rmdir|write_text|write_bytes)\b", re.S
)
_WRAPPERS = re.compile(
    r"^(?:pathlib\.)?(?:Path|PurePath|PosixPath|os\.path\.expanduser|expanduser|"
    r"File\.expand_path|path\.resolve|resolve|os\.path\.abspath|abspath|Pathname\.new|"
    r"glob\.i?glob|glob|Dir\.glob)\s*\(\s*"
)
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
    if "f" in prefix.lower() and "{" in inner:
        return None  # an f-string with a value in it
    if body[0] == "`" and "${" in inner:
        return None
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
        for piece in _split_items(rest[1:stop]):
            value = _value(piece, names)
            if value is None:
                items.append("\0unknown")
            else:
                items.append(value)
        return items, rest[stop + 1 :]
    token = _STRING_RE.match(rest)
    if token:
        value = _literal(token.group(0))
        after = rest[token.end() :]
        # "rm -rf " + "/"  (a literal joined with another literal)
        while value is not None:
            more = re.match(r"\s*[+.]\s*(" + _STRING + ")", after, re.S)
            if not more:
                break
            extra = _literal(more.group(1))
            if extra is None:
                return None, after
            value += extra
            after = after[more.end() :]
        if re.match(r"\s*[+.%]\s*[\w(]", after) and not re.match(r"\s*\.\s*\w+\s*\(", after):
            return None, after  # joined with a value
        if re.match(r"\s*\.\s*(?:join|format|format_map|replace|concat|sub|gsub)\s*\(", after):
            return None, after  # '/'.join(parts): the literal is not the value
        return value, after
    home = _HOME_VALUE.match(rest)
    if home:  # os.environ["HOME"], Path.home(), Dir.home, os.homedir()...
        return "~", rest[home.end() :]
    name = re.match(r"[A-Za-z_$][\w$]*", rest)
    if name and name.group(0).lstrip("$") in names:  # (perl's $f is bound as f)
        return names[name.group(0).lstrip("$")], rest[name.end() :]
    return None, rest


def _split_items(text: str) -> list[str]:
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
    token = _STRING_RE.fullmatch(piece.strip())
    if token:
        return _literal(token.group(0))
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


def commands(language: str, code: str) -> list[tuple[str, ...]]:
    """What running `code` amounts to, as shell model items (see the module docstring)."""
    code = code[:_MAX_CODE]
    names: dict[str, str] = {}
    for match in _ASSIGN.finditer(code):
        value = _literal(match.group(2))
        if value is not None:
            names[match.group(1)] = value
    names.update(glob_names(code))  # for f in glob.glob('/etc/*'): os.remove(f)
    joined = joined_paths(code)  # os.path.join('/etc', f), '/etc/' + f, f'/etc/{f}'
    found: list[tuple[str, ...]] = []
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
        rest = code[match.end() :]
        value, after = _argument(rest, names)
        if value is None:
            start = match.end() + len(rest) - len(rest.lstrip())
            value = joined.get(start)
            if value is None:
                continue
            after = code[start:]
        item = _judge(language, name, owner, value, _call_window(after))
        if item is not None:
            found.append(item)
    for match in _PATH_METHOD.finditer(code):
        target = _literal(match.group(1))
        if target is not None:
            if match.group(2) in ("unlink", "rmdir"):
                found.append(("rm", "-f", target))
            else:
                found.append(("truncate", "-s", "0", target))
    for match in _OPEN_WRITE.finditer(code):
        target = _literal(match.group(1))
        if target is not None:
            found.append(("truncate", "-s", "0", target))
    if language in ("perl", "ruby", "php", "node"):
        for match in _BACKTICKS.finditer(code):
            text = next((g for g in match.groups() if g is not None), "")
            if text and (language != "node" or match.group(6) is None):
                found.append((SCRIPT, text))
            elif (
                text
                and language == "node"
                and "$`" in code[max(0, match.start() - 1) : match.start() + 1]
            ):
                found.append((SCRIPT, text))  # Bun's $`...` shell
    found += sends(code)  # the environment or a file it reads, uploaded
    return found


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
            args = [_value(p, {}) for p in _split_items(more.group(1))]
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
            args = [_value(p, {}) or "\0unknown" for p in _split_items(extra.group(1))]
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
        return ("rm", "-rf", value)
    owners = FILE_DELETES.get(name)
    if owners is not None and (
        owner in owners or (owner == "" and "" in owners and language in ("perl", "php"))
    ):
        recursive = re.search(r"recursive\s*[:=]>?\s*(true|True|1)", window) is not None
        if (
            name in ("rm", "rmdir")
            and owner == "FileUtils"
            and re.search(r"\bforce\b|\br\b", window)
        ):
            recursive = True
        return ("rm", "-rf" if recursive else "-f", value)
    return None
