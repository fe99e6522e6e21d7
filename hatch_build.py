"""Build hook: compile the hottest modules with mypyc (wukong_lint/native.py says which, and
how the compiled build is used only when its sources are unchanged).

- `pip install .` (a wheel): the compiled modules go into the wheel, which is then tagged
  for this Python and platform.
- `pip install -e .` (editable): they are written into the source tree's
  `wukong_lint/_native/` (not tracked by git). Editing one of their sources turns the whole
  set back to pure Python until the next build: run `python hatch_build.py` (or reinstall).
- `WUKONG_LINT_PURE=1` at install time, or a machine without a C compiler and the Python
  headers: a pure-Python install (a warning says why), with the same results, slower.

mypyc is part of mypy (MIT), a build dependency only: the compiled modules need nothing at
run time but the interpreter they were built for.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "wukong_lint"

# mypyc's setup script, run by the build's interpreter in a copy of the package
_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="wukong-lint-native",
    # (the modules it imports are type-checked only for what the compiled ones use of them)
    ext_modules=mypycify(
        ["--ignore-missing-imports", "--follow-imports=silent", *sys.argv[2:]],
        opt_level="3",
        group_name=sys.argv[1],
    ),
    script_args=["build_ext", "--inplace"],
)
"""


_NATIVE: dict = {}


def _native() -> dict:
    """wukong_lint/native.py's names, read (once) without importing the package."""
    if not _NATIVE:
        _NATIVE.update(__file__=str(PACKAGE / "native.py"), __name__="native")
        exec(compile((PACKAGE / "native.py").read_text(encoding="utf-8"), "native.py", "exec"),
             _NATIVE)  # fmt: skip
    return _NATIVE


def compile_native(dest: Path) -> str | None:
    """Compile the modules into `dest` (replaced as a whole); None when done, else why not."""
    native = _native()
    if native["pure_requested"]():
        return f"{native['PURE_ENV']} is set"
    suffix = EXTENSION_SUFFIXES[0]
    modules: tuple[str, ...] = native["MODULES"]
    group = native["GROUP"] + "__mypyc"
    with tempfile.TemporaryDirectory(prefix="wukong-native-") as work:
        skip = shutil.ignore_patterns("__pycache__", "_native", "*.so")
        shutil.copytree(PACKAGE, Path(work) / "wukong_lint", ignore=skip)
        (Path(work) / "build_native.py").write_text(_SETUP, encoding="utf-8")
        paths = [m.replace(".", "/") + ".py" for m in modules]
        try:
            proc = subprocess.run(
                [sys.executable, "build_native.py", native["GROUP"], *paths],
                cwd=work, capture_output=True, text=True, errors="replace", check=False,
                timeout=900,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as err:
            return f"mypyc could not run: {err}"
        if proc.returncode != 0:
            lines = (proc.stdout + proc.stderr).strip().splitlines()
            last = lines[-1] if lines else "no output"
            first = next((line for line in lines if "error" in line.lower()), last)
            return f"mypyc failed ({first.strip()[:160]}):\n  " + "\n  ".join(lines[-15:])
        built = {m: Path(work, *m.split(".")).with_suffix(suffix) for m in modules}
        built[group] = Path(work) / (group + suffix)
        missing = [str(p) for p in built.values() if not p.is_file()]
        if missing:
            return f"mypyc did not make {', '.join(missing)}"
        lines = [f"suffix {suffix}"]
        staging = Path(tempfile.mkdtemp(prefix="_native-", dir=dest.parent))
        try:
            for name, path in built.items():
                shutil.copy2(path, staging / (name + suffix))
                line = f"{name} {name + suffix}"
                if name in modules:
                    source = Path(work, *name.split(".")).with_suffix(".py")
                    line += " " + native["digest"](str(source))
                lines.append(line)
            # written last: a folder without its manifest is never used
            (staging / native["MANIFEST"]).write_text("\n".join(lines) + "\n", encoding="utf-8")
            if dest.exists():
                shutil.rmtree(dest)
            staging.rename(dest)
        finally:
            if staging.exists():
                shutil.rmtree(staging)
    return None


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script (`python hatch_build.py`), without hatchling
    BuildHookInterface = object  # type: ignore[assignment,misc]


# mypy carries mypyc; setuptools runs its C compiler. Build dependencies only, and none for
# a pure-Python build.
BUILD_REQUIRES = ["mypy==2.4.1", "setuptools>=61"]


class NativeBuildHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if _native()["pure_requested"]():
            return []
        return list(BUILD_REQUIRES)

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        if version == "editable":
            why = build_in_tree()
        else:
            self._work = tempfile.mkdtemp(prefix="wukong-native-wheel-")
            dest = Path(self._work) / "_native"
            why = None if reuse_in_tree(dest) else compile_native(dest)
        if why is not None:
            self.app.display_warning(f"wukong-lint: pure-Python build (slower): {why}")
            return
        if version != "editable":
            folder = "wukong_lint/" + _native()["FOLDER"]
            for path in dest.iterdir():
                build_data["force_include"][str(path)] = f"{folder}/{path.name}"
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work:
            shutil.rmtree(work, ignore_errors=True)


def reuse_in_tree(dest: Path) -> bool:
    """Copy the in-tree build (an editable install's) into `dest` when it was compiled for
    this interpreter from the sources as they are now: a wheel built beside a checkout that
    is already compiled then takes seconds, not a minute of mypyc. Any doubt compiles."""
    native = _native()
    if native["pure_requested"]() or os.environ.get("WUKONG_LINT_REBUILD"):
        return False
    folder = PACKAGE / native["FOLDER"]
    group = native["GROUP"] + "__mypyc"
    try:
        suffix, modules = native["read_manifest"](
            (folder / native["MANIFEST"]).read_text(encoding="utf-8")
        )
        if suffix != EXTENSION_SUFFIXES[0] or set(modules) != {*native["MODULES"], group}:
            return False
        for name in native["MODULES"]:
            if modules[name][1] != native["digest"](native["source_path"](name)):
                return False
        files = [folder / file for file, _ in modules.values()] + [folder / native["MANIFEST"]]
        if not all(path.is_file() for path in files):
            return False
        dest.mkdir(parents=True)
        for path in files:
            shutil.copy2(path, dest / path.name)
    except (OSError, ValueError, KeyError):
        if dest.exists():
            shutil.rmtree(dest)
        return False
    return True


def build_in_tree() -> str | None:
    """Compile into the source tree (an editable install, or this script); a failure leaves
    its reason beside the package for `wukong-lint --version` to show (native.py)."""
    native = _native()
    why = compile_native(PACKAGE / native["FOLDER"])
    failed = PACKAGE / native["FAILED"]
    if why is None:
        failed.unlink(missing_ok=True)
    else:
        failed.write_text(why + "\n", encoding="utf-8")
    return why


if __name__ == "__main__":
    reason = build_in_tree()
    print(f"pure Python: {reason}" if reason else f"compiled into {PACKAGE / '_native'}")
    sys.exit(1 if reason else 0)
