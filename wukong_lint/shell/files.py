"""The shell parts of files that hold shell commands: scripts, Dockerfile RUN instructions,
Makefile recipes, CI YAML (`.github/workflows/*.yml` `run:`, `.gitlab-ci.yml` `script:`) and
package.json `scripts`.

`shell_text` returns a copy of the text of the same length in which everything that is not
shell is blanked (newlines kept), so that offsets and line numbers of findings are those of the
real file. Which files qualify is decided by `shell_file_type` (engine/rules.py, from the path
alone, so other files are never read for commands, nor this module imported).
"""

from __future__ import annotations

import re

from wukong_lint.engine.rules import shell_file_type

_BLOCK = re.compile(r"[|>][+-]?\d*[+-]?\s*(?:#.*)?$")
_GITHUB_RUN = re.compile(r"^(?P<indent>[ \t]*)(?:-[ \t]+)?run:(?:[ \t]+(?P<value>.*))?$")
_GITLAB_SCRIPT = re.compile(
    r"^(?P<indent>[ \t]*)(?:-[ \t]+)?(?:before_|after_)?script:(?:[ \t]+(?P<value>.*))?$"
)
_DOCKER_RUN = re.compile(r"^[ \t]*RUN[ \t]+((?:--\S+[ \t]+)*)", re.IGNORECASE)
_JSON_PAIR = re.compile(r'^[ \t]*"(?:[^"\\]|\\.)*"[ \t]*:[ \t]*"((?:[^"\\]|\\.)*)"')


def _blank(line: str) -> str:
    return " " * len(line)


def _keep(line: str, start: int, end: int | None = None) -> str:
    end = len(line) if end is None else end
    return " " * start + line[start:end] + " " * (len(line) - end)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _scalar(line: str, start: int) -> str:
    """An inline YAML value starting at `start`: its quotes blanked, a trailing comment cut."""
    value = line[start:].rstrip()
    end = start + len(value)
    if value[:1] in ("'", '"') and len(value) >= 2 and value[-1] == value[0]:
        return _keep(line, start + 1, end - 1)
    return _keep(line, start, end)


def _yaml(lines: list[str], key: re.Pattern[str], list_items: bool) -> list[str]:
    out = [_blank(line) for line in lines]
    index = 0
    while index < len(lines):
        match = key.match(lines[index])
        index += 1
        if not match:
            continue
        indent = len(match.group("indent"))
        value = match.group("value") or ""
        if value.strip() and not _BLOCK.match(value.strip()):
            if not value.lstrip().startswith("["):
                out[index - 1] = _scalar(lines[index - 1], match.start("value"))
            continue
        # a block scalar (run: |) or, for GitLab, a list of commands on the next lines
        while index < len(lines):
            line = lines[index]
            if not line.strip():
                index += 1
                continue
            own = _indent(line)
            item = line.lstrip(" \t").startswith("- ")
            if own < indent or (own == indent and not (list_items and item)):
                break
            if list_items and item:
                start = own + 2
                rest = line[start:].strip()
                if rest and not _BLOCK.match(rest):
                    out[index] = _scalar(
                        line, start + len(line[start:]) - len(line[start:].lstrip())
                    )
            elif not line.lstrip().startswith("#") or not list_items:
                out[index] = line
            index += 1
    return out


def _docker(lines: list[str]) -> list[str]:
    out = [_blank(line) for line in lines]
    running = False
    for index, line in enumerate(lines):
        if running:
            if line.lstrip().startswith("#") or not line.strip():
                continue  # Docker drops comment lines inside an instruction
            out[index] = line
            running = line.rstrip().endswith("\\")
            continue
        match = _DOCKER_RUN.match(line)
        if match and not line[match.end() :].lstrip().startswith("["):
            out[index] = _keep(line, match.end())
            running = line.rstrip().endswith("\\")
    return out


def _make(lines: list[str]) -> list[str]:
    out = [_blank(line) for line in lines]
    for index, line in enumerate(lines):
        if not line.startswith("\t"):
            continue
        start = 1
        while start < len(line) and line[start] in "@-+ \t":
            start += 1
        out[index] = _keep(line, start).replace("$$", " $")
    return out


def _npm(lines: list[str]) -> list[str]:
    out = [_blank(line) for line in lines]
    inside = False
    for index, line in enumerate(lines):
        if not inside:
            inside = re.match(r'^[ \t]*"scripts"[ \t]*:[ \t]*\{[ \t]*$', line) is not None
            continue
        if line.strip().startswith("}"):
            inside = False
            continue
        match = _JSON_PAIR.match(line)
        if match:
            kept = _keep(line, match.start(1), match.end(1))
            out[index] = kept.replace('\\"', ' "').replace("\\\\", " \\")
    return out


def shell_text(path: str, text: str) -> str | None:
    """The shell parts of `text` (other characters blanked), or None for other files."""
    kind = shell_file_type(path)
    if kind is None:
        return None
    if kind == "sh":
        return text
    lines = text.split("\n")
    if kind == "docker":
        out = _docker(lines)
    elif kind == "make":
        out = _make(lines)
    elif kind == "github":
        out = _yaml(lines, _GITHUB_RUN, list_items=False)
    elif kind == "gitlab":
        out = _yaml(lines, _GITLAB_SCRIPT, list_items=True)
    else:
        out = _npm(lines)
    return "\n".join(out)
