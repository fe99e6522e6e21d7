"""Loading a package's compiled extension module without running the package's `__init__`.

Some packages import heavy modules at the top of their `__init__` that we never use (the
`regex` compiler, `importlib.resources` in `tree_sitter_bash`), which costs milliseconds on
every pre-commit run. Their C extension can be loaded alone; it is registered under its full
name, so a later ordinary import of the package reuses the very same module.
"""

from __future__ import annotations

import os
import sys
from typing import Any


def library_path(package: str, module: str) -> str | None:
    """Path of `package.module`'s shared library, found without importing the package."""
    import importlib.machinery

    spec = importlib.machinery.PathFinder.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = next(iter(spec.submodule_search_locations))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(folder, module + suffix)
        if os.path.isfile(path):
            return path
    return None


def load_extension(package: str, module: str, path: str | None = None) -> Any | None:
    """`package.module` (a C extension) loaded alone; None when it cannot be found."""
    name = f"{package}.{module}"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    path = path or library_path(package, module)
    if path is None:
        return None
    import importlib.machinery

    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.machinery.ModuleSpec(name, loader, origin=path)
    extension = loader.create_module(spec)
    loader.exec_module(extension)
    sys.modules[name] = extension
    return extension
