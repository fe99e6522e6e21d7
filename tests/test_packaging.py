"""The wheel ships the built-in rules (a non-editable install must find them) and the
compiled build of the hottest modules (hatch_build.py, wukong_lint/native.py)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # pip builds a wheel (and mypyc compiles)
def test_wheel_contains_every_builtin_rule_and_the_compiled_modules(tmp_path: Path):
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "-q", "-w", str(tmp_path), str(PROJECT)],
        capture_output=True, text=True,
    )  # fmt: skip
    if proc.returncode != 0 and "hatchling" in proc.stderr:
        # no hatchling in this environment: let pip fetch the build backend
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
             str(PROJECT)],
            capture_output=True, text=True,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("wukong_lint-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "wukong_lint/rules/" + p.relative_to(PROJECT / "rules").as_posix()
        for p in (PROJECT / "rules").rglob("*.yaml")
    }
    assert expected and expected <= names
    assert "wukong_lint/cli/__init__.py" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert (
        "wukong-lint = wukong_lint.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    )
    # the compiled modules, for this interpreter: a wheel for this Python and platform only
    from wukong_lint import native

    folder = f"wukong_lint/{native.FOLDER}/"
    manifest = zipfile.ZipFile(wheel).read(folder + native.MANIFEST).decode()
    suffix, modules = native.read_manifest(manifest)
    assert suffix == native.EXTENSION_SUFFIXES[0]
    assert set(modules) == {*native.MODULES, native.GROUP + "__mypyc"}
    assert {folder + file for file, _ in modules.values()} <= names
    for name in native.MODULES:  # built from the sources it ships
        assert modules[name][1] == native.digest(native.source_path(name))
    assert not wheel.name.endswith("-py3-none-any.whl"), wheel.name
