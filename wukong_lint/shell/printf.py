"""What `printf` and `echo` print, computed from their words as bash computes it.

A command hidden in escapes (`printf '\\x72\\x6d -rf ~' | sh`, `echo -e '\\162\\155'`) or in a
format (`printf 'rm -rf %s' ~`, `printf %s r m`) is the same command once printed: the walker
feeds what these print to the shell that reads it, to the variable `printf -v` sets and to
the word a `$(printf ...)` becomes. Values that are not known stay as written (`$HOME`), so
the path reasoning still reads them.
"""

from __future__ import annotations

import re

MAX_OUTPUT = 64 << 10  # characters: a longer output is cut (a format repeated over many args)
_ECHO_OPTIONS = frozenset(["-n", "-e", "-E", "-ne", "-en", "-nE", "-En", "-eE", "-Ee"])
# a backslash escape as printf's format reads it, as %b reads it, as `echo -e` reads it
_HEX = r"x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}"
_ESCAPES = {
    "format": re.compile(r"\\(" + _HEX + r"|[0-7]{1,3}|.)", re.S),
    "b": re.compile(r"\\(" + _HEX + r"|0[0-7]{0,3}|[1-7][0-7]{0,2}|c|.)", re.S),
    "echo": re.compile(r"\\(" + _HEX + r"|0[0-7]{0,3}|c|.)", re.S),
}
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
           "f": "\f", "v": "\v", "\\": "\\", '"': '"', "'": "'", "?": "?"}  # fmt: skip
_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([diouxXeEfFgGcsbq%])")
# an escape that hides a character (not a plain line break or tab): obfuscation
OBFUSCATING = re.compile(r"\\(x[0-9a-fA-F]|u[0-9a-fA-F]|U[0-9a-fA-F]|0?[0-7]{2,3})")


class _Stop(Exception):
    """`\\c` in a %b argument or an echo -e string: nothing more is printed."""


def unescape(text: str, mode: str = "format") -> str:
    """Backslash escapes read as printf's format (`mode` "format"), a %b argument ("b") or
    `echo -e` ("echo") reads them; `\\c` in the last two raises _Stop (nothing more is
    printed)."""

    def one(match: re.Match[str]) -> str:
        esc = match.group(1)
        head = esc[0]
        try:
            if head in "xuU" and len(esc) > 1:
                return chr(int(esc[1:], 16))
            if head.isdigit() and (mode != "echo" or head == "0"):
                digits = esc[1:] if mode != "format" and head == "0" else esc
                return chr(int(digits or "0", 8) & 0xFF)
        except (ValueError, OverflowError):
            return "\\" + esc
        if head == "c" and mode != "format":
            raise _Stop
        return _SIMPLE.get(esc, "\\" + esc)

    if "\\" not in text:
        return text
    return _ESCAPES[mode].sub(one, text)


def _b(text: str, mode: str = "b") -> tuple[str, bool]:
    """A %b argument (or an echo -e word): its escapes read, and whether `\\c` stopped it."""
    try:
        return unescape(text, mode), False
    except _Stop:
        out = []
        for piece in re.split(r"(\\\\|\\c)", text):  # (the text before the first \\c)
            if piece == "\\c":
                break
            out.append(piece)
        return unescape("".join(out), mode), True


def _number(value: str) -> int:
    value = value.strip()
    if value[:1] in ("'", '"') and len(value) > 1:
        return ord(value[1])  # printf %d "'A" prints 65
    try:
        return int(value, 0)
    except ValueError:
        return 0


def printf(args: tuple[str, ...] | list[str]) -> str | None:
    """What `printf FORMAT ARGS...` prints (the words after `printf` and `-v NAME`), or None
    when there is no format. The format is used again while arguments remain."""
    args = list(args)
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        return None
    fmt, rest = args[0], args[1:]
    out: list[str] = []
    size = 0
    while True:
        used = 0
        pieces: list[str] = []
        stopped = False
        at = 0
        for spec in _SPEC.finditer(fmt):
            pieces.append(unescape(fmt[at : spec.start()]))
            at = spec.end()
            flags, width, precision, conv = spec.groups()
            if conv == "%":
                pieces.append("%")
                continue
            if width == "*":
                width = str(_number(rest[used])) if used < len(rest) else "0"
                used += 1
            if precision == "*":
                precision = str(_number(rest[used])) if used < len(rest) else "0"
                used += 1
            value = rest[used] if used < len(rest) else ""
            used += 1
            if conv == "b":
                text, stopped = _b(value)
            elif conv in "sq":
                text = value
            elif conv == "c":
                text = value[:1]
            elif conv in "diouxX":
                number = _number(value)
                base = {"o": "o", "x": "x", "X": "X"}.get(conv, "d")
                text = format(number, base)
            else:
                text = value
            if precision is not None and conv in "sbq":
                text = text[: int(precision)]
            if width is not None and width.isdigit() and int(width) <= 256:
                text = text.ljust(int(width)) if "-" in flags else text.rjust(int(width))
            pieces.append(text)
            if stopped:
                break
        if not stopped:
            pieces.append(unescape(fmt[at:]))
        chunk = "".join(pieces)
        out.append(chunk)
        size += len(chunk)
        rest = rest[used:]
        if stopped or not rest or used == 0 or size > MAX_OUTPUT:
            break
    return "".join(out)[:MAX_OUTPUT]


def echo(args: tuple[str, ...] | list[str]) -> str:
    """What `echo ARGS...` prints (without its final line break)."""
    args = list(args)
    escapes = False
    while args and args[0] in _ECHO_OPTIONS:
        option = args.pop(0)
        if "e" in option:
            escapes = True
        if "E" in option:
            escapes = False
    text = " ".join(args)
    if escapes:
        text, _ = _b(text, "echo")
    return text[:MAX_OUTPUT]


def printed(argv: tuple[str, ...]) -> str | None:
    """What a `printf` or `echo` command prints (None for other programs, and for `printf -v`,
    which prints nothing)."""
    name = argv[0].rsplit("/", 1)[-1] if argv else ""
    if name == "echo":
        return echo(argv[1:])
    if name == "printf":
        if argv[1:2] == ("-v",):
            return None
        return printf(argv[1:])
    return None
