"""The disguises of interpreter code, undone before shell/interpreters.py reads it, and what
it cannot undo:

- `__import__('os')`, `importlib.import_module('sh' + 'util')`, `getattr(os, 'sys' +
  'tem')` written as the plain names they are (`os`, `shutil`, `os.system`);
- module aliases and imported names (`import os as o`, `from shutil import rmtree as r`,
  `const cp = require('child_process')`, `import {rm} from 'node:fs/promises'`), so that
  a call's owner is its module;
- names bound by a loop over a folder (`for p in Path.home().iterdir()`, `os.walk(HOME)`,
  `rglob('*')`): "the files under it", recursive for a walk;
- `os.exec*`, `os.spawn*`, `os.posix_spawn*`: the argv they run;
- code fetched from the network and run (`exec(urlopen(URL).read())`,
  `fetch(URL).then(eval)`): the `curl URL | python3` it amounts to;
- destructive calls whose argument is computed at run time (`os.system(decode(...))`,
  `shutil.rmtree(input())`, `exec(b64decode(...))`): what they run cannot be told, and the
  `unseen-script` rule asks (one-liners only: a program file holds such calls all the time).
"""

from __future__ import annotations

import re

_Q = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
_CONCAT = rf"{_Q}(?:\s*\+\s*{_Q})*"


def _joined(tokens: str) -> str:
    """The value of `'a' + 'b'` (string literals joined with +)."""
    return "".join(re.sub(r"\\(.)", r"\1", t[1:-1]) for t in re.findall(_Q, tokens))


_IMPORT_CALL = re.compile(
    rf"(?:__import__|importlib\s*\.\s*import_module|import_module)\s*\(\s*({_CONCAT})\s*\)"
)
_GETATTR = re.compile(rf"getattr\s*\(\s*([\w.]+)\s*,\s*({_CONCAT})\s*\)")
_REQUIRE = re.compile(rf"require\s*\(\s*({_Q})\s*\)")


def normalize(language: str, code: str) -> str:
    """`code` with dynamic imports and attribute look-ups of literal names written plainly."""
    if language == "python":
        if "import" in code:
            code = _IMPORT_CALL.sub(lambda m: _joined(m.group(1)).split(".")[0], code)
        if "getattr" in code:
            code = _GETATTR.sub(lambda m: f"{m.group(1)}.{_joined(m.group(2))}", code)
    return code


_PY_IMPORT_AS = re.compile(r"\bimport\s+([\w.]+)\s+as\s+(\w+)")
_PY_FROM = re.compile(r"\bfrom\s+([\w.]+)\s+import\s+\(?([\w\s,]+?)\)?(?:$|[;\n])", re.M)
_JS_REQUIRE = re.compile(
    r"(?:const|let|var)\s+(\w+|\{[^}]*\})\s*=\s*(?:await\s+)?require\s*\(\s*['\"](?:node:)?"
    r"([\w@/.-]+)['\"]\s*\)"
)
_JS_IMPORT = re.compile(
    r"\bimport\s+(?:(\w+)\s*,?\s*)?(?:\*\s+as\s+(\w+)|(\{[^}]*\}))?\s*from\s*['\"](?:node:)?"
    r"([\w@/.-]+)['\"]"
)
_RUBY_PERL_USE = re.compile(r"\b(?:use|require)\s+['\"]?([\w:]+)")


def _module(name: str) -> str:
    """`fs/promises` -> fs, `urllib.request` -> urllib.request, `child_process` as is."""
    return name.split("/")[0]


def aliases(language: str, code: str) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """(module alias -> module, imported name -> (module, its name)) of a program."""
    modules: dict[str, str] = {}
    functions: dict[str, tuple[str, str]] = {}
    if language == "python":
        for match in _PY_IMPORT_AS.finditer(code):
            modules[match.group(2)] = match.group(1).split(".")[-1]
        for match in _PY_FROM.finditer(code):
            module = match.group(1).split(".")[-1]
            for part in match.group(2).split(","):
                words = part.split()
                if not words:
                    continue
                local = words[-1] if len(words) == 3 and words[1] == "as" else words[0]
                functions[local] = (module, words[0])
    elif language == "node":
        for match in _JS_REQUIRE.finditer(code):
            target, module = match.group(1), _module(match.group(2))
            if target.startswith("{"):
                _destructured(target, module, functions)
            else:
                modules[target] = module
        for match in _JS_IMPORT.finditer(code):
            module = _module(match.group(4))
            for local in (match.group(1), match.group(2)):
                if local:
                    modules[local] = module
            if match.group(3):
                _destructured(match.group(3), module, functions)
    return modules, functions


def _destructured(text: str, module: str, functions: dict[str, tuple[str, str]]) -> None:
    """`{rmSync, exec: run}` / `{rm as remove}` of a module."""
    for part in text.strip("{} ").split(","):
        part = part.strip()
        if not part:
            continue
        for separator in (":", " as "):
            if separator in part:
                name, local = (p.strip() for p in part.split(separator, 1))
                break
        else:
            name = local = part
        if re.fullmatch(r"\w+", local):
            functions[local] = (module, name)


# -- names bound by loops over folders ------------------------------------------------------

HOME_EXPR = (
    r"(?:os\.environ\[\s*['\"]HOME['\"]\s*\]|os\.environ\.get\(\s*['\"]HOME['\"][^)]*\)|"
    r"os\.getenv\(\s*['\"]HOME['\"][^)]*\)|(?:pathlib\.)?Path\.home\(\s*\)|Dir\.home|"
    r"ENV\[\s*['\"]HOME['\"]\s*\]|\$ENV\{\s*['\"]?HOME['\"]?\s*\}|"
    r"(?:require\(\s*['\"](?:node:)?os['\"]\s*\)|os)\.homedir\(\s*\)|homedir\(\s*\)|"
    r"process\.env\.HOME|process\.env\[\s*['\"]HOME['\"]\s*\]|\$_SERVER\[\s*['\"]HOME['\"]\s*\]|"
    r"getenv\(\s*['\"]HOME['\"]\s*\)|Deno\.env\.get\(\s*['\"]HOME['\"]\s*\)|"
    r"Sys\.getenv\(\s*['\"]HOME['\"]\s*\)|path\.expand\(\s*['\"]~['\"]\s*\)|"
    r"(?:os\.path\.)?expanduser\(\s*['\"]~/?['\"]\s*\)|Path\(\s*['\"]~/?['\"]\s*\)\s*\.\s*"
    r"expanduser\(\s*\)|File\.expand_path\(\s*['\"]~/?['\"]\s*\))"
)
_FOLDER = rf"(?:{HOME_EXPR}|(?:pathlib\.)?Path\(\s*({_Q})\s*\)|({_Q}))"
_LOOP = re.compile(
    r"\bfor\s+(\w+)((?:\s*,\s*\w+)*)\s+in\s+(?:"
    rf"os\.walk\(\s*(?P<walk>{_FOLDER})"
    rf"|(?:os\.listdir|os\.scandir)\(\s*(?P<list>{_FOLDER})"
    rf"|(?P<path>{_FOLDER})\s*\.\s*(?P<how>iterdir|glob|rglob|walk)\s*\(\s*(?P<pattern>{_Q})?"
    rf"|[\[(]\s*(?P<items>{_Q}(?:\s*,\s*{_Q})*)\s*,?\s*[\])]"
    r")"
)


def _folder(text: str) -> str:
    """The folder of a folder expression: `~` for the home folder, else its literal."""
    if re.match(HOME_EXPR, text):
        return "~"
    literal = re.search(_Q, text)
    return re.sub(r"\\(.)", r"\1", literal.group(0)[1:-1]) if literal else "?"


_UNDER = "/\0*"  # (path_reasoning.UNDER: some of the files under a folder)
RECURSIVE = "\0r"  # marks a bound value as every file below a folder (os.walk, rglob)


def bound_paths(code: str) -> dict[str, str]:
    """Names bound by a loop over a folder's entries -> `FOLDER/*` (prefixed with RECURSIVE
    for os.walk and rglob: every file below it)."""
    found: dict[str, str] = {}
    for match in _LOOP.finditer(code):
        if match.group("items"):  # for f in ['/etc/passwd', ...]: its first absolute one
            values = [
                re.sub(r"\\(.)", r"\1", t[1:-1]) for t in re.findall(_Q, match.group("items"))
            ]
            found[match.group(1)] = next((v for v in values if v.startswith(("/", "~"))), values[0])
            continue
        if match.group("walk"):
            folder = _folder(match.group("walk"))
            value = RECURSIVE + folder
        elif match.group("list"):
            folder = _folder(match.group("list"))
            value = folder.rstrip("/") + "/*"
        else:
            folder = _folder(match.group("path"))
            recursive = match.group("how") in ("rglob", "walk")
            value = (RECURSIVE + folder) if recursive else folder.rstrip("/") + "/*"
            pattern = (match.group("pattern") or "'*'")[1:-1]
            if pattern not in ("*", "**", "**/*") and "/" not in pattern.strip("*/"):
                # `Path('.').rglob('*.pyc')`: only the files of that name (`find -name`)
                name = pattern.rsplit("/", 1)[-1]
                head = (
                    RECURSIVE + folder.rstrip("/") + _UNDER
                    if recursive
                    else folder.rstrip("/") + "/"
                )
                value = head + name
        if folder != "?":
            found[match.group(1)] = value
            for other in (match.group(2) or "").split(","):
                if other.strip() and match.group("walk"):
                    found[other.strip()] = value  # the dirs and files of os.walk
    return found


_JOIN_NAME = re.compile(r"(?:os\.path\.join|path\.join|File\.join)\s*\(\s*(\w+)\s*,")


def joined_name(rest: str, names: dict[str, str]) -> str | None:
    """`os.path.join(name, ...)` of a name bound to a folder's entries: that value."""
    match = _JOIN_NAME.match(rest)
    if match and match.group(1) in names:
        return names[match.group(1)]
    return None


_METHOD_DELETE = re.compile(r"\b(\w+)\s*\.\s*(unlink|rmdir|rmtree|remove)\s*\(")


def method_deletes(code: str, names: dict[str, str]) -> list[tuple[str, ...]]:
    """`p.unlink()` / `p.rmdir()` of a name bound to a folder's entries."""
    found: list[tuple[str, ...]] = []
    for match in _METHOD_DELETE.finditer(code):
        value = names.get(match.group(1))
        if value is not None:
            found.append(deleted(value, match.group(2) == "rmtree"))
    return found


def deleted(value: str, recursive: bool) -> tuple[str, ...]:
    """The `rm` a delete of a (possibly RECURSIVE-marked) bound value amounts to."""
    if value.startswith(RECURSIVE):
        return ("rm", "-rf", value[len(RECURSIVE) :])
    return ("rm", "-rf" if recursive else "-f", value)


# -- os.exec* / os.spawn* -------------------------------------------------------------------

EXEC_FAMILY = {
    # name -> (index of the argv list, or of the first of the argument words)
    "execv": ("list", 1), "execve": ("list", 1), "execvp": ("list", 1),
    "execvpe": ("list", 1), "execl": ("words", 1), "execle": ("words", 1),
    "execlp": ("words", 1), "execlpe": ("words", 1), "spawnv": ("list", 2),
    "spawnve": ("list", 2), "spawnvp": ("list", 2), "spawnvpe": ("list", 2),
    "spawnl": ("words", 2), "spawnle": ("words", 2), "spawnlp": ("words", 2),
    "spawnlpe": ("words", 2), "posix_spawn": ("list", 1), "posix_spawnp": ("list", 1),
}  # fmt: skip


# -- code fetched and run -------------------------------------------------------------------

_FETCH = re.compile(
    r"(?:urlopen|urlretrieve|requests\s*\.\s*get|httpx\s*\.\s*get|http\s*\.\s*get|"
    r"https\s*\.\s*get|fetch|axios(?:\s*\.\s*get)?|got|URI\s*\.\s*open|open-uri|"
    r"Net::HTTP\s*\.\s*get|LWP::Simple|\bget|file_get_contents|curl_exec)\s*\(\s*['\"]"
    r"(https?://[^'\"\s]{1,300})"
)
_RUNS_CODE = re.compile(
    r"\b(?:exec|eval|Function|runInThisContext|runInNewContext|instance_eval|class_eval|"
    r"compile|execfile)\b"
)
_PIPE_TO = {"python": "python3", "node": "node", "perl": "perl", "ruby": "ruby", "php": "php"}


def fetched_code(language: str, code: str) -> list[tuple[str, ...]]:
    """Code downloaded and run in the same program: the `curl URL | LANG` it amounts to
    (judged as piping a download into an interpreter)."""
    fetch = _FETCH.search(code)
    if fetch is None or not _RUNS_CODE.search(code):
        return []
    runner = _RUNS_CODE.search(code, max(0, fetch.start() - 300), fetch.end() + 300)
    if runner is None:
        return []
    program = _PIPE_TO.get(language, "sh")
    return [("\0script", f"curl -fsSL '{fetch.group(1)}' | {program}")]


# -- calls whose argument is computed -------------------------------------------------------

_EVAL_WORD = re.compile(r"(?<![\w.$])(?:eval|exec)\s+(?![({])[$\w]")


def perl_eval(language: str, code: str) -> bool:
    """Perl's / Ruby's `eval EXPR` without parentheses, of a value (not a `{ }` block)."""
    return language in ("perl", "ruby") and _EVAL_WORD.search(code) is not None


# -- files written ----------------------------------------------------------------------------

_WRITES = re.compile(
    rf"\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|outputFileSync"
    rf"|outputFile|file_put_contents|write_bytes|write_text)\s*\(\s*({_Q})"
    rf"|\b(?:File|IO)\s*\.\s*(?:write|binwrite)\s*\(\s*({_Q})"
    rf"|\b(?:File\s*\.\s*open|fopen|openSync|open)\s*\(\s*({_Q})\s*,\s*['\"][rwa]?[wa+][bt+]*['\"]"
    rf"|\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['\"](?:>|>>|\+<|\+>)['\"]\s*,\s*({_Q})"
    rf"|\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['\"](?:>|>>|\+<|\+>)\s*([^'\"\s][^'\"]*)['\"]"
)


def written_files(code: str) -> list[str]:
    """Literal paths the code opens or writes for writing (any of its languages)."""
    found: list[str] = []
    for match in _WRITES.finditer(code):
        token = next(g for g in match.groups() if g is not None)
        if token[:1] in "'\"":
            token = re.sub(r"\\(.)", r"\1", token[1:-1])
        found.append(token)
        if len(found) >= 64:
            break
    return found


# A home folder written inside a string: Perl's "$ENV{HOME}", Ruby's "#{ENV['HOME']}" (its
# quotes may still be escaped: "#{ENV[\"HOME\"]}"), an f-string's or a template's
# {Path.home()} / ${os.homedir()}.
_ESCAPED_QUOTES = HOME_EXPR.replace("['\\\"]", "\\\\?['\\\"]")
HOME_HOLE = re.compile(
    r"\$ENV\{\s*\\?['\"]?HOME\\?['\"]?\s*\}"
    + r"|#\{\s*(?:"
    + _ESCAPED_QUOTES
    + r")\s*\}"
    + r"|\$?\{\s*(?:"
    + HOME_EXPR
    + r")\s*\}"
)


# -- a file's code run by code --------------------------------------------------------------

_FILE_RUNS = {
    "python": re.compile(
        rf"\b(?:exec|eval)\s*\(\s*(?:compile\s*\(\s*)?open\s*\(\s*({_Q})[^)]*\)\s*\.\s*read\s*\("
        rf"|\b(?:runpy\s*\.\s*run_path|execfile)\s*\(\s*({_Q})"
    ),
    "node": re.compile(r"\brequire\s*\(\s*(['\"]\.{1,2}/[^'\"\n]+['\"])\s*\)"),
    "ruby": re.compile(rf"\b(?:load|require_relative)\s*\(?\s*({_Q})"),
    "perl": re.compile(rf"\b(?:do|require)\s*\(?\s*({_Q})"),
    "php": re.compile(rf"\b(?:include|require)(?:_once)?\s*\(?\s*({_Q})"),
}
_RUNNER = {"python": "python3", "node": "node", "ruby": "ruby", "perl": "perl", "php": "php"}


def file_runs(language: str, code: str) -> list[tuple[str, ...]]:
    """Code that runs a file's code (`exec(open('x.py').read())`, `runpy.run_path`,
    `require('./x.js')`, Ruby's `load`, Perl's `do`): the `python3 x.py` it amounts to, so
    that the file is read and judged as when it is run so."""
    pattern = _FILE_RUNS.get(language)
    if pattern is None:
        return []
    found: list[tuple[str, ...]] = []
    for match in pattern.finditer(code):
        token = next(g for g in match.groups() if g is not None)
        path = re.sub(r"\\(.)", r"\1", token[1:-1])
        if language == "node" and not path.endswith((".js", ".cjs", ".mjs", ".ts")):
            continue  # (a module folder or a JSON file)
        found.append((_RUNNER[language], path))
        if len(found) >= 16:
            break
    return found


def runs_a_file(language: str, rest: str) -> bool:
    """Is the call at the start of `rest` (after `exec(` / `eval(`) one that runs a file?"""
    return (
        language == "python"
        and re.match(rf"\s*(?:compile\s*\(\s*)?open\s*\(\s*{_Q}[^)]*\)\s*\.\s*read\s*\(", rest)
        is not None
    )
