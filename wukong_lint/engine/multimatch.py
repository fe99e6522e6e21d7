"""Hyperscan: which secret regex rules can match a text at all, in one pass over it.

The keyword prefilter (rules.py) hands a secret regex rule the lines holding one of its
keywords; on real code almost none of those lines hold a secret (some 97 % of the rule runs a
folder scan makes find nothing). This module compiles every secret regex rule it can into one
Hyperscan database (Intel Hyperscan / Vectorscan, BSD; the `hyperscan` package) in
*prefilter* mode, and a text is scanned once with it: a rule the database does not report
cannot match anywhere in the text, so it is not run. A rule it reports runs as before, with
`regex`, on its keyword windows: the findings are the pure path's, by construction.

What keeps that true (tests/test_multimatch.py compares both paths on every secret fixture):

- prefilter mode reports a superset of the pattern's matches (what it cannot compile
  exactly, lookarounds and the like, it widens); the translation below only widens more:
  bounded repeats lose their upper bound and keep a lower bound of at most `CAP`, branch
  resets and named groups become plain groups, a named back reference becomes the groups
  it names, `^`/`$` match at every line (a rule's window ends at a line end, where `$`
  matches in the window);
- a pattern whose meaning could differ is left to `regex` (rules.py then runs it as
  before): `\\A`, `\\Z`, `\\G`, numbered back references, verbose or locale flags,
  `\\p`/`\\N`/`\\X`, and anything Hyperscan does not compile;
- only ASCII texts are scanned (texts are searched as their UTF-8 bytes, and Unicode case
  folding and classes are `regex`'s alone); any other text runs every rule as before.

The database is compiled once per set of patterns (some 0.5 s for 220 rules) and cached in
the rule cache folder like the regex cache (patterns.py): keyed by the patterns, the
Hyperscan version, the machine and the Python, the file holding a checksum of its key,
expressions and database; a file that does not verify is deleted and rebuilt, never used.
Nothing here is imported on the pre-commit path or by the hook: a scan turns it on once it
has read `rules.START_AFTER` characters (a pooled folder scan: before its workers fork).

It is off unless `WUKONG_LINT_HYPERSCAN=1` (then from the first text; `DEFAULT_ON` below
says why); `=0` forces the pure path; without the package, or on a
platform without its wheel, the scan is the pure path and `--version` says why.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from typing import Any

ENV = "WUKONG_LINT_HYPERSCAN"
CAP = 8  # the largest lower bound a repeat keeps (compile time grows with the bounds)
_FORMAT = "hs1"  # part of the key: a change of the translation invalidates every cache file

# escapes whose meaning differs (or is unknown) between `regex` and Hyperscan
_REJECT_ESCAPES = set("AZzGpPNXgQEKuULlhHRVv123456789")
_GLOBAL_FLAGS = {"i": "i", "m": "", "s": "s", "a": "", "u": "", "x": ""}  # others: regex


def _group_end(pattern: str, start: int) -> int:
    """The index just after the `)` closing the group opened at `start` (-1: none)."""
    depth, i, in_class = 0, start, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            i += 1
            if pattern[i : i + 1] == "^":
                i += 1
            if pattern[i : i + 1] == "]":
                i += 1
            continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _leading_flags(pattern: str) -> str:
    """The letters of the global flag groups `(?imsx)` that open `pattern` (VERSION0 applies
    one anywhere to the whole pattern; only those at the start are read as such here)."""
    letters, i = "", 0
    while pattern.startswith("(?", i):
        j = i + 2
        while j < len(pattern) and pattern[j].isalpha():
            j += 1
        if j == i + 2 or pattern[j : j + 1] != ")":
            break
        letters += pattern[i + 2 : j]
        i = j + 1
    return letters


def translate(pattern: str) -> tuple[str, str] | None:
    """(a Hyperscan expression whose matches include every match of `pattern` under
    `regex` VERSION0 on ASCII text, its global flags "i"/"s"), or None: left to `regex`."""
    out: list[str] = []
    flags = ""
    verbose = "x" in _leading_flags(pattern)
    named: dict[str, list[str]] = {}  # group name -> the translated groups of that name
    opened: list[tuple[int, str | None]] = []  # (index in out, name) of each open group
    quantified = False  # the last token was a quantifier (a `+` after it: possessive)
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if verbose and c in " \t\n\r\f\v":
            i += 1
            continue
        if verbose and c == "#":
            end = pattern.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        if quantified and c == "+":  # possessive: the greedy repeat matches more
            quantified = False
            i += 1
            continue
        if quantified and c == "?":  # lazy
            quantified = False
            out.append(c)
            i += 1
            continue
        quantified = False
        if c == "\\":
            nxt = pattern[i + 1 : i + 2]
            if not nxt or nxt in _REJECT_ESCAPES:
                return None
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[":  # a set, copied as it is (its `]` first is a literal)
            j = i + 1
            if pattern[j : j + 1] == "^":
                j += 1
            if pattern[j : j + 1] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                if pattern[j] == "\\":
                    if pattern[j + 1 : j + 2] in ("p", "P", "N"):
                        return None
                    j += 1
                elif pattern.startswith("[:", j):
                    end = pattern.find(":]", j + 2)
                    if end < 0:
                        return None
                    j = end + 1
                j += 1
            if j >= n:
                return None
            out.append(pattern[i : j + 1])
            i = j + 1
            continue
        if c == "(":
            if pattern.startswith("(?#", i):
                end = pattern.find(")", i)
                if end < 0:
                    return None
                i = end + 1
                continue
            if pattern.startswith(("(?|", "(?:", "(?>"), i):  # atomic: a plain group matches more
                opened.append((len(out), None))
                out.append("(?:")
                i += 3
                continue
            if pattern.startswith(("(?P<", "(?<"), i) and not pattern.startswith(
                ("(?<=", "(?<!"), i
            ):
                end = pattern.find(">", i)
                if end < 0:
                    return None
                opened.append((len(out), pattern[pattern.index("<", i) + 1 : end]))
                out.append("(?:")
                i = end + 1
                continue
            if pattern.startswith("(?P=", i):
                end = pattern.find(")", i)
                groups = named.get(pattern[i + 4 : end]) if end > 0 else None
                if not groups:
                    return None
                out.append("(?:" + "|".join(groups) + ")")
                i = end + 1
                continue
            if pattern.startswith("(?", i):
                j = i + 2
                while j < n and pattern[j].isalpha():
                    j += 1
                letters = pattern[i + 2 : j]
                if j < n and pattern[j] == ")" and letters:  # global flags
                    if any(f not in _GLOBAL_FLAGS for f in letters):
                        return None
                    if "x" in letters and not verbose:
                        return None  # (verbose only among the pattern's first flags)
                    flags += "".join(_GLOBAL_FLAGS[f] for f in letters)
                    i = j + 1
                    continue
                if j < n and pattern[j] == ":" and letters:  # scoped flags
                    if any(f not in "ims" for f in letters):
                        return None
                    opened.append((len(out), None))
                    out.append(pattern[i : j + 1])
                    i = j + 1
                    continue
                if pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
                    opened.append((len(out), None))
                    size = 4 if pattern[i + 2] == "<" else 3
                    out.append(pattern[i : i + size])
                    i += size
                    continue
                return None  # conditionals and other extensions
            opened.append((len(out), None))
            out.append("(")
            i += 1
            continue
        if c == ")":
            if not opened:
                return None
            at, name = opened.pop()
            out.append(")")
            if name is not None:
                named.setdefault(name, []).append("".join(out[at + 1 : -1]))
            i += 1
            continue
        if c in "*+?":
            out.append(c)
            quantified = True
            i += 1
            continue
        if c == "{":
            j = i + 1
            while j < n and (pattern[j].isdigit() or pattern[j] == ","):
                j += 1
            body = pattern[i + 1 : j]
            if j < n and pattern[j] == "}" and body.count(",") <= 1 and body not in ("", ","):
                low_text = body.split(",")[0]
                low = int(low_text) if low_text else 0
                out.append(f"{{{min(low, CAP)},}}")
                quantified = True
                i = j + 1
                continue
            out.append("\\{")  # a literal brace (as `regex` reads one that is no repeat)
            i += 1
            continue
        if c == "}":
            out.append("\\}")
            i += 1
            continue
        out.append(c)
        i += 1
    if opened:
        return None
    return "".join(out), "".join(sorted(set(flags)))


# Off unless asked for: measured on real code (issue 32, docs/performance.md), the secret
# regexes are a few per cent of a secrets scan, and the database's pass over every text costs
# as much as the runs it saves (callgrind: +1.7 % and +2.7 % instructions on two trees).
DEFAULT_ON = False


def unavailable() -> str | None:
    """Why the Hyperscan path is off (None: it can run)."""
    setting = os.environ.get(ENV, "")
    if setting == "0":
        return f"off: {ENV}=0"
    if setting != "1" and not DEFAULT_ON:
        return f"hyperscan off by default, no gain measured; {ENV}=1 turns it on"
    try:
        import hyperscan  # noqa: F401
    except Exception as err:  # (ImportError, or a library that does not load)
        return f"hyperscan unavailable: {type(err).__name__}: {err}"
    return None


def engine_status() -> str:
    """What `--version` says about the secret regex engine."""
    why = unavailable()
    if why is not None:
        return f"regex ({why})"
    import hyperscan

    version = getattr(hyperscan, "__version__", "?")
    return f"hyperscan {version} + regex"


class Database:
    """The compiled database of some rules (by index in the caller's rule list)."""

    def __init__(self, db: Any, indexes: tuple[int, ...]) -> None:
        import hyperscan

        self._db = db
        self.indexes = indexes  # database id -> rule index
        self.covered = frozenset(indexes)
        self._scratch = hyperscan.Scratch(db)
        self._pid = os.getpid()

    def matching(self, data: bytes) -> set[int]:
        """The rule indexes whose pattern may match somewhere in `data`."""
        if self._pid != os.getpid():  # (a forked worker: a scratch space of its own)
            import hyperscan

            self._scratch, self._pid = hyperscan.Scratch(self._db), os.getpid()
        found: set[int] = set()
        add = found.add
        indexes = self.indexes

        def on_match(number: int, start: int, end: int, flags: int, context: Any) -> None:
            add(indexes[number])

        self._db.scan(data, match_event_handler=on_match, scratch=self._scratch)
        return found


def split(patterns: list[str]) -> tuple[list[int], list[int]]:
    """(indexes of the patterns the database can hold, the others), from the translation
    alone (a pattern Hyperscan then refuses to compile moves to the others when built)."""
    fast, slow = [], []
    for index, pattern in enumerate(patterns):
        (fast if pattern and translate(pattern) is not None else slow).append(index)
    return fast, slow


def _checksum(*parts: bytes) -> int:
    from zlib import crc32

    value = 0
    for part in parts:
        value = crc32(part, value)
    return value


def _key(expressions: list[tuple[str, str]]) -> str:
    import platform

    import hyperscan

    head = f"{_FORMAT}\0{getattr(hyperscan, '__version__', '?')}\0{platform.machine()}"
    body = "\n".join(f"{flags}\0{expression}" for expression, flags in expressions)
    return f"{head}\0{sys.version}\n{body}"


def _compile(expressions: list[tuple[str, str]]) -> tuple[Any, list[int]]:
    """(the database of the expressions that compile, their positions in `expressions`)."""
    import hyperscan

    base = hyperscan.HS_FLAG_PREFILTER | hyperscan.HS_FLAG_ALLOWEMPTY
    base |= hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_MULTILINE
    extra = {"i": hyperscan.HS_FLAG_CASELESS, "s": hyperscan.HS_FLAG_DOTALL}

    def flags_of(letters: str) -> int:
        value = base
        for letter in letters:
            value |= extra[letter]
        return value

    kept = list(range(len(expressions)))
    while kept:
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        try:
            db.compile(
                expressions=[expressions[k][0].encode() for k in kept],
                ids=list(range(len(kept))),
                flags=[flags_of(expressions[k][1]) for k in kept],
            )
            return db, kept
        except hyperscan.error:
            # one of them does not compile: find it alone (rare: the first build only)
            bad = None
            for k in kept:
                single = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
                try:
                    single.compile(
                        expressions=[expressions[k][0].encode()],
                        ids=[0],
                        flags=[flags_of(expressions[k][1])],
                    )
                except hyperscan.error:
                    bad = k
                    break
            if bad is None:
                raise
            kept.remove(bad)
    return None, []


def build(patterns: list[str], cache_dir: str | None) -> Database | None:
    """The database of the patterns that translate and compile (their indexes in
    `patterns`), read from the cache when a verified one is there; None when Hyperscan is
    off or nothing compiles."""
    if unavailable() is not None:
        return None
    import hyperscan

    fast, _ = split(patterns)
    translated = [translate(patterns[k]) for k in fast]
    expressions = [t for t in translated if t is not None]
    if not expressions:
        return None
    key = _key(expressions)
    path = None
    if cache_dir is not None:
        from wukong_lint.engine.patterns import checksum

        path = os.path.join(cache_dir, f"hyperscan-{checksum(key)}.bin")
        loaded = _read(path, key, len(expressions))
        if loaded is not None:
            db, kept = loaded
            return Database(db, tuple(fast[k] for k in kept))
    db, kept = _compile(expressions)
    if db is None:
        return None
    if path is not None:
        blob = hyperscan.dumpb(db)
        stored = marshal.dumps(tuple(kept))
        body = marshal.dumps((key, stored, blob, _checksum(key.encode(), stored, blob)))
        try:
            from wukong_lint.util.fsutil import atomic_write_bytes

            os.makedirs(cache_dir, exist_ok=True)  # type: ignore[arg-type]
            atomic_write_bytes(path, body)
        except (OSError, ValueError):
            pass  # a cache we cannot write only costs speed
    return Database(db, tuple(fast[k] for k in kept))


def _read(path: str, key: str, count: int) -> tuple[Any, list[int]] | None:
    """The verified database of `key` from its cache file, or None (a file that does not
    verify is deleted: the caller compiles and writes it again)."""
    import hyperscan

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    try:
        stored_key, stored, blob, check = marshal.loads(data)
        if stored_key != key:
            return None  # another set of patterns with the same file name: rewritten
        if check != _checksum(key.encode(), stored, blob):
            raise ValueError("checksum")
        kept = list(marshal.loads(stored))
        if any(type(k) is not int or not 0 <= k < count for k in kept) or kept != sorted(set(kept)):
            raise ValueError("positions")
        db = hyperscan.loadb(blob, hyperscan.HS_MODE_BLOCK)
        return db, kept
    except Exception:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return None
