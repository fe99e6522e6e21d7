"""`check FOLDER -o FILE`: never overwrite a file of the project with the report.

fsutil.is_input refuses an `-o` that is one of the paths named on the command line; a folder
scan reads files nobody named, so `check . -o app.py` replaced a tracked source file with the
report. A report written into the scanned folder is common and rewritten on every run
(`-o report.json`, itself listed as untracked), so only a file git tracks is refused.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable


def overwrites_tracked_file(output: str, scanned: Iterable[tuple[str, str]]) -> bool:
    """Whether `output` is one of the `scanned` (path, display) files and git tracks it."""
    try:
        out = os.stat(output)
    except OSError:
        return False
    if not stat.S_ISREG(out.st_mode):
        return False
    target = (out.st_dev, out.st_ino)
    for path, _ in scanned:
        try:
            info = os.stat(path)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) == target:
            break
    else:
        return False
    from wukong_lint.util import gitproc

    folder, name = os.path.split(os.path.abspath(output))
    try:
        code, _, _ = gitproc.run(["ls-files", "--error-unmatch", "--", name], cwd=folder)
    except OSError:
        return False  # no git: a folder walked without it has nothing tracked
    return code == 0
