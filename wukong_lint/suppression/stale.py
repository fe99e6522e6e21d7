"""Warnings about inline suppressions (`wukong-lint: ignore[...]`), as ruff's unused-noqa:
a name that matches no rule, category or rule-id prefix (with "did you mean"), and a comment
that suppressed nothing in this run.

`check` reads the comments of the files it scanned after the scan (a file without the text
`wukong-lint` costs one search of its bytes) and compares them with the findings the
comments suppressed. A comment whose names only name rules that did not run (`--select`, or
off by default) is not called unused: the run cannot tell.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from wukong_lint.engine.suppress import covers, parse_ignore

MAX_BYTES = 2 << 20  # a larger file is not read again for its comments


class Comment(NamedTuple):
    path: str  # as the report shows it
    line: int
    names: tuple[str, ...]  # () for a bare ignore


def comments_in(text: str, path: str, lines: Any = None) -> list[Comment]:
    """The ignore comments of `text` (only on `lines`, when given: a change's added lines)."""
    if re.search(r"(?i)wukong-lint", text) is None:  # (no lower-cased copy of the text)
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        names = parse_ignore(line)
        if names is not None and (lines is None or number in lines):
            found.append(Comment(path, number, names))
    return found


def comments_of_files(files: Iterable[tuple[str, str]]) -> list[Comment]:
    """The ignore comments of the files (path to read, display path) a scan read."""
    import os

    found: list[Comment] = []
    for full, display in files:
        try:
            if os.path.getsize(full) > MAX_BYTES:
                continue
            with open(full, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError:
            continue
        # (a lower-cased copy searched for the name: 5x faster than a case-insensitive
        # regex, which cost a quarter of a secrets-only folder scan of real code)
        # (a binary file, found by its NUL byte, is not lower-cased at all)
        if len(data) > MAX_BYTES or b"\0" in data or b"wukong-lint" not in data.lower():
            continue
        found += comments_in(data.decode("utf-8", errors="replace"), display)
    return found


def _known(name: str, ids: Sequence[str], categories: set[str]) -> bool:
    return (
        name in ("all", *categories)
        or name in ids
        or any(i.startswith(name.rstrip(".") + ".") for i in ids)
    )


def warnings(
    comments: Sequence[Comment], findings: Sequence[Any], ran: Sequence[Any], known: Sequence[Any]
) -> list[str]:
    """One line per stale comment: `ran` are the rules of this run, `known` every loaded rule
    (for names that match none)."""
    if not comments:
        return []
    ids = sorted({r.id for r in known} | {r.id for r in ran})
    categories = {r.category for r in known} | {r.category for r in ran}
    used = {(f.path, f.line) for f in findings if f.suppressed and f.suppressed_by == "inline"}
    import difflib

    out = []
    for comment in comments:
        where = f"{comment.path}:{comment.line}"
        unknown = [n for n in comment.names if not _known(n, ids, categories)]
        for name in unknown:
            # an id without its category (`jwt`: `secret.jwt`), else the names spelt most alike
            close = [i for i in ids if i.endswith("." + name)][:1]
            close = close or difflib.get_close_matches(name, [*sorted(categories), *ids], n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            out.append(f"{where}: wukong-lint: ignore[{name}] matches no rule{hint}")
        if unknown or (comment.path, comment.line) in used:
            continue
        names = comment.names
        if names and not any(covers(names, r.id, r.category) for r in ran):
            continue  # it names only rules that did not run: unused or not, cannot tell
        shown = f"[{', '.join(names)}]" if names else ""
        out.append(f"{where}: wukong-lint: ignore{shown} suppressed nothing (unused)")
    return out


def watch_units(items: Iterable[Any], into: list[Comment]) -> Iterable[Any]:
    """`items` unchanged, with the ignore comments of each whole-file unit (on its added lines,
    for a change) added to `into` as the scan reads them (`check --staged`)."""
    from wukong_lint.model import Unit

    for item in items:
        if isinstance(item, Unit) and item.first_line == 1 and item.line_numbers is None:
            into += comments_in(item.text, item.path, item.added_lines)
        yield item


def check_warnings(
    args: Any, config: Any, ruleset: Any, report: Any, found: list[Comment]
) -> list[str]:
    """The warnings of `check` about the comments `found` (every loaded rule is loaded
    again, without details, only when a comment names rules)."""
    if not found:
        return []
    known: Sequence[Any] = ()
    if any(c.names for c in found):
        from wukong_lint.engine.loader import load_rules

        no_builtin = getattr(args, "no_builtin_rules", False) or not config.builtin_rules
        dirs = (*config.rule_dirs, *getattr(args, "rules", ()))
        known = load_rules(tuple(dirs), builtin=not no_builtin, details=False).rules
    return warnings(found, report.findings, ruleset.rules, known)
