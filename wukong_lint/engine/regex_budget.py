"""How big a regex can get once compiled, estimated from its text before it is compiled.

The `regex` module expands counted repeats of sequences when it compiles them: the pattern
`(?:a{60000}){60000}`, 19 characters in a rule pack a repository brings along, asks for
3.6 billion units and took 24 GB before it failed. So a pattern is measured first: each atom
counts one, a group the larger of its alternatives' sums, and a counted repeat `{m,n}`
multiplies what it repeats by its required count (`{5,}`, `{5,9}`: 5; `*`, `+`, `?` and
`{0,9}` expand nothing), as the module unrolls it. A pattern
above `MAX_UNITS` is refused with a message instead of compiled; the built-in rules stay far
below it (the largest needs ~1,000).
"""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

MAX_UNITS = 20_000  # ~10 MB of compiled code in the `regex` module, ~0.03 s to compile
COMPILE_SECONDS = 5.0  # a backstop for what the estimate misses
_QUANTIFIER = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")
_VERBOSE = re.compile(r"\(\?[a-zA-Z]*x[a-zA-Z\-]*\)")
_BRACED_ESCAPES = "pPNxuUgk"


class _Frame:
    __slots__ = ("best", "last", "total")

    def __init__(self) -> None:
        self.best = 0  # the largest alternative so far
        self.total = 0  # the current alternative
        self.last = 0  # the size of the last atom (what a quantifier repeats)

    def atom(self, size: int) -> None:
        self.total += size
        self.last = size

    def size(self) -> int:
        return max(self.best, self.total)


def _class_end(pattern: str, i: int) -> int:
    """The index after the character class that starts at `pattern[i] == '['`."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1  # a leading ] is a member
    while j < len(pattern):
        if pattern[j] == "\\":
            j += 2
            continue
        if pattern[j] == "]":
            return j + 1
        j += 1
    return j


def expanded_size(pattern: str) -> int:
    """An upper estimate of the units `pattern` compiles to."""
    verbose = bool(_VERBOSE.search(pattern[:40]))
    stack = [_Frame()]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        frame = stack[-1]
        if c == "\\":
            j = i + 2
            if pattern[i + 1 : i + 2] in _BRACED_ESCAPES and pattern[j : j + 1] == "{":
                close = pattern.find("}", j)
                j = n if close < 0 else close + 1
            frame.atom(1)
            i = j
        elif c == "[":
            frame.atom(1)
            i = _class_end(pattern, i)
        elif c == "(":
            if pattern.startswith("(?#", i):
                close = pattern.find(")", i)
                i = n if close < 0 else close + 1
                continue
            stack.append(_Frame())
            i += 1
        elif c == ")":
            if len(stack) > 1:
                inner = stack.pop()
                stack[-1].atom(inner.size())
            i += 1
        elif c == "|":
            frame.best = frame.size()
            frame.total = frame.last = 0
            i += 1
        elif c == "{":
            found = _QUANTIFIER.match(pattern, i)
            if found is None or not (found.group(1) or found.group(3)):
                frame.atom(1)  # a literal brace
                i += 1
                continue
            # the module unrolls the required part of a repeat (`{600}`, `{600,700}`: 600
            # copies); the optional rest stays one loop
            count = max(int(found.group(1) or 0), 1)
            frame.total += frame.last * (count - 1)
            frame.last *= count
            i = found.end()
        elif verbose and c == "#":
            close = pattern.find("\n", i)
            i = n if close < 0 else close + 1
        elif (verbose and c in " \t\r\n") or c in "*+?":
            i += 1
        else:
            frame.atom(1)
            i += 1
    while len(stack) > 1:
        inner = stack.pop()
        stack[-1].atom(inner.size())
    return stack[0].size()


def check(pattern: str) -> None:
    """Raise ValueError when `pattern` would compile to more than MAX_UNITS."""
    size = expanded_size(pattern)
    if size > MAX_UNITS:
        raise ValueError(
            f"regex too large: its counted repeats expand to about {size:,} units "
            f"(limit {MAX_UNITS:,}); use smaller counts or `+`/`*`"
        )


class CompileTimeout(Exception):
    pass


def compile_limited(compile: Callable[[str], T], pattern: str) -> T:
    """`compile(pattern)` after the size check, stopped after COMPILE_SECONDS (in the main
    thread, where a timer signal can interrupt the compiler's Python code)."""
    check(pattern)
    if threading.current_thread() is not threading.main_thread():
        return compile(pattern)

    def expired(signum: int, frame: object) -> None:
        raise CompileTimeout

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, COMPILE_SECONDS)
    try:
        return compile(pattern)
    except CompileTimeout:
        raise ValueError(f"regex took more than {COMPILE_SECONDS:.0f}s to compile") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
