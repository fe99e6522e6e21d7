"""Memory-bank markdown as a source: anchors files, `memory-bank/` folders and the context
files under `.wukong/context/` become units of kind "memory", which the anchor and
memory-bank rules look at (and every secret rule, as for any file)."""

from __future__ import annotations

from collections.abc import Iterator

from wukong_lint.model import ScanError, Source, Unit
from wukong_lint.sources.files import read_file
from wukong_lint.util.text import Skipped


def is_memory_path(path: str) -> bool:
    """anchors.md anywhere, *.md under a memory-bank/ folder or under .wukong/context/."""
    path = "/" + path.replace("\\", "/")
    name = path.rsplit("/", 1)[-1].lower()
    if name == "anchors.md":
        return True
    if not name.endswith(".md"):
        return False
    return "/memory-bank/" in path or "/.wukong/context/" in path


def open_memory(full: str, display: str) -> Iterator[Unit | ScanError | Skipped]:
    item = read_file(full, display)
    if isinstance(item, Unit):
        item = item._replace(source=Source(kind="memory"))
    yield item
