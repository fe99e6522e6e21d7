"""The hottest modules compiled to C with mypyc, used only when built from these very sources.

A scan spends its time in a few modules run once per record, unit or finding: the JSONL and
Claude Code readers, the session and 戒 protocol state, the keyword prefilter and the scan
loop with its matchers, filters, masking and findings, and the JSON report (`MODULES`). The
build (`hatch_build.py`, at `pip install`) compiles them with mypyc into `wukong_lint/_native/`,
with a manifest of the size and CRC-32 of each source it compiled. At import, `install` puts a
finder in front of Python's own that loads those compiled modules instead of the .py files,
when:

- every compiled source is byte for byte the file beside it (an edited module after an
  editable install is never shadowed by a stale build: the whole set is then pure Python,
  as compiled modules call each other directly and cannot be mixed with edited ones);
- the build is for this interpreter (its extension suffix) and loads (mypyc's shared
  library is imported first: if it cannot be, no compiled module is);
- `WUKONG_LINT_PURE` is not set (`WUKONG_LINT_PURE=1`: pure Python, e.g. to compare).

Otherwise the pure-Python modules run, with the same results (the suite compares both:
tests/test_native.py). `status()` says which, for `--version` and the benchmarks.
"""

from __future__ import annotations

import os
import sys
import zlib

# importlib.machinery's classes, from the modules the interpreter has loaded at start-up
# (importing importlib.machinery costs 0.4 ms). No json, hashlib or typing either: every
# run imports this module, the hook and `check --staged` too.
from _frozen_importlib import ModuleSpec
from _frozen_importlib_external import EXTENSION_SUFFIXES, ExtensionFileLoader

# The compiled modules (the build hook reads this list: one place for both).
MODULES = (
    "wukong_lint.engine.event_gate",
    "wukong_lint.engine.filters",
    "wukong_lint.engine.findings",
    "wukong_lint.engine.matchers",
    "wukong_lint.engine.rules",
    "wukong_lint.engine.scan",
    "wukong_lint.engine.masking.masker",
    "wukong_lint.report.json_report",
    "wukong_lint.sources.transcripts.claude",
    "wukong_lint.protocol.turn_facts",
    "wukong_lint.sources.transcripts.records",
    "wukong_lint.sources.transcripts.session",
    "wukong_lint.sources.transcripts.stream",
)
GROUP = "wukong_lint_native"  # the name of mypyc's shared library module (GROUP__mypyc)
FOLDER = "_native"
MANIFEST = "manifest.txt"
FAILED = "_native.failed"  # beside the package: why the last in-tree build failed
PURE_ENV = "WUKONG_LINT_PURE"

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_STATUS: list[str] = []


def pure_requested() -> bool:
    """Whether `WUKONG_LINT_PURE` asks for pure Python (at run time, and to the build)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def source_path(module: str) -> str:
    """The .py file of one of MODULES in this package."""
    parts = module.split(".")[1:]
    return os.path.join(_PACKAGE, *parts) + ".py"


def digest(path: str) -> str:
    """A source's size and CRC-32: whether it is the file that was compiled (a check against
    a stale build, not against tampering: whoever can write here can change the .py too)."""
    with open(path, "rb") as handle:
        data = handle.read()
    return f"{len(data)}-{zlib.crc32(data):08x}"


def read_manifest(text: str) -> tuple[str, dict[str, tuple[str, str]]]:
    """The build's extension suffix, and module -> (file, digest of its source; "" for
    mypyc's shared library), from the manifest's lines: `suffix SUFFIX`, then
    `module FILE DIGEST` ones."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    if not lines or len(lines[0]) != 2 or lines[0][0] != "suffix":
        raise ValueError("no suffix line")
    modules = {}
    for fields in lines[1:]:
        if len(fields) not in (2, 3):
            raise ValueError(f"bad line: {' '.join(fields)[:80]}")
        modules[fields[0]] = (fields[1], fields[2] if len(fields) == 3 else "")
    return lines[0][1], modules


class _Finder:
    """Finds the compiled modules (and mypyc's shared library) in the build's folder."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> object:
        found = self.files.get(fullname)
        if found is None:
            return None
        spec = ModuleSpec(fullname, ExtensionFileLoader(fullname, found), origin=found)
        spec.has_location = True  # (its __file__ is the compiled file)
        return spec


def _compiled() -> tuple[dict[str, str] | None, str]:
    """The compiled modules' files by module name (None: not to be used), and why."""
    if pure_requested():
        return None, f"pure Python ({PURE_ENV} is set)"
    folder = os.path.join(_PACKAGE, FOLDER)
    try:
        with open(os.path.join(folder, MANIFEST), encoding="utf-8") as handle:
            suffix, modules = read_manifest(handle.read())
    except FileNotFoundError:
        try:
            with open(os.path.join(_PACKAGE, FAILED), encoding="utf-8") as handle:
                why = handle.readline().strip()[:200]
        except (OSError, ValueError):
            return None, "pure Python (no compiled build)"
        return None, f"pure Python (the compiled build failed: {why}; see wukong_lint/{FAILED})"
    except (OSError, ValueError) as err:
        return None, f"pure Python (unreadable build manifest: {err})"
    if suffix != EXTENSION_SUFFIXES[0]:
        return None, "pure Python (the compiled build is for another Python)"
    if set(modules) != {*MODULES, GROUP + "__mypyc"}:
        return None, "pure Python (the compiled build is of other modules)"
    try:
        for name in MODULES:
            if digest(source_path(name)) != modules[name][1]:
                return None, f"pure Python ({name} changed since it was compiled)"
    except OSError as err:
        return None, f"pure Python (cannot read a compiled module's source: {err})"
    files = {name: os.path.join(folder, entry[0]) for name, entry in modules.items()}
    if not all(os.path.isfile(path) for path in files.values()):
        return None, "pure Python (the compiled build is incomplete)"
    return files, "compiled (mypyc)"


def install() -> None:
    """Put the compiled modules' finder first, once, before any of them is imported."""
    if _STATUS:
        return
    files, why = _compiled()
    if files is not None and not any(name in sys.modules for name in MODULES):
        finder = _Finder(files)
        sys.meta_path.insert(0, finder)
        # mypyc's shared library first (every compiled module loads it: no cost): a build
        # that cannot load here (made for another system, damaged) leaves every module pure
        # Python, before any compiled one is imported
        try:
            __import__(GROUP + "__mypyc")
        except (ImportError, OSError) as err:
            sys.meta_path.remove(finder)
            why = f"pure Python (the compiled build does not load: {str(err)[:160]})"
    elif files is not None:
        why = "pure Python (imported before the compiled build was set up)"
    _STATUS.append(why)


def status() -> str:
    """Whether this process runs the compiled modules: "compiled (mypyc)" or why not."""
    install()
    return _STATUS[0]
