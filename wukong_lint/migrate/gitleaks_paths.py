"""A gitleaks `path` regex (the files a rule is limited to) as wukong-lint `paths` globs.

gitleaks searches the regex in the file's path. The common shapes have exact glob
equivalents: `\\.pem$` -> `*.pem`, `(^|/)\\.npmrc$` -> `.npmrc` and `*/.npmrc`,
`(?i)\\.(?:tf|hcl)$` -> `*.[tT][fF]` and `*.[hH][cC][lL]`, `^config/.*\\.ya?ml$` ->
`config/*.yml` and `config/*.yaml`. Anything else (lookarounds, `\\w`, large counted
repeats, too many alternatives) returns None and the caller keeps the regex itself.
"""

from __future__ import annotations

import re
import warnings
from itertools import product
from typing import Any

MAX_GLOBS = 16
_GLOB_SPECIAL = "*?[]!"

# A token of a glob being built: a literal text, a glob fragment, or an anchor.
Token = tuple[str, str]  # ("text" | "glob" | "bol" | "eol", value)


class _Untranslatable(Exception):
    pass


def _parse(pattern: str) -> Any:
    try:
        import re._parser as parser  # type: ignore[import-not-found]
    except ImportError:  # Python 3.10
        import sre_parse as parser  # type: ignore[no-redef]
    with warnings.catch_warnings():  # "possible nested set" and the like: not for the user
        warnings.simplefilter("ignore")
        return parser.parse(pattern)


def _char(code: int, ignore_case: bool) -> str:
    ch = chr(code)
    if ch in _GLOB_SPECIAL or ch == "\n":
        raise _Untranslatable
    if ignore_case and ch.lower() != ch.upper():
        return f"[{ch.lower()}{ch.upper()}]"
    return ch


def _class(items: Any, ignore_case: bool) -> str:
    import re._constants as c  # type: ignore[import-not-found]

    out, negate = [], False
    for op, arg in items:
        if op is c.NEGATE:
            negate = True
        elif op is c.LITERAL:
            ch = chr(arg)
            if ch in "]!^-\\":
                raise _Untranslatable
            out.append(ch.lower() + ch.upper() if ignore_case else ch)
        elif op is c.RANGE:
            low, high = chr(arg[0]), chr(arg[1])
            if not (low.isalnum() and high.isalnum()):
                raise _Untranslatable
            out.append(f"{low}-{high}")
            if ignore_case and low.isalpha():
                out.append(f"{low.swapcase()}-{high.swapcase()}")
        elif op is c.CATEGORY and "DIGIT" in str(arg) and "NOT" not in str(arg):
            out.append("0-9")
        else:
            raise _Untranslatable
    return "[" + ("!" if negate else "") + "".join(out) + "]"


def _alternatives(parsed: Any, ignore_case: bool, depth: int = 0) -> list[list[Token]]:
    """Every sequence of tokens the parsed regex stands for."""
    import re._constants as c  # type: ignore[import-not-found]

    if depth > 20:
        raise _Untranslatable
    seqs: list[list[Token]] = [[]]

    def extend(options: list[list[Token]]) -> None:
        nonlocal seqs
        seqs = [a + b for a, b in product(seqs, options)]
        if len(seqs) > MAX_GLOBS:
            raise _Untranslatable

    for op, arg in parsed:
        if op is c.LITERAL:
            extend([[("glob", _char(arg, ignore_case))]])
        elif op is c.ANY:
            extend([[("glob", "?")]])
        elif op is c.IN:
            extend([[("glob", _class(arg, ignore_case))]])
        elif op is c.AT:
            if arg is c.AT_BEGINNING or arg is c.AT_BEGINNING_STRING:
                extend([[("bol", "")]])
            elif arg is c.AT_END or arg is c.AT_END_STRING:
                extend([[("eol", "")]])
            else:
                raise _Untranslatable  # \b and the like
        elif op is c.SUBPATTERN:
            extend(_alternatives(arg[-1], ignore_case, depth + 1))
        elif op is c.BRANCH:
            options = [
                alt for branch in arg[1] for alt in _alternatives(branch, ignore_case, depth + 1)
            ]
            extend(options)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, high, item = arg
            if len(item) == 1 and item[0][0] is c.ANY and high == c.MAXREPEAT and low <= 1:
                extend([[("glob", "?" * low + "*")]])
            elif high == 1 and low == 0:
                extend([[], *_alternatives(item, ignore_case, depth + 1)])
            elif low == high and low <= 8:
                inner = _alternatives(item, ignore_case, depth + 1)
                if len(inner) != 1:
                    raise _Untranslatable
                extend([inner[0] * low])
            else:
                raise _Untranslatable
        else:
            raise _Untranslatable
    return seqs


def _glob(tokens: list[Token]) -> str:
    anchored_start = bool(tokens) and tokens[0][0] == "bol"
    anchored_end = bool(tokens) and tokens[-1][0] == "eol"
    inner = tokens[1 if anchored_start else 0 : len(tokens) - (1 if anchored_end else 0)]
    if any(kind in ("bol", "eol") for kind, _ in inner):
        raise _Untranslatable
    body = "".join(value for _, value in inner)
    if not body:
        raise _Untranslatable
    if not anchored_start:
        # `/x$` (a name after a slash): `*/x` and, since the glob of a name without `/`
        # also matches the basename, nothing is lost; else anywhere in the path
        body = "*" + body
    if not anchored_end:
        body += "*"
    return body


def path_globs(pattern: str) -> list[str] | None:
    """Globs that match exactly the paths in which `pattern` finds a match, or None."""
    try:
        parsed = _parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return None
    flags = parsed.state.flags
    if flags & ~(re.IGNORECASE | re.UNICODE):
        return None  # multiline, dotall, verbose: other meanings of ^ $ .
    try:
        alternatives = _alternatives(parsed, bool(flags & re.IGNORECASE))
        globs = [_glob(tokens) for tokens in alternatives]
    except (_Untranslatable, RecursionError):
        return None
    return list(dict.fromkeys(globs)) or None
