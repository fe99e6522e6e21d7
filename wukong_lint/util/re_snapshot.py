"""Python's own regexes (`re`) compiled once per installation instead of once per process.

The live hook is one process per tool call, and a call's verdict needs ~80 of the shell
model's and the rules' `re` patterns: `re` parses and compiles each in Python, about a
sixth of a hook call. Its C engine (`_sre.compile`) builds a pattern from the compiled code
in microseconds. So the command line records, per interpreter, the arguments the compiler
passes to the engine for each pattern compiled in a run, keeps them in a snapshot file
inside the installed package (beside the code, and trusted as the code is: the hook
protects the package folder from writes by the agent it guards; a cache in the user's
cache folder would not be), and gives them straight to the engine in later runs.

What keeps it safe to use:
- the snapshot is keyed by the exact interpreter version and the engine's MAGIC, and only
  used on CPython versions whose compiler this module knows (`re._compiler`, 3.11+);
  anything else compiles the ordinary way;
- an entry is recorded only when the pattern it rebuilds is equal (same pattern, flags and
  code) to the one `re` compiled itself;
- a package folder that is not writable (a system-wide install) simply compiles as usual.

Nothing here changes what a pattern matches: it is the same code list, built once.
"""

from __future__ import annotations

import marshal
import sys
from typing import Any

from wukong_lint.util import package_snapshot

NAME = "_stdlib_re.bin"

# (is str, pattern, flags) -> the marshal bytes of the engine's arguments: decoded on use, as
# a run compiles a fraction of the patterns the snapshot holds
_table: dict[tuple[Any, ...], bytes] = {}
_new = 0  # entries recorded in this run (written at exit)
_static = [False]  # set by compile_static: the pattern being compiled is a rule's
_installed = False


def _path() -> str:
    return package_snapshot.path(NAME)


def _key() -> str:
    import _sre

    return f"{sys.version}\0{getattr(_sre, 'MAGIC', '?')}\0{getattr(_sre, 'CODESIZE', '?')}"


def install() -> None:
    """Serve `re`'s compilations from the snapshot from now on in this process (once)."""
    global _installed
    if _installed or not package_snapshot.enabled():
        return
    _installed = True
    try:
        import re

        compiler = re._compiler  # type: ignore[attr-defined]
        parser = re._parser  # type: ignore[attr-defined]
        import _sre

        original = compiler.compile
        code_of = compiler._code
    except (ImportError, AttributeError):  # another interpreter: the ordinary way
        return
    _load()
    import atexit

    atexit.register(save)

    def compile_cached(p: Any, flags: int = 0) -> Any:
        if type(p) is str or type(p) is bytes:
            key = (type(p) is str, p, flags)
            entry = _table.get(key)
            if entry is not None:
                try:
                    return _sre.compile(*marshal.loads(entry))
                except Exception:  # (not what was recorded: compiled the ordinary way)
                    del _table[key]
            compiled = original(p, flags)
            if _static[0] or _at_import():
                _record(key, p, flags, compiled, parser, code_of, _sre)
            return compiled
        return original(p, flags)

    compiler.compile = compile_cached


def compile_static(pattern: str, flags: int = 0) -> Any:
    """`re.compile` of a pattern that comes from a rule file (the built-in rules are
    verified; a team's own are theirs), not from what a run reads: kept in the snapshot like
    a module's own patterns."""
    import re

    _static[0] = True
    try:
        return re.compile(pattern, flags)
    finally:
        _static[0] = False


def _at_import() -> bool:
    """Whether the pattern being compiled is a module's own (compiled while a module is
    imported, a few calls below its body): only those are kept. A pattern built during a
    run from what it reads (a variable's name in a command, a key of a record) is never
    written to the package folder, whatever it holds."""
    try:  # (above: this, compile_cached, re._compile, re.compile/search)
        frame: Any = sys._getframe(4)
    except ValueError:  # (a stack that shallow: the top of a script)
        return False
    for _ in range(5):
        if frame is None:
            return False
        if frame.f_code.co_name == "<module>":
            return True
        frame = frame.f_back
    return False


def _record(
    key: Any, p: Any, flags: int, compiled: Any, parser: Any, code_of: Any, sre: Any
) -> None:
    global _new
    try:
        parsed = parser.parse(p, flags)
        code = code_of(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[Any] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        args = (p, flags | parsed.state.flags, [int(c) for c in code], parsed.state.groups - 1,
                groupindex, tuple(indexgroup))  # fmt: skip
        if sre.compile(*args) != compiled:  # (not what `re` built: never kept)
            return
    except Exception:  # an interpreter whose compiler differs: this pattern is not kept
        return
    if _new < 1000:  # (a run that builds patterns from its input: bounded)
        _table[key] = marshal.dumps(args)
        _new += 1


def _load() -> None:
    table = package_snapshot.load(_path(), _key())
    if isinstance(table, dict):
        _table.update(table)


def save() -> None:
    """Write the snapshot when this run compiled patterns it did not hold (at exit; never
    raises: it only costs speed)."""
    global _new
    if not _new:
        return
    _new = 0
    try:
        # (another process may have added entries meanwhile: kept)
        stored = package_snapshot.load(_path(), _key())
        if not isinstance(stored, dict) or len(stored) + len(_table) > 4000:
            stored = {}  # (none yet, or a long run of many patterns: bounded)
        stored.update(_table)
        package_snapshot.store(_path(), _key(), stored)
    except Exception:  # (never raises: compiled as usual next time)
        return
