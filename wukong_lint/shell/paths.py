"""The `path` rule kind: reads and writes of sensitive files by tool calls.

Accesses come from file tools (Read, Edit, Write, Grep, Glob... `file_path`/`path`) and from
parsed shell commands (redirections and the arguments of writing programs are writes, other
path-like arguments of programs that touch files are reads). Home directories are written as
`~` (`/home/alice/.ssh`, `$HOME/.ssh` and `/root/.ssh` all become `~/.ssh`).

    kind: path
    targets: ['/etc/*']      # globs; a glob without `/` matches the file name
    except: ['/etc/os-release']
    access: [write]          # read, write, list, find (default read and write: `ls`,
                             # `stat` only list a folder or a file's name; `find -name`
                             # and the Glob tool find names by a pattern), script (what a
                             # script being written writes when it runs)
    permissions: false       # a chmod / chown is no write for this rule (default: it is)

Which files a call touches is shell/accesses.py's (a command line) and model/tools.py's (a
tool's input: Read, Grep, Glob, LS, MCP and unknown tools). An access may be a glob (`cat
~/.ss*/id_*`, a Grep over `~` with `glob: id_*` reads `~/**/id_*`): it meets a rule when it
can reach one of its targets (util/star_globs.py `globs_overlap`) and is not wholly excepted.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from fnmatch import fnmatchcase
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.engine.scope import in_scope
from wukong_lint.model import Unit
from wukong_lint.model.events import EDIT_TOOLS, event_paths
from wukong_lint.model.tools import EDIT, FIND, LIST, SEARCH, builtin, tool_accesses, tool_kind
from wukong_lint.shell.accesses import installed, shell_accesses, tidy
from wukong_lint.util.star_globs import any_glob, globs_overlap, has_glob

__all__ = ["accesses", "match_path", "normalize", "shell_accesses"]

_HOME = re.compile(r"^(?:\$HOME|\$\{HOME\}|/home/[^/]+|/Users/[^/]+|/root)(?=/|$)")
# Folders a path may be written from besides `~`: the XDG folders and the cache folder the
# hook uses (as variables on the line, or their values in this process's environment), so
# that rules name `~/.config/wukong-lint/*` once, wherever they point on this machine.
_ROOT_VARIABLES = (
    ("WUKONG_LINT_CACHE_DIR", "~/.cache/wukong-lint"),
    ("XDG_CONFIG_HOME", "~/.config"),
    ("XDG_CACHE_HOME", "~/.cache"),
    ("HOME", "~"),
)
_ROOTS: tuple[tuple[str | None, ...], list[tuple[str, str]]] | None = None
# folders that stand for much more than a root (`WUKONG_LINT_CACHE_DIR=/tmp` must not make
# every temporary file the hook's cache)
_TOO_WIDE = frozenset(["", "/", "/tmp", "/var/tmp", "/private/tmp", "/dev/shm"])


def _roots() -> list[tuple[str, str]]:
    """(prefix, what it stands for), longest first; made again when the environment's
    values change (tests change them within a process)."""
    global _ROOTS
    import os

    values = tuple(os.environ.get(variable) for variable, _ in _ROOT_VARIABLES)
    if _ROOTS is None or _ROOTS[0] != values:
        pairs: list[tuple[str, str]] = []
        home = (values[-1] or "").rstrip("/")
        for (variable, root), raw in zip(_ROOT_VARIABLES, values, strict=True):
            pairs += [(f"${variable}", root), (f"${{{variable}}}", root)]
            value = (raw or "").rstrip("/")
            if (
                value.startswith("/")
                and value not in _TOO_WIDE
                and (variable == "HOME" or value != home)
            ):
                pairs.append((value, root))
        _ROOTS = (values, sorted(pairs, key=lambda pair: -len(pair[0])))
    return _ROOTS[1]


def normalize(path: str) -> str:
    path = path.strip().strip("'\"")
    if path[:1] in ("$", "`"):
        path = installed(path)
    if path[:1] in ("$", "/"):
        for prefix, root in _roots():
            if path.startswith(prefix) and path[len(prefix) : len(prefix) + 1] in ("", "/"):
                path = root + path[len(prefix) :]
                break
    if "\0stdin" in path:  # a name read from a pipe (path_reasoning.STDIN): any one name
        path = path.replace("\0stdin", "*")
    if "\0" in path:  # the walker's "some files under a folder" (path_reasoning.UNDER)
        head, _, name = path.partition("/\0*")
        path = f"{head}/**/{name or '*'}".replace("\0", "")
    # (`/home/*/.ssh`: every user's is the user's; `/home/**/x`: under any home, any depth)
    path = _HOME.sub(lambda m: "~/**" if "**" in m.group(0) else "~", path)
    while "//" in path:
        path = path.replace("//", "/")
    return tidy(path)


# command line -> its accesses: a transcript runs the same commands many times
_SHELL_ACCESSES: dict[str, list[tuple[str, str]]] = {}


def accesses(unit: Unit) -> list[tuple[str, str]]:
    event = getattr(unit, "event", None)
    if event is None or event.kind != "call":
        return []
    # Every path rule asks the same question of the same call: answer it once per unit.
    known = getattr(unit, "accesses", None)
    if known is not None:
        return known
    tool = event.tool
    if event.command is not None:
        found = _SHELL_ACCESSES.get(event.command)
        if found is None:
            if len(_SHELL_ACCESSES) >= 4096:
                _SHELL_ACCESSES.clear()
            found = _SHELL_ACCESSES[event.command] = shell_accesses(event.command)
        if not builtin(tool):  # an MCP tool's other fields may name files too
            found = found + tool_accesses(tool, event.input, event.ctx.cwd)
    elif builtin(tool) and tool_kind(tool) not in (SEARCH, FIND, LIST):
        mode = "write" if tool in EDIT_TOOLS else "read"
        if tool_kind(tool) == EDIT and tool not in EDIT_TOOLS:  # an editor tool's `view`
            viewing = isinstance(event.input, dict) and event.input.get("command") == "view"
            mode = "read" if viewing else "write"
        found = [(p, mode) for p in event_paths(event)]
        found += [(p, m) for p, m in tool_accesses(tool, event.input) if (p, mode) not in found]
        if mode == "write" and found:  # a script it writes: what that writes when it runs
            found += _written_script(event.input, found[0][0])
    else:  # searches, listings, MCP and unknown tools: what their input says they touch
        found = tool_accesses(tool, event.input, event.ctx.cwd)
        written = [p for p, m in found if m == "write"]
        if written:  # (an MCP write_file of a script: what that writes when it runs)
            found = found + _written_script(event.input, written[0])
    unit.accesses = found  # type: ignore[attr-defined]  # an EventUnit has a __dict__
    return found


def _written_script(data: Any, path: str) -> list[tuple[str, str]]:
    """The `script` accesses of a file tool writing a script: what the script writes when
    it runs (file_writes.script_kind), from the text the call puts in it."""
    if not isinstance(data, dict):
        return []
    texts = [data.get("content"), data.get("new_string"), data.get("new_source")]
    edits = data.get("edits")
    if isinstance(edits, list):
        texts += [e.get("new_string") for e in edits if isinstance(e, dict)]
    text = "\n".join(t for t in texts if isinstance(t, str))
    if not text:
        return []
    from wukong_lint.shell.accesses import script_writes

    return [(p, "script") for p in script_writes(path, text)]


@functools.cache
def _globs(patterns: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a path matches any of `patterns`: the whole path, or its last part for a
    pattern without `/` (`*.pem`), or the folder itself for `folder/*` (`~/.ssh/*` covers
    `~/.ssh`). Compiled once per pattern list: a scan asks it hundreds of thousands of times."""
    if not patterns:
        return lambda path: False
    # (fnmatch's semantics without compiling its regexes in every run: star_globs.py)
    whole = any_glob(patterns)
    names = [p for p in patterns if "/" not in p]
    name = any_glob(names) if names else None
    folders = frozenset(p[:-2] for p in patterns if "/" in p and p.endswith("/*"))

    def test(path: str) -> bool:
        if whole(path):
            return True
        trimmed = path.rstrip("/")
        if name is not None and name(trimmed.rsplit("/", 1)[-1]):
            return True
        return trimmed in folders

    return test


_TESTS: dict[int, tuple[Any, Callable[[str], bool], Callable[[str], bool]]] = {}


def _tests(params: dict[str, Any]) -> tuple[Callable[[str], bool], Callable[[str], bool]]:
    """The target and except tests of a rule's parameters, looked up once per rule."""
    found = _TESTS.get(id(params))
    if found is None or found[0] is not params:
        found = _TESTS[id(params)] = (
            params,
            _globs(tuple(params["targets"])),
            _globs(tuple(params["except"])),
        )
    return found[1], found[2]


def _normalized(unit: Unit) -> list[tuple[str, str, str]]:
    """(as written, normalized, mode) of every access of a unit, computed once per unit."""
    if getattr(unit, "event", None) is None:
        return []
    known = getattr(unit, "normalized_accesses", None)
    if known is None:
        cwd = unit.event.ctx.cwd  # type: ignore[attr-defined]
        shell = getattr(unit.event, "command", None) is not None
        known = [
            (raw, normalize(_above(_shell_glob(raw) if shell and mode != FIND else raw, cwd)), mode)
            for raw, mode in accesses(unit)
        ]
        unit.normalized_accesses = known  # type: ignore[attr-defined]
    return known


def _shell_glob(word: str) -> str:
    """A path word of a command line as the glob it is: bash's `**` (without `globstar`,
    a `*`; with it, any depth of folders not starting with `.`) never names a dot folder, so
    `rm -rf **/__pycache__` reaches no `.git/hooks` (a `**` the walker writes for the files
    `find` reaches, `/\0*`, and a search's, do: they list dot files)."""
    if "**" not in word or "\0" in word:
        return word
    return word.replace("**", "*")


def _mode_wanted(mode: str, params: dict[str, Any]) -> bool:
    """Whether a rule asks about an access of this mode. A change of mode or owner (`meta`:
    chmod, chown) is a write unless the rule says `permissions: false`."""
    wanted = params["access"]
    if mode in wanted:
        return True
    return mode == "meta" and "write" in wanted and params.get("permissions", True)


_REACHED: dict[tuple[tuple[str, ...], str], bool] = {}
_REACHED_LIMIT = 4096  # answers kept (then the memo starts over): bounded on any session


def _reaches(patterns: list[str], access: str) -> bool:
    """`_reached`, remembered: a session searches the same few folders again and again (each
    Grep or Glob of the project against every target of a rule), the answer depends on the
    globs only."""
    key = (tuple(patterns), access)
    found = _REACHED.get(key)
    if found is None:
        if len(_REACHED) >= _REACHED_LIMIT:
            _REACHED.clear()
        found = _REACHED[key] = _reached(patterns, access)
    return found


def _reached(patterns: list[str], access: str) -> bool:
    """Whether a glob access (`~/.ss*/id_*`, a search's `~/**/id_*`: a `*` within a name,
    `**` any depth) can reach a path of `patterns` (rule globs: the whole path, the last
    name for a glob without `/`, the folder itself for `folder/*`)."""
    last = access.rstrip("/").rsplit("/", 1)[-1]
    if access.startswith(("/**", "/*/**")) and not access.startswith("/**/~"):
        # a search from the root reaches the home folders too (`find / -name id_rsa`)
        return _reaches(patterns, "~/**" + access[access.index("**") + 2 :]) or any(
            globs_overlap(access, p, True) for p in patterns if p.startswith("/")
        )
    searched = "/**/" in access
    # (`DIR/**/NAME` is NAME at any depth under DIR, DIR itself included)
    forms = (access, access.replace("/**/", "/", 1)) if searched else (access,)
    # a relative glob (`**/__pycache__`) stays under the folder it runs in: it reaches no
    # absolute or home path, however many folders its `**` spans
    relative = access[:1] not in ("/", "~", "$")
    for pattern in patterns:
        if relative and pattern[:1] in ("/", "~"):
            continue
        if "/" in pattern:
            if any(globs_overlap(form, pattern, True) for form in forms):
                return True
            if pattern.endswith("/*") and globs_overlap(access, pattern[:-2], True):
                return True
        elif last in ("*", "**"):
            continue  # a bare `*` names every file: the name globs say nothing of it
        elif searched:
            if fnmatchcase(last, pattern):  # a search for `*.json` is not one for
                return True  # `credentials.json`; one for `credentials` is
        elif globs_overlap(last, pattern, True):
            return True
    return False


def _finds(patterns: list[str], access: str) -> bool:
    """Whether a search by name (`find DIR -name GLOB`, the Glob tool: `DIR/**/GLOB`) looks
    for one of `patterns`: the name it asks for, read as written, is one of the pattern's
    names (`id_*` for `~/.ssh/id_*`; `*.bak` is none, though a key could end so), and its
    folder reaches the pattern's."""
    if access.startswith("/**"):  # (from the root: the home folders too)
        access = "~" + access[access.index("**") - 1 :]
    base, _, name = access.rpartition("/")
    for pattern in patterns:
        folder, _, wanted = pattern.rpartition("/")
        if not fnmatchcase(name, wanted):
            continue
        if not folder or globs_overlap(base.rstrip("/") + "/**", folder + "/**", True):
            return True
    return False


def _hits_path(params: dict[str, Any], path: str, mode: str = "read") -> bool:
    targets, excepted = _tests(params)
    if mode == "find":
        return not excepted(path) and _finds(params["targets"], path)
    if not has_glob(path):
        return targets(path) and not excepted(path)
    if excepted(path):  # `cat ~/.ssh/*.pub`: every file it names is excepted
        return False
    base = path.split("/**/", 1)[0] if "/**/" in path else None
    if base is not None and not has_glob(base) and excepted(base):
        return False  # a search in an excepted file or folder (Grep of ~/.ssh/config)
    if base is not None and mode in ("write", "meta"):
        return _reaches(_named_targets(params["targets"], base, path), path)
    return _reaches(params["targets"], path)


def _named_targets(patterns: list[str], base: str, path: str) -> list[str]:
    """The targets a write of the files found by name under a folder (`find . -name '*.pyc'
    -delete`: `./**/*.pyc`) can change: those whose name is one it looks for (`*.json` finds
    `.claude/settings.json`), a folder of that name (`-name hooks -exec rm -rf`), or any
    when the search starts inside the target's folder. A `*.pyc` that could sit in
    `.claude/hooks/` is no write of a hook."""
    name = path.rsplit("/", 1)[-1]
    if name in ("*", "**"):
        return patterns
    kept = []
    for pattern in patterns:
        head, _, last = pattern.rpartition("/")
        if (
            not head
            or fnmatchcase(last, name)
            or (last == "*" and fnmatchcase(head.rsplit("/", 1)[-1], name))
            or fnmatchcase(base, head)
            or fnmatchcase(base, head + "/*")
        ):
            kept.append(pattern)
    return kept


_LABELS = {
    "meta": "change the mode of",
    "find": "search for",
    "script": "a script it writes would write",
}


def _above(path: str, cwd: Any) -> str:
    """A relative path that leaves the project (`../.aws/credentials`) as the absolute one
    it names from the project folder (the call's `cwd`); other relative paths stay as they
    are (rules name project files relatively: `.env`, `.git/hooks/*`)."""
    if not path.startswith("../") or not isinstance(cwd, str) or not cwd.startswith("/"):
        return path
    return cwd.rstrip("/") + "/" + path


def match_path(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    params = rule.params or {}
    if "scope" in params and not in_scope(params["scope"], unit):
        return
    seen = set()
    for raw, path, mode in _normalized(unit):
        if not _mode_wanted(mode, params) or (path, mode) in seen:
            continue
        if not _hits_path(params, path, mode):
            continue
        seen.add((path, mode))
        start = unit.text.find(raw)
        if start < 0:
            start, end = 0, 0
        else:
            end = start + len(raw)
        yield Hit(start, end, start, end, f"{_LABELS.get(mode, mode)} {path}")


def _accesses_any(unit: Unit) -> bool:
    return bool(accesses(unit))


# Shared by every path rule: the engine skips them all at once on units that touch no path.
match_path.gate = _accesses_any  # type: ignore[attr-defined]
# Only tool calls access paths (asked once per event signature, see RuleSet._event_plan).
match_path.accepts = lambda rule, event: event.kind == "call"  # type: ignore[attr-defined]


def _memo_key(unit: Unit) -> tuple[Any, ...] | None:
    """What a path rule's hits on a call depend on besides its signature (tool, agent): the
    paths it accesses, and the text their offsets point into. Small texts only: the memo
    holds its keys."""
    event = getattr(unit, "event", None)
    if event is None or len(unit.text) > 2048:
        return None
    if event.command is not None and builtin(event.tool):
        return (event.command, unit.text, event.ctx.cwd)
    # (what a search or an MCP tool touches comes from fields the text may not show whole)
    return (unit.text, tuple(accesses(unit)), event.ctx.cwd)


match_path.memo_key = _memo_key  # type: ignore[attr-defined]
