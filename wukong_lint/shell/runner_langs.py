"""What the command languages of code-running programs run: sed scripts (`e CMD`,
`s/x/CMD/e`, `w FILE`), ex/vim commands (`!CMD`, `system()`, `lua ...`), ed (`!CMD`), Emacs
Lisp (`shell-command`, `delete-directory`), gdb and lldb (`shell CMD`), Tcl and expect
(`spawn`, `exec`), AppleScript (`do shell script`).

`commands(language, code)` returns shell model items (see shell/runners.py): a shell
script, a program's argv, code of another language, or a write (`tee FILE`, `dd of=DEV` for
a block device) and a read (`cat FILE`) of a file, so that the path rules judge them. Each
reader is a small scanner of its language's text, not a parser: what it does not
recognise runs nothing, and it never raises on malformed code.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from wukong_lint.shell.runner_registry import CODE, SCRIPT, UNSEEN, Item, split_words

_MAX_CODE = 200_000
_MAX_FOUND = 200
_DEVICE = re.compile(r"/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper/|loop)")


def _write(path: str) -> Item | None:
    """A program writing `path`, as the command the path rules judge."""
    path = path.strip()
    if not path or path in ("/dev/stdout", "/dev/stderr", "/dev/null", "-"):
        return None
    if _DEVICE.match(path):
        return ("dd", "of=" + path)
    return ("tee", path)


def _read(path: str) -> Item | None:
    path = path.strip()
    return ("cat", path) if path and path not in ("/dev/stdin", "-") else None


# -- sed ------------------------------------------------------------------------------------

_SED_ADDRESS = re.compile(
    r"\s*(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\.)*/[IM]*|\\(.)(?:(?!\1).)*\1[IM]*)?"
    r"(?:\s*,\s*(?:\d+|\$|[+~]\d+|/(?:[^/\\\n]|\\.)*/[IM]*))?\s*!?\s*"
)


def sed(code: str) -> list[Item]:
    """GNU sed: `e CMD` and `e` (the pattern space runs), `s/re/CMD/e`, `w FILE` / `W`,
    the `w FILE` flag of `s`, `r FILE` / `R`."""
    items: list[Item] = []
    i, n = 0, len(code)
    while i < n and len(items) < _MAX_FOUND:
        while i < n and code[i] in " \t\n;{}":
            i += 1
        if i >= n:
            break
        if code[i] == "#":
            i = _line_end(code, i)
            continue
        match = _SED_ADDRESS.match(code, i)
        i = match.end() if match else i
        if i >= n:
            break
        command = code[i]
        i += 1
        if command in "ewWrR":
            end = _line_end(code, i)
            argument = code[i:end].strip()
            i = end
            if command == "e":
                items.append((SCRIPT, argument) if argument else
                             (UNSEEN, "input-lines", "sed"))  # fmt: skip
            elif command in "wW":
                items += [w for w in (_write(argument),) if w]
            else:
                items += [r for r in (_read(argument),) if r]
        elif command in "sy" and i < n:
            delimiter = code[i]
            parts, i = _delimited(code, i + 1, delimiter, 2)
            flags_end = i
            while flags_end < n and code[flags_end] not in ";\n}":
                if code[flags_end] == "w":  # the w flag takes the rest of the line
                    break
                flags_end += 1
            flags = code[i:flags_end]
            if command == "s" and "e" in flags and len(parts) == 2:
                items.append((SCRIPT, parts[1].replace("\\n", "\n")))
            if flags_end < n and code[flags_end] == "w":
                end = _line_end(code, flags_end + 1)
                items += [w for w in (_write(code[flags_end + 1 : end]),) if w]
                flags_end = end
            i = flags_end
        elif command in "aic":
            i = _line_end(code, i)
        elif command in ":btTv":
            while i < n and code[i] not in ";\n}":
                i += 1
    return items


def _line_end(code: str, i: int) -> int:
    end = code.find("\n", i)
    return len(code) if end < 0 else end


def _delimited(code: str, i: int, delimiter: str, count: int) -> tuple[list[str], int]:
    """`count` parts of a `s/a/b/` command after its first delimiter (escapes kept as
    written, an escaped delimiter made plain), and where they end."""
    parts: list[str] = []
    current: list[str] = []
    n = len(code)
    while i < n and len(parts) < count:
        char = code[i]
        if char == "\\" and i + 1 < n:
            following = code[i + 1]
            current.append(following if following == delimiter else char + following)
            i += 2
            continue
        if char == delimiter:
            parts.append("".join(current))
            current = []
        elif char == "\n" and delimiter != "\n":
            break
        else:
            current.append(char)
        i += 1
    return parts, i


# -- ex / vim -------------------------------------------------------------------------------

_VIM_RANGE = re.compile(
    r"\s*:*\s*(?:[%.$]|\d+|'[a-z<>]|/(?:[^/\\]|\\.)*/|\?(?:[^?\\]|\\.)*\?)?"
    r"(?:\s*[,;]\s*(?:[.$]|\d+|'[a-z<>]|/(?:[^/\\]|\\.)*/|[+-]\d*))?\s*"
)
_VIM_WORD = re.compile(r"[A-Za-z]+|!")
_VIM_SHELL_FUNCTIONS = re.compile(
    r"\b(?:system|systemlist|jobstart|termopen|job_start|term_start)\s*\(\s*"
    r"(\[[^\]]*\]|'(?:[^']|'')*'|\"(?:[^\"\\]|\\.)*\")"
)
_VIM_STR = r"'(?:[^']|'')*'|\"(?:[^\"\\]|\\.)*\""
_VIM_DELETE = re.compile(
    r"\bdelete\s*\(\s*(" + _VIM_STR + r"|expand\s*\(\s*(?:" + _VIM_STR + r")\s*\)|\$HOME)"
    r"\s*,\s*['\"]rf?['\"]"
)
_VIM_LANGS = {"lua": "lua", "luado": "lua", "py": "python", "python": "python",
              "py3": "python", "python3": "python", "pyx": "python", "pythonx": "python",
              "py3do": "python", "pydo": "python", "perl": "perl", "perldo": "perl",
              "ruby": "ruby", "rubydo": "ruby", "tcl": "tcl"}  # fmt: skip
_VIM_BANG_WORDS = frozenset(["r", "read", "w", "write", "wq", "x", "xit", "up", "update"])
_VIM_WRITE_WORDS = frozenset(["w", "write", "sav", "saveas", "wq", "x", "xit", "up", "update"])
_VIM_MODIFIERS = frozenset(["sil", "silent", "keepalt", "keepjumps", "keepmarks", "noautocmd",
                            "unsilent", "vert", "vertical", "tab", "lockmarks", "noswapfile",
                            "bel", "belowright", "abo", "aboveleft", "bo", "botright", "to",
                            "topleft", "hide", "confirm", "browse"])  # fmt: skip


def _vim_string(token: str) -> str:
    if token.startswith("'"):
        return token[1:-1].replace("''", "'")
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                  token[1:-1])  # fmt: skip


def vim(code: str, depth: int = 0) -> list[Item]:
    """Ex commands: `!CMD`, `r !CMD`, `w !CMD`, `%!CMD`, `silent !CMD`, `exe "..."`,
    `system("CMD")` in an expression, `delete(path, 'rf')`, `lua ...`, `py3 ...`,
    `terminal CMD`, `w FILE`; `global` and `|`-separated commands."""
    items: list[Item] = []
    for line in code.split("\n")[:2000]:
        rest = line
        while rest.strip() and len(items) < _MAX_FOUND and depth < 4:
            found, rest = _vim_command(rest, depth)
            items += found
    return items


def _vim_command(text: str, depth: int) -> tuple[list[Item], str]:
    """The items of the first ex command of `text`, and the text after it."""
    match = _VIM_RANGE.match(text)
    at = match.end() if match else 0
    word_match = _VIM_WORD.match(text, at)
    if word_match is None:
        bar = text.find("|", at)
        return [], (text[bar + 1 :] if bar >= 0 else "")
    word = word_match.group(0)
    after = text[word_match.end() :]
    if word == "!":  # :!CMD, :%!CMD: the rest of the line is the command
        return ([(SCRIPT, after)] if after.strip() else []), ""
    bang = after.startswith("!")
    args = after[1:] if bang else after
    if word in _VIM_MODIFIERS:
        return [], args
    if word in ("g", "global", "v", "vglobal") and args[:1] and not args[:1].isalnum():
        delimiter = args[0]
        end = args.find(delimiter, 1)
        return (vim(args[end + 1 :], depth + 1) if end > 0 else []), ""
    if word in ("norm", "normal"):
        return [], ""
    if word in _VIM_BANG_WORDS and args.lstrip().startswith("!"):
        command = args.lstrip()[1:]
        return ([(SCRIPT, command)] if command.strip() else []), ""
    if word in _VIM_LANGS:
        return ([(CODE, _VIM_LANGS[word], args.strip())] if args.strip() else []), ""
    if word in ("ter", "term", "terminal"):
        command = re.sub(r"^\s*(?:\+\+\S+\s*)*", "", args)
        return ([(SCRIPT, command)] if command.strip() else []), ""
    bar = _unquoted_bar(args)
    own, rest = (args, "") if bar < 0 else (args[:bar], args[bar + 1 :])
    items: list[Item] = []
    if word in ("exe", "execute"):
        literal = "".join(
            _vim_string(t) for t in re.findall(r"'(?:[^']|'')*'|\"(?:[^\"\\]|\\.)*\"", own)
        )
        if literal and depth < 4:
            items += vim(literal, depth + 1)
    for found in _VIM_SHELL_FUNCTIONS.finditer(own):
        token = found.group(1)
        if token.startswith("["):
            words = [
                _vim_string(t) for t in re.findall(r"'(?:[^']|'')*'|\"(?:[^\"\\]|\\.)*\"", token)
            ]
            if words:
                items.append(tuple(words))
        else:
            items.append((SCRIPT, _vim_string(token)))
    for found in _VIM_DELETE.finditer(own):
        token = found.group(1)
        if token.startswith("expand"):
            token = token[token.index("(") + 1 : token.rindex(")")].strip()
        items.append(("rm", "-rf", "~" if token == "$HOME" else _vim_string(token)))
    if word in _VIM_WRITE_WORDS and own.strip() and not own.lstrip().startswith(("!", "++")):
        items += [w for w in (_write(own.strip()),) if w]
    if word in ("r", "read") and own.strip():
        items += [r for r in (_read(own.strip()),) if r]
    return items, rest


def _unquoted_bar(text: str) -> int:
    quote = ""
    for i, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "|" and (i == 0 or text[i - 1] != "\\"):
            return i
    return -1


# -- ed -------------------------------------------------------------------------------------

_ED_LINE = re.compile(r"^[\d,.$;+\-'a-z/?\s]*?([rweEW]?)\s*!(.*)$")
_ED_WRITE = re.compile(r"^[\d,.$;+\-'\s]*[wW]\s+([^!\s].*)$")


def ed(code: str) -> list[Item]:
    items: list[Item] = []
    for line in code.split("\n")[:5000]:
        shell = _ED_LINE.match(line.strip())
        if shell and shell.group(2).strip():
            items.append((SCRIPT, shell.group(2)))
            continue
        write = _ED_WRITE.match(line.strip())
        if write:
            items += [w for w in (_write(write.group(1)),) if w]
    return items[:_MAX_FOUND]


# -- Emacs Lisp -----------------------------------------------------------------------------

_LISP_STRING = r'"(?:[^"\\]|\\.)*"'
_LISP_VALUE = (
    rf'(?:{_LISP_STRING}|\(getenv\s+"HOME"\)|\(expand-file-name\s+{_LISP_STRING}[^)]*\)|~)'
)
_LISP_SHELL = re.compile(
    r"\((?:shell-command|shell-command-to-string|async-shell-command|call-process-shell-command"
    r"|start-process-shell-command|process-file-shell-command)\s+"
    + (r"(?:" + _LISP_STRING + r"\s+(?:nil|\w+)\s+)?")
    + r"("
    + _LISP_STRING
    + ")"
)
_LISP_PROCESS = re.compile(
    r"\((call-process|process-lines|start-process|process-file)\s+((?:"
    + _LISP_VALUE
    + r"|nil|t|\w+|\s)+)\)"
)
_LISP_DELETE = re.compile(r"\((delete-directory|delete-file)\s+(" + _LISP_VALUE + r")\s*(t)?")


def _lisp_value(token: str) -> str:
    token = token.strip()
    if token.startswith("(getenv"):
        return "~"
    if token.startswith("(expand-file-name"):
        inner = re.search(_LISP_STRING, token)
        return _lisp_value(inner.group(0)) if inner else "?"
    if token.startswith('"'):
        return re.sub(r"\\(.)", r"\1", token[1:-1])
    return token


def elisp(code: str) -> list[Item]:
    items: list[Item] = []
    code = code[:_MAX_CODE]
    for found in _LISP_SHELL.finditer(code):
        items.append((SCRIPT, _lisp_value(found.group(1))))
    for found in _LISP_PROCESS.finditer(code):
        values = [
            _lisp_value(t) for t in re.findall(_LISP_VALUE + r"|nil|\bt\b|\w+", found.group(2))
        ]
        strings = [v for v in values if v not in ("nil", "t")]
        if found.group(1) == "start-process":
            strings = strings[2:] if len(strings) > 2 else []  # its name and buffer first
        if strings:
            items.append(tuple(strings))
    for found in _LISP_DELETE.finditer(code):
        recursive = found.group(1) == "delete-directory" and found.group(3) is not None
        items.append(("rm", "-rf" if recursive else "-f", _lisp_value(found.group(2))))
    return items[:_MAX_FOUND]


# -- gdb / lldb -----------------------------------------------------------------------------

_GDB = re.compile(
    r"^\s*(?:(?:shell|platform\s+shell)\s+(?P<shell>.+)|!(?P<bang>.+)"
    r"|pipe\s+.*?\|\s*(?P<pipe>.+)|\|\s*.*?\|\s*(?P<bar>.+)"
    r"|(?:python|pi|python-interactive|script)\s+(?P<python>.+))$"
)


def gdb(code: str) -> list[Item]:
    items: list[Item] = []
    for line in code.split("\n")[:5000]:
        found = _GDB.match(line)
        if found is None:
            continue
        if found.group("python"):
            items.append((CODE, "python", found.group("python")))
        else:
            command = found.group("shell") or found.group("bang") or found.group("pipe")
            items.append((SCRIPT, command or found.group("bar")))
    return items[:_MAX_FOUND]


# -- Tcl / expect ---------------------------------------------------------------------------


def _tcl_commands(code: str) -> list[list[str]]:
    """The commands of a Tcl text as word lists (braces keep their text; a brace word
    with code in it is read again by the caller)."""
    commands: list[list[str]] = []
    words: list[str] = []
    current: list[str] = []
    depth = 0
    quote = False
    i, n = 0, min(len(code), _MAX_CODE)

    def end_word() -> None:
        if current:
            words.append("".join(current))
            current.clear()

    while i < n:
        char = code[i]
        if char == "\\" and i + 1 < n:
            current.append(code[i + 1] if depth == 0 else char + code[i + 1])
            i += 2
            continue
        if depth:
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    end_word()
                    i += 1
                    continue
            current.append(char)
        elif quote:
            if char == '"':
                quote = False
                end_word()
            else:
                current.append(char)
        elif char == "{" and not current:
            depth = 1
        elif char == '"' and not current:
            quote = True
        elif char in " \t":
            end_word()
        elif char in ";\n":
            end_word()
            if words:
                commands.append(words)
            words = []
        else:
            current.append(char)
        i += 1
    end_word()
    if words:
        commands.append(words)
    return commands


def tcl(code: str, depth: int = 0) -> list[Item]:
    items: list[Item] = []
    for words in _tcl_commands(code)[:5000]:
        head, args = words[0], words[1:]
        if head in ("spawn", "exec"):
            while args and args[0].startswith("-"):  # spawn -noecho, exec -ignorestderr --
                args = args[2:] if args[0] in ("-ignore", "-open", "-leaveopen") else args[1:]
            args = [a for a in args if a != "&" and not a.startswith(("<@", "2>@", ">@"))]
            if args:
                items.append(tuple(args))
        elif head == "system" and args:
            items.append((SCRIPT, " ".join(args)))
        elif head in ("send", "exp_send") and args:
            text = args[-1].replace("\\r", "\n").replace("\\n", "\n").replace("\r", "\n")
            items.append((SCRIPT, text))
        elif head == "file" and args[:1] == ["delete"]:
            rest = [a for a in args[1:] if a not in ("--",)]
            recursive = "-force" in rest
            paths = [a for a in rest if not a.startswith("-")]
            if paths:
                items.append(("rm", "-rf" if recursive else "-f", *paths))
        if depth < 4:  # bodies of proc, if, foreach, while...
            for arg in args:
                if "\n" in arg or ";" in arg or arg.startswith(("spawn", "exec", "system")):
                    items += tcl(arg, depth + 1)
        if len(items) >= _MAX_FOUND:
            break
    return items


# -- AppleScript / JXA ----------------------------------------------------------------------

_APPLESCRIPT = re.compile(
    r"do\s+shell\s+script\s+(\"(?:[^\"\\]|\\.)*\")|doShellScript\s*\(\s*"
    r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`)"
)


def applescript(code: str) -> list[Item]:
    items: list[Item] = []
    for found in _APPLESCRIPT.finditer(code[:_MAX_CODE]):
        token = found.group(1) or found.group(2)
        items.append((SCRIPT, re.sub(r"\\(.)", r"\1", token[1:-1])))
    return items[:_MAX_FOUND]


READERS: dict[str, Callable[[str], list[Item]]] = {
    "sed": sed,
    "vim": vim,
    "ed": ed,
    "elisp": elisp,
    "gdb": gdb,
    "tcl": tcl,
    "applescript": applescript,
}


def commands(language: str, code: str) -> list[Item]:
    reader = READERS.get(language)
    return reader(code[:_MAX_CODE]) if reader is not None else []


__all__ = ["READERS", "commands", "split_words"]
