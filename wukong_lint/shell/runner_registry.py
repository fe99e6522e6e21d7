"""The code-runner registry as data (shell/runners.yaml, read at run time from the
runners.json made from it) and the reading of a program's options by it: what each program's
options take, which of them give a script, code or a file, and which make it run nothing.
shell/runners.py and shell/runner_tools.py read what a command runs with it.

`python -m wukong_lint.shell.runner_registry --write` remakes runners.json from the YAML
after validating it (shell/runner_schema.py); without `--write` it checks that the two
agree. The JSON keeps the hook free of a YAML parser and of pydantic.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import shlex
from collections.abc import Callable
from typing import Any

SCRIPT = "\0script"
CODE = "\0code"
# A command standing for code that runs but cannot be seen from the line: judged by the
# `dangerous-command.unseen-script` rule (its words: the reason, then what runs it).
UNSEEN = "wukong-lint-unseen-script"

Item = tuple[str, ...]
Resolve = Callable[[str], "str | None"]

_HERE = os.path.dirname(os.path.abspath(__file__))
JSON_PATH = os.path.join(_HERE, "runners.json")
YAML_PATH = os.path.join(_HERE, "runners.yaml")
STDIN_WORDS = frozenset(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])
# what a value that names a boolean or nothing is: not a command (`core.editor=true` is)
_NOT_COMMANDS = frozenset(["", "false", "no", "off", "0", "1", "yes", "on", "none"])
# the network programs whose output, run as code, is downloaded code (as `curl ... | sh`)
FETCHERS = frozenset(["curl", "wget", "fetch", "http", "https", "aria2c", "nc", "ncat", "xh",
                      "httpie", "lwp-request", "GET"])  # fmt: skip


def _load() -> dict[str, Any]:
    try:
        with open(JSON_PATH, encoding="utf-8") as handle:
            data: dict[str, Any] = json.load(handle)
    except FileNotFoundError:  # (being made: `--write`)
        return {"programs": [], "environment": []}
    return data


DATA = _load()
PROGRAMS: dict[str, dict[str, Any]] = {}
for _spec in DATA["programs"]:
    for _name in _spec["names"]:
        # (keyed in lower case, as shell/model.program_name gives names: `Rscript`)
        PROGRAMS.setdefault(_name.lower(), _spec)
_PATTERNS = [(re.compile(s["name_regex"]), s) for s in DATA["programs"] if s.get("name_regex")]
ENVIRONMENT: dict[str, dict[str, Any]] = {
    name: var for var in DATA["environment"] for name in var["names"]
}
NAMES = frozenset(PROGRAMS)
_SPEC_CACHE: dict[str, dict[str, Any] | None] = {}


def spec_of(name: str) -> dict[str, Any] | None:
    """The registry entry of a program name, or None (most programs). Names are compared
    as shell/model.program_name gives them: in lower case, without `.exe` (`Rscript`,
    `bash.EXE`)."""
    found = PROGRAMS.get(name)
    if found is None and not name.islower():
        name = name.lower()
        found = PROGRAMS.get(name)
    if found is None and name.endswith((".exe", ".cmd", ".bat", ".com")):
        name = name[:-4]
        found = PROGRAMS.get(name)
    if found is not None or not _PATTERNS:
        return found
    if name in _SPEC_CACHE:
        return _SPEC_CACHE[name]
    for pattern, spec in _PATTERNS:
        if pattern.fullmatch(name):
            found = spec
            break
    if len(_SPEC_CACHE) < 4096:
        _SPEC_CACHE[name] = found
    return found


def language_of(name: str) -> str | None:
    """The language of an interpreter program (`python3.12` -> python), or None."""
    spec = spec_of(name)
    if spec is None or spec["how"] != "interpreter":
        return None
    return spec.get("language")  # type: ignore[no-any-return]


# -- options --------------------------------------------------------------------------------


class Scan:
    """What a program's options say: the scripts, code and files they give, where its
    positional words start, and whether an option makes it run nothing."""

    __slots__ = ("codes", "dash", "files", "index", "items", "lookup", "module", "run_argv")

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.codes: list[str] = []
        self.files: list[str] = []
        self.index = 0
        self.lookup = False
        self.dash = False
        self.module = False
        self.run_argv = False  # `watch -x`: the words run without a shell


def _table(spec: dict[str, Any], key: str) -> frozenset[str]:
    return spec.get("_" + key) or frozenset()  # (made by _prepare)


def _strip(spec: dict[str, Any], option: str, value: str) -> str | None:
    """A script option's value with its prefix removed (`exec=`), or None when the option
    only runs a value with that prefix (`--checkpoint-action=dot` runs nothing)."""
    for prefix in spec.get("strip", ()):
        if value.startswith(prefix):
            return value[len(prefix) :]
    if option in spec.get("only_stripped", ()):
        return None
    return value


def _take(spec: dict[str, Any], scan: Scan, option: str, value: str) -> None:
    """Record what option `option` with `value` runs."""
    if option in _table(spec, "script_options"):
        text = _strip(spec, option, value)
        if text and text.strip().lower() not in _NOT_COMMANDS:
            scan.items.append((SCRIPT, text))
    elif option in _table(spec, "code_options"):
        scan.codes.append(value)
    elif option in _table(spec, "file_options"):
        scan.files.append(value)
    elif option in _table(spec, "encoded_options"):
        decoded = _utf16_base64(value)
        if decoded:
            scan.items.append((SCRIPT, decoded))
    elif option in spec.get("key_options", {}):
        key, text = [*re.split(r"[=\s]", value.strip(), maxsplit=1), ""][:2]
        if key.lower() in _table(spec, "keys") and text.strip():
            scan.items.append((SCRIPT, text))
    elif spec.get("module_option") == option:
        scan.module = True


def _takes_value(spec: dict[str, Any], option: str) -> bool:
    return option in _table(spec, "valued")


def scan(
    spec: dict[str, Any], args: tuple[str, ...], start: int = 0, anywhere: bool = False
) -> Scan:
    """Read options from `args[start:]` as the program reads them; stop at the first
    positional word (or read them all with `anywhere`, skipping the positional words)."""
    found = Scan()
    lookup = _table(spec, "lookup_options")
    bundles = spec.get("bundles", True)
    fold = spec["how"] == "windows"
    i = start
    while i < len(args):
        word = args[i]
        if fold:
            word = word.lower()
        if word == "--":
            found.dash = True
            i += 1
            break
        if not word.startswith(("-", "/" if fold else "-")) or word == "-":
            if not anywhere:
                break
            i += 1
            continue
        if word in lookup:
            found.lookup = True
        if word in _table(spec, "exec_options"):
            found.run_argv = True
        if word.startswith("--") and "=" in word:
            option = word.partition("=")[0]
            _take(spec, found, option, args[i][len(option) + 1 :])
            if option in lookup:
                found.lookup = True
            i += 1
            continue
        if _takes_value(spec, word):
            if i + 1 < len(args):
                _take(spec, found, word, args[i + 1])
            i += 2
            continue
        if bundles and len(word) > 2 and word[1] != "-" and word[0] == "-":
            if _takes_value(spec, word[:2]):  # an attached value: -n19, -MFile::Path
                _take(spec, found, word[:2], args[i][2:])
                i += 1
                continue
            taken = False
            for at, letter in enumerate(word[1:], 2):  # a bundle: python -Bc CODE, -qc
                option = "-" + letter
                if option in lookup:
                    found.lookup = True
                if _takes_value(spec, option):
                    if at < len(word):
                        _take(spec, found, option, args[i][at:])
                        i += 1
                    else:
                        if i + 1 < len(args):
                            _take(spec, found, option, args[i + 1])
                        i += 2
                    taken = True
                    break
            if taken:
                continue
        i += 1
    found.index = i
    return found


def _utf16_base64(value: str) -> str | None:
    """PowerShell's -EncodedCommand: base64 of UTF-16LE text."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=False)
        return raw.decode("utf-16-le", "replace")
    except (binascii.Error, ValueError):
        return None


def content(word: str, stdin: str | None, resolve: Resolve | None) -> str | None:
    """What a file word holds when the line shows it: stdin for `-` and `/dev/stdin`, what
    a `<(...)` prints when it is literal; else None."""
    if word in STDIN_WORDS:
        return stdin
    if word.startswith(("<(", ">(")) and resolve is not None:
        return resolve(word)
    return None


def split_words(text: str) -> list[str]:
    """A string split as the shell would split it, or on blanks when its quotes do not
    close."""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


# -- the registry's tables ------------------------------------------------------------------


_VALUED = ("script_options", "code_options", "file_options", "encoded_options", "value_options")


def _prepare(spec: dict[str, Any]) -> None:
    """Option lists as sets, once (`_valued`: every option that takes the next word)."""
    for key in ("script_options", "code_options", "file_options", "lookup_options",
                "exec_options", "encoded_options", "value_options"):  # fmt: skip
        values = spec.get(key) or []
        if spec["how"] == "windows":
            values = [v.lower() for v in values]
        spec["_" + key] = frozenset(values)
    keys = [k.lower() for words in spec.get("key_options", {}).values() for k in words]
    spec["_keys"] = frozenset(keys)
    spec["_valued"] = frozenset().union(
        *(spec["_" + k] for k in _VALUED),
        spec.get("key_options", {}),
        [spec["module_option"]] if spec.get("module_option") else [],
    )
    for sub in (spec.get("subcommands") or {}).values():
        _prepare(sub)


for _spec in DATA["programs"]:
    _prepare(_spec)


# -- making runners.json --------------------------------------------------------------------


def build(yaml_text: str) -> dict[str, Any]:
    """The registry as runners.json holds it: validated, `@name` option sets expanded,
    docs and examples dropped."""
    import io

    from wukong_lint.shell.runner_schema import Registry
    from wukong_lint.util.yaml_strict import load

    raw = load(io.StringIO(yaml_text))
    Registry.model_validate(raw)
    sets = raw.get("option_sets", {})

    def expand(value: Any) -> Any:
        if isinstance(value, list):
            out: list[Any] = []
            for item in value:
                if isinstance(item, str) and item.startswith("@"):
                    if item[1:] not in sets:
                        raise ValueError(f"unknown option set {item}")
                    out += sets[item[1:]]
                else:
                    out.append(expand(item))
            return out
        if isinstance(value, dict):
            return {k: expand(v) for k, v in value.items() if k not in ("docs", "examples")}
        return value

    registry = {
        "programs": [expand(p) for p in raw["programs"]],
        "environment": [expand(v) for v in raw.get("environment", [])],
    }
    Registry.model_validate(registry)
    return registry


def dump(registry: dict[str, Any]) -> str:
    return json.dumps(registry, separators=(",", ":"), sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    import sys

    args = sys.argv[1:] if argv is None else argv
    with open(YAML_PATH, encoding="utf-8") as handle:
        text = dump(build(handle.read()))
    if "--write" in args:
        from wukong_lint.util.fsutil import atomic_write_text

        atomic_write_text(JSON_PATH, text)
        return 0
    with open(JSON_PATH, encoding="utf-8") as handle:
        current = handle.read()
    if current != text:
        print(f"{JSON_PATH} is out of date: python -m wukong_lint.shell.runners --write")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
