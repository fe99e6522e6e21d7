"""An iterative `os.walk`: a folder nested thousands deep must not end a run in a
RecursionError (Python before 3.12 walks recursively; so did the folder scan's own walk).

`walk` yields (folder, subfolder names, file names) top-down like `os.walk`, and like it lets
the caller prune or reorder the subfolder list in place. Symbolic links to folders are listed
with the files' neighbours as folders but never entered; unreadable folders are skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterator


def walk(top: str) -> Iterator[tuple[str, list[str], list[str]]]:
    stack = [top]
    while stack:
        folder = stack.pop()
        dirs: list[str] = []
        files: list[str] = []
        links: set[str] = set()
        try:
            with os.scandir(folder) as scan:
                for entry in scan:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    if is_dir:
                        dirs.append(entry.name)
                        if entry.is_symlink():
                            links.add(entry.name)
                    else:
                        files.append(entry.name)
        except OSError:
            continue
        yield folder, dirs, files
        # in the order the caller left them, depth first, as os.walk visits them
        stack += [os.path.join(folder, d) for d in reversed(dirs) if d not in links]
