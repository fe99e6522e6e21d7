"""Which files a command writes, beyond `>` redirections and the plain writers of paths.py.

The `path` rule kind asks whether a tool call reads or writes a path. Besides redirections,
`rm`, `cp`'s destination and the like (paths.py), files are written by:

- programs that edit in place, given an option (`sed -i`, `perl -pi`, `ruby -i`, `yq -i`,
  `gawk -i inplace`) or always (`sd`, `sponge`, `dos2unix`, `ed`);
- programs with an output file option (`curl -o`, `wget -O`, `sort -o`, `openssl -out`);
- `mv`, whose sources are gone afterwards (paths.py counts only its destination);
- interpreter code (`python -c`, a heredoc into `python3 -`, `node -e`, `perl -e`,
  `ruby -e`, `php -r`): the paths its write calls are given (`open` with a writing mode,
  `Path.write_text`, `json.dump` into such a file, `shutil.copy`'s destination,
  `os.replace`, `fs.writeFileSync`, `File.write`, perl's `open` for `>`), as a literal,
  a name bound to one, or a name a loop takes from a literal glob
  (`for p in glob.glob(os.path.expanduser('~/.cache/x/*'))`).

It never guesses a value: a path built at run time is not a path here (the shell model
judges what it cannot resolve). Imported by accesses.py only for the commands above.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# program -> the options that make it edit its file arguments in place (None: always)
IN_PLACE: dict[str, tuple[str, ...] | None] = {
    "sed": ("-i", "--in-place"),
    "gsed": ("-i", "--in-place"),
    "perl": ("-i",),
    "ruby": ("-i",),
    "yq": ("-i", "--inplace"),
    "gawk": ("-i",),  # -i inplace
    "awk": ("-i",),
    "sd": None,
    "sponge": None,
    "dos2unix": None,
    "unix2dos": None,
    "ed": None,
    "ex": None,
}
# program -> options whose value is a file the program writes
OUTPUT_OPTIONS: dict[str, frozenset[str]] = {
    "curl": frozenset({"-o", "--output"}),
    "wget": frozenset({"-O", "--output-document"}),
    "sort": frozenset({"-o", "--output"}),
    "openssl": frozenset({"-out"}),
    "ssh-keygen": frozenset({"-f"}),
    "uniq": frozenset(),
    "git": frozenset({"--output", "-o"}),  # git archive -o, git format-patch -o
}
# options of in-place programs whose value is not a file (their script, an expression)
_SCRIPT_OPTIONS = {
    "sed": frozenset({"-e", "--expression", "-f", "--file"}),
    "perl": frozenset({"-e", "-E", "-M", "-I"}),
    "ruby": frozenset({"-e", "-r", "-I"}),
    "yq": frozenset({"--expression", "-e", "--front-matter", "-o", "-p"}),
    "gawk": frozenset({"-f", "-v", "-i", "-F"}),
    "awk": frozenset({"-f", "-v", "-i", "-F"}),
}


def _in_place_option(name: str, options: list[str], wanted: tuple[str, ...]) -> bool:
    for option in options:
        if option in wanted or option.startswith(("--in-place", "--inplace")):
            return True
        # bundled or with a backup suffix: sed -i.bak, sed -Ei, perl -pi, perl -i.orig
        if not option.startswith("--") and option[:1] == "-" and "-i" in wanted:
            letters = option[1:]
            if name in ("perl", "ruby"):
                for letter in letters:  # perl -pi, -i.bak, -lpi; not -Mstrict, -e CODE
                    if letter == "i":
                        return True
                    if letter in "eEMmIrCx":
                        break
            elif letters.startswith("i") or (name in ("sed", "gsed") and "i" in letters):
                return True
    return False


def program_writes(name: str, argv: tuple[str, ...]) -> list[str] | None:
    """The files an in-place editor or a program with an output option writes (None: the
    program is neither, or not used that way)."""
    args = list(argv[1:])
    if name in IN_PLACE:
        wanted = IN_PLACE[name]
        options = [a for a in args if a.startswith("-") and a != "-"]
        if wanted is not None and not _in_place_option(name, options, wanted):
            return None
        return _file_arguments(name, args)
    outputs = OUTPUT_OPTIONS.get(name)
    if outputs:
        found = []
        for index, arg in enumerate(args):
            if arg in outputs and index + 1 < len(args):
                found.append(args[index + 1])
            else:
                for option in outputs:
                    if option.startswith("--") and arg.startswith(option + "="):
                        found.append(arg[len(option) + 1 :])
                    elif len(option) == 2 and arg.startswith(option) and arg != option:
                        found.append(arg[2:])  # -ofile
        return found or None
    return None


def _file_arguments(name: str, args: list[str]) -> list[str]:
    """The file operands of an in-place editor: its positional words after its script (the
    first positional word is the script unless given with -e/-f; `sponge FILE`)."""
    script_options = _SCRIPT_OPTIONS.get(name, frozenset())
    positional: list[str] = []
    has_script = False
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            positional += args[index + 1 :]
            break
        if arg.startswith("-") and arg != "-":
            if arg in script_options:
                has_script = has_script or arg in ("-e", "--expression", "-f", "--file", "-E")
                index += 2
                continue
            if name in ("perl", "ruby") and not arg.startswith("--") and "e" in arg[1:]:
                has_script = True  # perl -pie CODE: the code follows
                if arg.endswith("e"):
                    index += 2
                    continue
            index += 1
            continue
        positional.append(arg)
        index += 1
    if name in ("sed", "gsed", "perl", "ruby", "yq", "gawk", "awk", "sd") and not has_script:
        positional = positional[1:]  # sed 's/a/b/' FILE: the first word is the script
        if name == "sd":
            positional = positional[1:]  # sd FIND REPLACE FILE...
        if name in ("gawk", "awk") and positional[:1] == ["inplace"]:
            positional = positional[1:]
    return positional


# --- interpreter code -------------------------------------------------------------------

_Q = r"""(?:[rRbBuUfF]{0,2}"(?:[^"\\\n]|\\.)*"|[rRbBuUfF]{0,2}'(?:[^'\\\n]|\\.)*'|`[^`$]*`)"""
_LITERAL = re.compile(_Q)
# a literal, possibly inside path helpers: expanduser('~/x'), Path("x"), File.expand_path
_WRAPPED = (
    r"(?:(?:os\.path\.)?(?:expanduser|abspath|realpath|normpath)\s*\(\s*|"
    r"(?:pathlib\.)?(?:Path|PurePath|PosixPath)\s*\(\s*|File\.expand_path\s*\(\s*|"
    r"path\.resolve\s*\(\s*|Pathname\.new\s*\(\s*)*"
)
_ASSIGN = re.compile(
    r"(?:^|[\s;({,])(?:my\s+|const\s+|let\s+|var\s+)?\$?([A-Za-z_]\w*)\s*=\s*" + _WRAPPED
    + r"(" + _Q + r")"
)  # fmt: skip
# `for p in glob.glob(...'LITERAL'...)`, `for p in Path('x').glob('*')`, Dir.glob().each |p|
_LOOP = re.compile(
    r"\bfor\s+(?:my\s+)?\$?(\w+)\s+(?:in|of)\s+[^:\n]{0,200}?(" + _Q + r")"
    r"|(?:Dir\.glob|Dir\[)\s*\(?\s*(" + _Q + r")[^|]{0,40}\|\s*(\w+)"
    r"|\bforeach\s+(?:my\s+)?\$(\w+)\s*\([^)]{0,200}?(" + _Q + r")"
)
# Node's file system module, as a name or as `require('fs')`
_FS = (
    r"(?:\b(?:fs|fsp|fse|promises)|\brequire\s*\(\s*['\"](?:node:)?fs(?:-extra|/promises)?"
    r"['\"]\s*\))"
)
# calls that write (or remove) the file given as an argument, and which arguments are the
# files written: "first", "last", "all" (a rename or a move: both ends change); then the
# literals one of which every match holds within its first characters (_near)
_OS_MOVES = ("os.rename", "os.replace", "os.link", "os.symlink")
_OS_CHANGES = (
    "os.remove",
    "os.unlink",
    "os.rmdir",
    "os.truncate",
    "os.chmod",
    "os.chown",
    "os.lchown",
    "os.utime",
)
_PATH_CHANGES = (
    ".write_text",
    ".write_bytes",
    ".unlink",
    ".rmdir",
    ".touch",
    ".chmod",
    ".symlink_to",
    ".hardlink_to",
)
_PHP = ("file_put_contents", "unlink", "chmod", "touch", "rename", "copy", "symlink")
_NODE = ("fs", "promises")
_WRITE_CALLS: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = tuple(
    (re.compile(pattern), which, needles)
    for pattern, which, needles in (
        # Python
        (r"\b(?:io\.|codecs\.|os\.)?open\s*\("
         r"(?=[^)]*,\s*(?:mode\s*=\s*)?[rbuUt]?['\"][^'\"]*[wax+])", "first", ("open",)),
        (r"\bos\.open\s*\((?=[^)]*O_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND))", "first", ("os.open",)),
        (r"\.(?:write_text|write_bytes|unlink|rmdir|touch|chmod|symlink_to|hardlink_to)"
         r"\s*\(", "receiver", _PATH_CHANGES),
        (r"\.open\s*\((?=\s*(?:mode\s*=\s*)?['\"][^'\"]*[wax+])", "receiver", (".open",)),
        (r"\.(?:rename|replace)\s*\(", "receiver+first", (".rename", ".replace")),
        (r"\bshutil\.(?:copy|copy2|copyfile|copytree|copymode|copystat)\s*\(", "last",
         ("shutil.copy",)),
        (r"\bshutil\.(?:move|rmtree)\s*\(", "all", ("shutil.move", "shutil.rmtree")),
        (r"\bos\.(?:rename|renames|replace|link|symlink)\s*\(", "all", _OS_MOVES),
        (r"\bos\.(?:remove|unlink|rmdir|removedirs|truncate|chmod|chown|lchown|utime)"
         r"\s*\(", "first", _OS_CHANGES),
        # Node, Deno, Bun
        (_FS + r"\.(?:writeFile|appendFile|writeFileSync|appendFileSync|"
         r"createWriteStream|truncate|truncateSync|unlink|unlinkSync|rm|rmSync|chmod|"
         r"chmodSync|outputFile|outputFileSync|writeJson|writeJsonSync)\s*\(", "first", _NODE),
        (_FS + r"\.(?:copyFile|copyFileSync|cp|cpSync|copy|copySync)\s*\(", "last", _NODE),
        (_FS + r"\.(?:rename|renameSync|move|moveSync|symlink|symlinkSync)\s*\(", "all", _NODE),
        (r"\bDeno\.(?:writeTextFile|writeFile|remove|truncate)\s*\(", "first", ("Deno.",)),
        (r"\bBun\.write\s*\(", "first", ("Bun.write",)),
        # Ruby, PHP, Perl
        (r"\bFile\.(?:write|binwrite|delete|unlink|chmod|truncate)\s*\(?", "first", ("File.",)),
        (r"\bFile\.open\s*\(?(?=[^)\n]*,\s*['\"][^'\"]*[wa+])", "first", ("File.open",)),
        (r"\bFileUtils\.(?:cp|cp_r|install|touch|rm|rm_f|rm_rf|chmod)\s*\(?", "last",
         ("FileUtils.",)),
        (r"\bFileUtils\.(?:mv|ln|ln_s|ln_sf)\s*\(?", "all", ("FileUtils.",)),
        (r"(?<![.\w$>:])(?:file_put_contents|unlink|chmod|touch|rename|copy|symlink)\s*\(",
         "all", _PHP),
        (r"\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['\"](?:>|>>|\+<|\+>)['\"]\s*,",
         "after-mode", ("open",)),
        (r"\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['\"](?:>>?|\+<)\s*(?=[^'\"]+['\"])",
         "inline", ("open",)),
    )
)  # fmt: skip


def _unquote(token: str) -> str | None:
    body = token.lstrip("rRbBuUfF")
    if len(body) < 2:
        return None
    inner = body[1:-1]
    if token[: len(token) - len(body)].lower().count("f") and "{" in inner:
        return None  # an f-string with a value in it
    return re.sub(r"\\(.)", r"\1", inner)


def _arguments(code: str, start: int) -> str:
    """A call's arguments from `start` (after its opening parenthesis) to the closing one,
    at most 2,000 characters."""
    depth = 1
    for at in range(start, min(len(code), start + 2000)):
        char = code[at]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return code[start:at]
    return code[start : start + 2000]


def _split(arguments: str) -> list[str]:
    """Top-level comma-separated pieces of an argument list, empty ones left out."""
    from wukong_lint.shell.interpreters import split_items

    return [piece for piece in split_items(arguments) if piece]


def _paths_in(piece: str, names: dict[str, list[str]]) -> list[str]:
    """The literal paths a piece of code stands for: its string literals (inside path
    helpers too) and the names bound to literals or to literal globs."""
    found = [v for v in (_unquote(t) for t in _LITERAL.findall(piece)) if v]
    for word in re.findall(r"[A-Za-z_]\w*", piece):
        found += names.get(word, ())
    return found


def _receiver(code: str, start: int, names: dict[str, list[str]]) -> list[str]:
    """The paths of the object a method is called on: `Path('x').write_text`, `p.unlink()`
    (looked for in the 200 characters before the call)."""
    before = code[max(0, start - 200) : start]
    call = re.search(r"(?:\(\s*" + _WRAPPED + r"(" + _Q + r")\s*\)|([A-Za-z_]\w*))\s*$", before)
    if call is None:
        found = re.search(r"\(\s*(" + _Q + r")\s*\)\s*$", before)
        return [v for v in [_unquote(found.group(1))] if v] if found else []
    if call.group(1):
        value = _unquote(call.group(1))
        return [value] if value else []
    return list(names.get(call.group(2) or "", ()))


def _bindings(code: str) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for match in _ASSIGN.finditer(code):
        value = _unquote(match.group(2))
        if value:
            names.setdefault(match.group(1), []).append(value)
    for match in _LOOP.finditer(code):
        groups = match.groups()
        if groups[0] is not None:
            name, token = groups[0], groups[1]
        elif groups[2] is not None:
            name, token = groups[3], groups[2]
        else:
            name, token = groups[4], groups[5]
        value = _unquote(token) if token else None
        if name and value:
            names.setdefault(name, []).append(value)
    return names


MAX_CODE = 200_000


def code_writes(code: str) -> list[str]:
    """The literal paths interpreter code writes, removes or renames (see the module
    docs)."""
    code = code[:MAX_CODE]
    names: dict[str, list[str]] | None = None
    found: list[str] = []
    for pattern, which, needles in _WRITE_CALLS:
        for match in _near(pattern, code, needles):
            if names is None:
                names = _bindings(code)
            if which == "inline":  # open(F, ">path")
                rest = code[match.end() : match.end() + 400]
                value = re.match(r"\s*([^'\"]+)['\"]", rest)
                if value:
                    found.append(value.group(1).strip())
                continue
            if which.startswith("receiver"):
                found += _receiver(code, match.start(), names)
                if which == "receiver":
                    continue
            pieces = _split(_arguments(code, match.end()))
            if which == "after-mode":
                pieces = pieces[2:3] or _split(code[match.end() : match.end() + 400])[:1]
            elif which in ("first", "receiver+first"):
                pieces = pieces[:1]
            elif which == "last":
                pieces = pieces[-1:] if len(pieces) > 1 else pieces
            for piece in pieces:
                found += _paths_in(piece, names)
    return list(dict.fromkeys(p for p in found if _pathish(p)))


_WHOLE = 16_384  # characters: shorter code is searched whole
_BEFORE = 64  # characters a match may start before its literal
_AFTER = 4_096  # characters a match (a call's arguments, a lookahead) may reach past it


def _near(pattern: re.Pattern[str], code: str, needles: tuple[str, ...]) -> Iterator[re.Match[str]]:
    """`pattern.finditer(code)`, searched only where one of its literals stands: a pattern
    that starts with `\b` or an optional group is tried at every character, some 25 ms per
    pattern on a 200 KB module an agent writes (the hook reads it before the Write runs)."""
    if len(code) <= _WHOLE:
        if any(needle in code for needle in needles):
            yield from pattern.finditer(code)
        return
    spans = []
    for needle in needles:
        at = code.find(needle)
        while at >= 0:
            spans.append((max(0, at - _BEFORE), min(len(code), at + len(needle) + _AFTER)))
            at = code.find(needle, at + 1)
    merged: list[list[int]] = []
    for start, stop in sorted(spans):  # (overlapping windows joined: no match found twice)
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], stop)
        else:
            merged.append([start, stop])
    for start, stop in merged:
        # (pos/endpos: `\b` and lookbehinds still see the characters before `pos`)
        yield from pattern.finditer(code, start, stop)


def _pathish(value: str) -> bool:
    if not value or "\n" in value or len(value) > 4096 or "://" in value:
        return False
    return "/" in value or value.startswith(("~", ".", "$")) or "." in value


# --- scripts being written ---------------------------------------------------------------

_SCRIPT_SUFFIXES = (".py", ".pyw", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php")
_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh")
MAX_SCRIPT = 256 << 10


def script_kind(path: str, content: str) -> str | None:
    """How a script being written (by Write, Edit, a heredoc) runs, from its name or its
    first line: "shell", "code" (an interpreter's: read by `code_writes`) or None (not a
    script). paths.py judges what it writes when it runs: what an agent may not write
    directly, written by the script it runs next (the `script` access of path rules)."""
    name = path.rsplit("/", 1)[-1].lower()
    first = content[:128].split("\n", 1)[0]
    if name.endswith(_SHELL_SUFFIXES) or (
        first.startswith("#!") and "sh" in first and "python" not in first
    ):
        return "shell"
    if name.endswith(_SCRIPT_SUFFIXES) or first.startswith("#!"):
        return "code"
    return None
