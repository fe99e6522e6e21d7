"""The `config-write` rule kind: a tool call that writes wukong-lint's project config,
judged by what the config would say afterwards.

A project config may tighten the live hook's policy, not loosen it (config/loosening.py):
the hook ignores an unapproved loosening anyway, but the attempt is an agent switching its
guard off, and `check` (run by the user and CI) applies the config as written. So a write of
`.wukong-lint.yaml` / `.yml` (or of `[tool.wukong-lint]` in `pyproject.toml`) is a finding
when its new content loosens a guarded category, when it would not be a valid config, when
it removes the config (`rm`, `mv` away, a `pyproject.toml` without its table), and when the
new content cannot be told (`curl -o`, `yq -i`, interpreter code, `cp` of a file that is
not there yet). A tightening or neutral write is not.

The new content is worked out without running anything:

- Write (and an MCP write_file): its `content`; Edit and MultiEdit: the edits applied to
  the file on disk (an edit whose old text is not there fails, and is not a finding);
- the shell: `>` / `>>` / `tee [-a]` of what `echo`, `printf` or a heredoc print, `cp` /
  `install` / `ln` / `mv` from a file on disk, `sed -i` of one `s///` command; anything
  else that writes the file (paths.py's accesses) is unknown.

    kind: config-write
    names: ['.wukong-lint.yaml', '.wukong-lint.yml']   # pyproject.toml counts by its table
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from wukong_lint.engine.matchers import Hit
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.model import Unit
from wukong_lint.model.events import EDIT_TOOLS, event_paths

PYPROJECT = "pyproject.toml"
REMOVED = "\0removed"  # the new content of a config a command deletes
_TABLE = re.compile(r"(?m)^\s*\[\s*tool\s*\.\s*[\"']?wukong-lint")


def _is_config(word: str, names: frozenset[str]) -> bool:
    base = word.rstrip("/").rsplit("/", 1)[-1]
    return base in names or base == PYPROJECT


def _resolve(word: str, cwd: str, cmd_cwd: str = ".") -> str:
    path = os.path.expanduser(word.replace("${HOME}", "~").replace("$HOME", "~"))
    if not os.path.isabs(path) and cmd_cwd not in (".", "?"):
        folder = os.path.expanduser(cmd_cwd.replace("$HOME", "~"))
        path = os.path.join(folder, path)
    return os.path.normpath(os.path.join(cwd, path))


def _read(path: str, limit: int) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError:
        return None
    if len(data) > limit:
        return None
    return data.decode("utf-8", "replace")


# --- what a shell command writes ----------------------------------------------------------


def sed_substitute(script: str, text: str, extended: bool = False) -> str | None:
    """`text` after `sed -i SCRIPT` when SCRIPT is one `s` command without an address
    (`s/a/b/`, `s|a|b|g`); None for any other script (not emulated)."""
    script = script.strip().rstrip(";").strip()
    if len(script) < 4 or script[0] != "s" or script[1].isalnum() or script[1] in "\\\n ":
        return None
    delimiter = script[1]
    parts: list[str] = []
    current: list[str] = []
    index = 2
    while index < len(script):
        char = script[index]
        if char == "\\" and index + 1 < len(script):
            nxt = script[index + 1]
            current.append(nxt if nxt == delimiter else char + nxt)
            index += 2
            continue
        if char == delimiter:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        index += 1
    if len(parts) != 2:
        return None
    pattern, replacement = parts
    flags = "".join(current)
    if not re.fullmatch(r"[gIi0-9]*", flags):
        return None
    try:
        compiled = re.compile(
            pattern if extended else _bre(pattern), re.I if "I" in flags or "i" in flags else 0
        )
    except re.error:
        return None
    repl = _replacement(replacement)
    count = 0 if "g" in flags else 1
    try:
        return "".join(
            compiled.sub(repl, line, count=count) for line in text.splitlines(keepends=True)
        )
    except (re.error, IndexError):
        return None


def _bre(pattern: str) -> str:
    """A POSIX basic regular expression as a Python one: `\\(` groups, `(` is literal."""
    out = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            nxt = pattern[index + 1]
            out.append(nxt if nxt in "(){}+?|" else "\\" + nxt)
            index += 2
            continue
        out.append("\\" + char if char in "(){}+?|" else char)
        index += 1
    return "".join(out)


def _replacement(text: str) -> str:
    out = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            nxt = text[index + 1]
            out.append(
                f"\\{nxt}" if nxt.isdigit() else "\n" if nxt == "n" else nxt.replace("\\", "\\\\")
            )
            index += 2
            continue
        out.append("\\g<0>" if char == "&" else "\\\\" if char == "\\" else char)
        index += 1
    return "".join(out)


def shell_writes(
    command: str, cwd: str, names: frozenset[str], limit: int
) -> Iterator[tuple[str, str | None, str, str]]:
    """(config path, its new content or None when unknown or REMOVED, the word as written,
    how) for each config a command line writes."""
    from wukong_lint.shell.model import _printed
    from wukong_lint.shell.parse import WRITE_REDIRECTS, parse, split_options
    from wukong_lint.shell.paths import shell_accesses

    try:
        script = parse(command)
    except Exception:
        return
    judged: set[str] = set()
    for cmd in script.commands:
        name = cmd.name
        options, positional = split_options(cmd.argv)
        for op, word in cmd.redirects:
            if op in WRITE_REDIRECTS and _is_config(word, names):
                path = _resolve(word, cwd, cmd.cwd)
                judged.add(path)
                printed = _printed(cmd)
                if printed is None and name == "cat" and len(positional) == 1:
                    printed = _read(_resolve(positional[0], cwd, cmd.cwd), limit)  # cat F > cfg
                if printed is not None and printed and not printed.endswith("\n"):
                    printed += "\n"
                yield path, _appended(path, printed, op in (">>", "&>>"), limit), word, op
        if name not in _WRITERS:
            continue
        for word in positional:
            if _is_config(word, names):
                path = _resolve(word, cwd, cmd.cwd)
                content = _content(cmd, name, options, positional, word, cwd, limit)
                judged.add(path)
                if content is not _UNCHANGED:
                    yield path, content, word, name
    # whatever else writes a config (perl -i, yq -i, curl -o, interpreter code, chmod...)
    for word, mode in shell_accesses(command):
        if mode != "write" or not _is_config(word, names):
            continue
        path = _resolve(word, cwd)
        tail = "/" + os.path.normpath(word).lstrip("./")
        if path in judged or any(p.endswith(tail) for p in judged):
            continue  # (judged above, or the same word after a `cd`)
        judged.add(path)
        yield path, None, word, "a write"


# programs whose file words `_content` works out (the rest of the writers are unknown)
_WRITERS = frozenset(["rm", "unlink", "shred", "truncate", "mv", "cp", "install", "ln", "tee",
                      "sed", "gsed", "git", "touch"])  # fmt: skip
_UNCHANGED = "\0unchanged"  # a word of a writer that it does not write (cp's source)


def _appended(path: str, printed: str | None, append: bool, limit: int) -> str | None:
    if printed is None:
        return None
    if not append:
        return printed
    current = _read(path, limit)
    if current is None and os.path.exists(path):
        return None
    current = current or ""
    return current + ("" if not current or current.endswith("\n") else "\n") + printed


def _content(
    cmd: Any,
    name: str,
    options: list[str],
    positional: list[str],
    word: str,
    cwd: str,
    limit: int,
) -> str | None:
    """The new content of config `word` after one command (None: unknown)."""
    path = _resolve(word, cwd, cmd.cwd)
    last = positional[-1] == word
    if name in ("rm", "unlink", "shred", "truncate") or (name == "mv" and not last):
        return REMOVED
    if name == "touch":
        return _UNCHANGED  # (an empty new file is no config to loosen anything)
    if name == "git":
        if positional[:1] in (["rm"], ["mv"]) and "--cached" not in options:
            return REMOVED if positional[0] == "rm" or not last else None
        if positional[:1] in (["checkout"], ["restore"]):
            return None  # another version of it, from git
        return _UNCHANGED
    if name in ("cp", "install", "mv", "ln"):
        if not (last and len(positional) >= 2):
            return _UNCHANGED  # (copied from: unchanged)
        if name == "ln":
            return None  # a link: the config would say whatever its target says later
        return _read(_resolve(positional[-2], cwd, cmd.cwd), limit)
    if name == "tee":
        if cmd.heredoc is None:
            return None
        printed = cmd.heredoc if cmd.heredoc.endswith("\n") else cmd.heredoc + "\n"
        return _appended(path, printed, "-a" in options or "--append" in options, limit)
    # sed, gsed
    inline = any(o.startswith(("-i", "--in-place")) or
                 (o[:1] == "-" and o[1:2] != "-" and "i" in o) for o in options)  # fmt: skip
    if not inline:
        return _UNCHANGED  # (sed without -i prints: the file stays as it is)
    scripts = [p for p in positional if p != word]
    current = _read(path, limit)
    if current is None or len(scripts) != 1:
        return None
    extended = any(o in ("-E", "-r", "--regexp-extended") or
                   (o[:1] == "-" and o[1:2] != "-" and ("E" in o or "r" in o))
                   for o in options)  # fmt: skip
    return sed_substitute(scripts[0], current, extended)


# --- what a file tool writes --------------------------------------------------------------


def tool_writes(
    event: Any, cwd: str, names: frozenset[str], limit: int
) -> Iterator[tuple[str, str | None, str, str]]:
    from wukong_lint.model.tools import EDIT, tool_kind

    tool = event.tool or ""
    if tool not in EDIT_TOOLS and tool_kind(tool) != EDIT:
        return
    data = event.input if isinstance(event.input, dict) else {}
    for word in event_paths(event):
        if not _is_config(word, names):
            continue
        path = _resolve(word, cwd)
        if isinstance(data.get("content"), str) and tool not in ("Edit", "MultiEdit"):
            yield path, data["content"], word, tool
            continue
        edits = data.get("edits") if tool == "MultiEdit" else [data] if tool == "Edit" else None
        if not isinstance(edits, list):
            yield path, None, word, tool
            continue
        text = _read(path, limit)
        for edit in edits:
            if text is None or not isinstance(edit, dict):
                break
            old, new = edit.get("old_string"), edit.get("new_string")
            if not isinstance(old, str) or not isinstance(new, str) or old not in text:
                text = None  # the edit fails: nothing is written
                break
            text = text.replace(old, new, -1 if edit.get("replace_all") else 1)
        if text is not None:
            yield path, text, word, tool


# --- the verdict ---------------------------------------------------------------------------


def judge(path: str, new: str | None, command_text: str, profile: str, limit: int) -> str | None:
    """Why writing `new` (None: unknown, REMOVED) to config `path` loosens the guard, or
    None when it does not."""
    pyproject = os.path.basename(path) == PYPROJECT
    current = _read(path, limit)
    if new == REMOVED:
        if pyproject and not (current and _TABLE.search(current)):
            return None
        return "removes wukong-lint's project policy"
    if new is None:
        if (
            pyproject
            and not (current and _TABLE.search(current))
            and "wukong" not in (command_text.lower())
        ):
            return None  # (a pyproject.toml edit that names no wukong-lint table)
        return "cannot tell what the policy becomes"
    if current is not None and new == current:
        return None  # the same content again: nothing changes
    settings = _settings(path, new, pyproject)
    if isinstance(settings, str):
        return settings
    if settings is None:
        if pyproject and current and _TABLE.search(current):
            return "removes wukong-lint's project policy ([tool.wukong-lint])"
        return None
    found = _loosenings(settings, path, profile)
    if isinstance(found, str):
        return found
    if found and current is not None:
        # only what the write adds: the file's present loosening is the user's (the hook
        # applies it only when approved), and a tightening edit beside it is no finding
        before = _settings(path, current, pyproject)
        if isinstance(before, dict):
            had = _loosenings(before, path, profile)
            if not isinstance(had, str):
                known = {(item.key, item.detail) for item in had}
                found = [item for item in found if (item.key, item.detail) not in known]
    if not found:
        return None
    from wukong_lint.config.loosening import describe

    return f"loosens {describe(found)}"


def _loosenings(settings: dict[str, Any], path: str, profile: str) -> list[Any] | str:
    from wukong_lint.config.loosening import guarded, loosenings
    from wukong_lint.config.model import validate
    from wukong_lint.util.errors import UsageError

    try:
        config = validate(settings, path)
        _check_names(config)
    except UsageError as err:
        return f"would not be a valid config ({err})"
    wukong = profile == "wukong"
    return loosenings(config, guarded(wukong), wukong_project=wukong)


def _check_names(config: Any) -> None:
    """UsageError when the config names a rule, category or prefix that does not exist (the
    hook would refuse every call with it, as `check` refuses to run)."""
    from wukong_lint.config.selectors import validate_selection
    from wukong_lint.engine.loader import load_rules

    dirs = tuple(d for d in config.rule_dirs if os.path.isdir(d))
    validate_selection(load_rules(dirs, details=False).rules, config=config)


def _settings(path: str, text: str, pyproject: bool) -> dict[str, Any] | str | None:
    """The config's settings in `text` (None: a pyproject.toml without the table), or why
    they cannot be read."""
    if pyproject:
        if "wukong" not in text:
            return None
        try:
            import tomllib  # type: ignore[import-not-found,unused-ignore]
        except ImportError:  # Python 3.10
            return "cannot tell what the policy becomes (no TOML reader)"
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError) as err:
            return f"would not be a valid pyproject.toml ({err})"
        table = data.get("tool", {}).get("wukong-lint") if isinstance(data, dict) else None
        return table if isinstance(table, dict) else None
    import yaml

    from wukong_lint.util.yaml_strict import load

    try:
        data = load(text)
    except (yaml.YAMLError, RecursionError) as err:
        return f"would not be valid YAML ({str(err).splitlines()[0]})"
    if data is None:
        return {}
    if not isinstance(data, dict):
        return "would not be a config (not a mapping of settings)"
    return data


def match_config_write(rule: CompiledRule, unit: Unit, offsets: Any) -> Iterator[Hit]:
    event = getattr(unit, "event", None)
    if event is None or event.kind != "call":
        return
    params = rule.params or {}
    names = frozenset(params.get("names") or ())
    limit = int(params.get("max_size") or 1 << 20)
    cwd = event.ctx.cwd or os.getcwd()
    if event.command is not None:
        writes = shell_writes(event.command, cwd, names, limit)
    else:
        writes = tool_writes(event, cwd, names, limit)
    seen = set()
    for path, new, word, how in writes:
        if path in seen:
            continue
        seen.add(path)
        why = judge(path, new, unit.text, event.ctx.profile, limit)
        if why is None:
            continue
        start = unit.text.find(word)
        start, end = (start, start + len(word)) if start >= 0 else (0, 0)
        yield Hit(start, end, start, end, f"{how} of {word}: {why}")
