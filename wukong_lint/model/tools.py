"""What a tool call does, told by its name and its input: runs a command, runs code or SQL,
reads, searches, finds, lists or writes files (issue 26: tools are judged by what they do).

The table is data: Claude Code's and other agents' built-in tools by exact name, then the
words of a name (`mcp__desktop-commander__start_process` -> `start`, `process`) for the
tools an MCP server adds, then the input's keys (any tool whose input has a `command` or
`cmd` field runs a command, whatever its name). A tool that none of these tells is
"unknown": every string of its input that looks like a command is judged as one, and every
one that looks like a path as a file it touches (bounded: `MAX_FIELDS` strings of at most
`MAX_FIELD` characters).

`tool_command(tool, data)` is the shell text a call runs (SQL and code become the `psql -c`
and `python3 -c` they amount to, so that the command rules judge them), or None;
`tool_accesses(tool, data)` the (path, mode) of the files it reads (`read`), writes
(`write`), lists (`list`) or finds by a name pattern (`find`). A search over a folder is the
glob `FOLDER/**/NAME` (`**` any depth, `*` within one name): the path rules ask which of
their targets such a glob can reach.
"""

from __future__ import annotations

import functools
import re
import shlex
from typing import Any

# Kinds. (What a kind means for the path rules is the mode of its accesses.)
SHELL = "shell"  # runs a shell command
CODE = "code"  # runs program code (Python unless told: a notebook cell, an IDE's eval)
SQL = "sql"  # runs SQL
READ = "read"  # reads the files its path fields name
SEARCH = "search"  # reads the files under a folder that a name glob selects (Grep)
FIND = "find"  # lists the names under a folder that a pattern selects (Glob)
LIST = "list"  # lists a folder
EDIT = "edit"  # writes the files its path fields name
MOVE = "move"  # reads and writes them (move, copy, rename: the source is read, or gone)
NONE = "none"  # nothing to judge beyond its text (a sub-agent's prompt, a web search)
UNKNOWN = "unknown"


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Built-in tools, by exact name (Claude Code, Codex, Gemini CLI, Cursor, Cline...).
BUILTIN: dict[str, str] = {
    **dict.fromkeys(
        ["Bash", "bash", "shell", "Shell", "exec_command", "local_shell", "local_shell_call",
         "run_shell_command", "run_terminal_cmd", "execute_command", "terminal", "run_command",
         "container.exec", "powershell", "PowerShell"],
        SHELL,
    ),
    **dict.fromkeys(["Read", "NotebookRead", "View", "read_file", "read_many_files"], READ),
    **dict.fromkeys(["Grep", "grep", "search_file_content", "grep_search"], SEARCH),
    **dict.fromkeys(["Glob", "glob", "file_search"], FIND),
    **dict.fromkeys(["LS", "ls", "list_directory", "list_dir"], LIST),
    **dict.fromkeys(
        ["Edit", "MultiEdit", "Write", "NotebookEdit", "apply_patch", "str_replace",
         "write_file", "replace", "edit_file", "create_file", "str_replace_based_edit_tool",
         "str_replace_editor"],
        EDIT,
    ),
    **dict.fromkeys(
        ["Task", "Agent", "TodoWrite", "TodoRead", "WebFetch", "WebSearch", "BashOutput",
         "KillShell", "KillBash", "ExitPlanMode", "SlashCommand", "Skill", "AskUserQuestion",
         "ListMcpResourcesTool", "ReadMcpResourceTool", "update_plan", "web_search",
         "google_web_search", "web_fetch", "save_memory", "view_image"],
        NONE,
    ),
}  # fmt: skip

# The words of an MCP tool's name, in the order they are tried: the first word set that
# meets the name decides. (`execute_query` runs SQL before `execute` runs a command.)
NAME_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    (SQL, _names("sql query queries postgres mysql sqlite database db")),
    (CODE, _names("code cell python eval evaluate repl notebook javascript")),
    (SHELL, _names("exec execute run shell terminal bash sh zsh powershell pwsh cmd command "
                   "commands process spawn console interact")),
    (MOVE, _names("move rename copy cp mv")),
    (EDIT, _names("write edit create delete remove rm put save update append patch insert "
                  "replace mkdir upload set")),
    (FIND, _names("search find glob locate")),
    (LIST, _names("list ls tree dir directory directories")),
    (READ, _names("read get cat view open head tail download fetch file files")),
)  # fmt: skip

# Input keys that hold a command line, code, SQL, a path, several paths, a name pattern.
COMMAND_KEYS = ("command", "cmd", "script", "shell", "commandLine", "command_line",
                "cmdline", "shell_command", "bash")  # fmt: skip
CODE_KEYS = ("code", "source", "python", "snippet", "expression", "cell")
SQL_KEYS = ("sql", "query", "statement", "statements")
PATH_KEYS = ("file_path", "notebook_path", "path", "filePath", "target_file", "file",
             "filename", "directory", "dir", "source", "destination", "src", "dst",
             "target", "uri", "relative_workspace_path", "absolute_path", "root")  # fmt: skip
PATHS_KEYS = ("paths", "files", "file_paths", "filePaths", "sources")
PATTERN_KEYS = ("glob", "pattern", "include", "file_pattern", "includes", "name")
LANGUAGE_KEYS = ("language", "lang", "kernel")

MAX_FIELDS = 64  # strings of an unknown tool's input looked at
MAX_FIELD = 8192  # characters of one: longer texts are prose or data, not a command


@functools.lru_cache(maxsize=1024)  # (names come from transcripts: bounded)
def tool_kind(tool: str | None) -> str:
    """The kind of a tool, by its name: the built-in table, else the words of its name."""
    if not tool:
        return UNKNOWN
    found = BUILTIN.get(tool)
    if found is not None:
        return found
    words = _words(tool)
    for kind, names in NAME_WORDS:
        if any(word in names for word in words):
            return kind
    return UNKNOWN


def _words(tool: str) -> list[str]:
    """The words of a tool's own name (`mcp__server__read_text_file` -> read, text, file;
    `executeCode` -> execute, code); the server's name is left out, since it names a
    product (`mcp__shell__...` is only a hint: it is tried last)."""
    parts = tool.split("__")
    name = parts[-1] if len(parts) >= 3 and parts[0] == "mcp" else tool
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    words = [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]
    if len(parts) >= 3 and parts[0] == "mcp":  # then the server's words
        words += [w for w in re.split(r"[^a-z0-9]+", parts[1].lower()) if w]
    return words


def builtin(tool: str | None) -> bool:
    return tool in BUILTIN


# --- commands ---------------------------------------------------------------------------


def _command_value(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if (
            len(value) >= 3
            and value[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh", "dash")
            and value[1] in ("-c", "-lc", "-ic")
        ):
            return value[2]
        return shlex.join(value)
    return None


def tool_command(tool: str | None, data: Any) -> str | None:
    """The shell text a tool call runs, or None. A built-in shell tool's command key; for
    any other tool that is not a built-in one: a command-like key (whatever its name), SQL
    as `psql -c`, code as `python3 -c` (a notebook cell's `!` lines as the commands they
    are), and for a shell-like or unknown name the strings of its input that look like
    commands."""
    if not isinstance(data, dict):
        return None
    kind = tool_kind(tool)
    if builtin(tool):
        if kind != SHELL:
            return None
        for key in COMMAND_KEYS[:3]:  # (as before: command, cmd, script)
            found = _command_value(data.get(key))
            if found is not None:
                return found
        return None
    found_commands: list[str] = []
    for key in COMMAND_KEYS:
        value = _command_value(data.get(key))
        if value is not None and value.strip():
            args = data.get("args")  # (`{"command": "git", "args": ["reset", "--hard"]}`)
            if (
                key == "command"
                and isinstance(args, list)
                and args
                and all(isinstance(a, str) for a in args)
            ):
                value = value + " " + shlex.join(args[:MAX_FIELDS])
            found_commands.append(value)
    if kind == SQL or any(isinstance(data.get(k), str) for k in SQL_KEYS[:1]):
        for key in SQL_KEYS:
            value = data.get(key)
            if isinstance(value, str) and value.strip() and _sql_like(value):
                found_commands.append("psql -c " + shlex.quote(value[:MAX_FIELD]))
    if kind == CODE or any(isinstance(data.get(k), str) for k in CODE_KEYS[:1]):
        for key in CODE_KEYS:
            value = data.get(key)
            if isinstance(value, str) and value.strip():
                found_commands += _code_commands(value[: MAX_FIELD * 8], _language(data))
    if not found_commands and kind in (SHELL, UNKNOWN):
        # a shell-like name with its command under another key (`{"input": "rm -rf ~"}`),
        # or a tool no table tells: the strings that look like commands
        found_commands = [s for s in _fields(data) if looks_like_command(s)]
    if not found_commands:
        return None
    return "\n".join(dict.fromkeys(found_commands))


def _language(data: dict[str, Any]) -> str:
    for key in LANGUAGE_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value:
            return value.lower()
    return "python"


_INTERPRETERS = {"python": "python3", "python3": "python3", "py": "python3",
                 "javascript": "node", "js": "node", "node": "node", "typescript": "node",
                 "ts": "node", "ruby": "ruby", "rb": "ruby", "perl": "perl", "php": "php",
                 "r": "Rscript"}  # fmt: skip
_SHELL_LANGUAGES = frozenset(["bash", "sh", "shell", "zsh"])


def _code_commands(code: str, language: str) -> list[str]:
    """The commands a piece of code amounts to: the interpreter one-liner, and a notebook
    cell's shell escapes (`!rm -rf ~`, a `%%bash` cell) as commands of their own."""
    if language in _SHELL_LANGUAGES:
        return [code]
    found = []
    lines = code.split("\n")
    if lines and lines[0].strip() in ("%%bash", "%%sh", "%%script bash", "%%script sh"):
        return ["\n".join(lines[1:])]
    escapes = [line.strip()[1:] for line in lines if line.strip().startswith("!")]
    escapes += [line.strip()[3:] for line in lines if line.strip().startswith("%sx ")]
    found += [line for line in escapes if line.strip()]
    program = _INTERPRETERS.get(language, "python3")
    plain = "\n".join(line for line in lines if not line.strip().startswith(("!", "%")))
    if plain.strip():
        option = "-c" if program == "python3" else "-r" if program == "php" else "-e"
        found.append(f"{program} {option} {shlex.quote(plain)}")
    return found


_SQL = re.compile(
    r"(?is)^\s*(?:--[^\n]*\n\s*)*(?:select|insert|update|delete|drop|truncate|alter|create|"
    r"grant|revoke|with|merge|replace|copy|vacuum|pragma|attach|begin|commit|rollback|set|"
    r"show|describe|explain|call|exec)\b"
)


def _sql_like(text: str) -> bool:
    return _SQL.match(text) is not None


def _fields(data: Any) -> list[str]:
    """The strings of a tool's input (depth first, at most MAX_FIELDS, each shorter than
    MAX_FIELD), without repeats."""
    found: list[str] = []
    stack = [data]
    looked = 0
    while stack and looked < MAX_FIELDS * 4:
        value = stack.pop()
        looked += 1
        if isinstance(value, str):
            if value and len(value) <= MAX_FIELD and value not in found:
                found.append(value)
                if len(found) >= MAX_FIELDS:
                    break
        elif isinstance(value, dict):
            stack.extend(reversed(list(value.values())[:MAX_FIELDS]))
        elif isinstance(value, list):
            stack.extend(reversed(value[:MAX_FIELDS]))
    return found


# Programs whose name starting a string makes it a command line (the programs the command
# rules name, the shells and interpreters, the tools that move data).
_PROGRAMS = _names(
    """rm rmdir unlink shred dd mkfs wipefs blkdiscard sgdisk fdisk parted truncate mv cp
    chmod chown chgrp ln tee cat less more head tail base64 xxd od strings awk sed grep rg
    find xargs tar zip unzip gzip scp sftp rsync ssh nc ncat netcat socat telnet curl wget
    http xh sh bash zsh dash ksh fish python python3 python2 node deno bun perl ruby php
    eval source exec env sudo doas su pkexec git gh glab aws gcloud az kubectl helm docker
    podman terraform vault npm npx yarn pnpm pip pip3 make just cargo go systemctl crontab
    kill pkill killall shutdown reboot printenv export set echo printf openssl gpg
    security pass op jq touch mkdir ls stat du"""
)
_FIRST_WORD = re.compile(r"^\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:sudo\s+)?([\w./+-]+)")
_OPERATORS = re.compile(r"(?:\|\||&&|[|;`]|\$\(|>>?\s*[/~$\w])")


def looks_like_command(text: str) -> bool:
    """Whether a string of an unknown tool's input reads as a command line: its first word
    is a program the rules know (or a path to one), or it chains such a program with shell
    operators (`x; rm -rf ~`)."""
    if not text or len(text) > MAX_FIELD or "\0" in text:
        return False
    match = _FIRST_WORD.match(text)
    if match is not None and not text.startswith(":", match.end()):  # (`http://…`: a URL)
        word = match.group(1).rsplit("/", 1)[-1]
        if word in _PROGRAMS or (word.startswith("mkfs.") and len(word) < 16):
            return True
    if _OPERATORS.search(text) is None:
        return False
    return any(
        piece.rsplit("/", 1)[-1] in _PROGRAMS
        for piece in re.split(r"[\s|;&`()]+", text[:MAX_FIELD])[:256]
        if piece
    )


# --- the files a call touches ------------------------------------------------------------

_PATH_START = ("/", "~", "$HOME", "${HOME}", "./", "../", "file://")


def looks_like_path(text: str) -> bool:
    """Whether a string reads as a file path (absolute, in the home folder, relative with
    `./`, or a `file://` URI), not as prose or a URL."""
    if not text or len(text) > 4096 or "\n" in text or "\0" in text:
        return False
    if not text.startswith(_PATH_START):
        return False
    return not (text.startswith("//") or " -" in text or "  " in text)


def _as_path(text: str) -> str:
    if text.startswith("file://"):
        text = text[7:]
        if text.startswith("localhost/"):
            text = text[9:]
    return text


def _join(folder: str, pattern: str) -> str:
    pattern = pattern.lstrip("/") if folder else pattern
    return f"{folder.rstrip('/')}/{pattern}" if folder else pattern


_TYPE_GLOBS = {"py": "*.py", "js": "*.js", "ts": "*.ts", "rust": "*.rs", "go": "*.go",
               "java": "*.java", "md": "*.md", "json": "*.json", "yaml": "*.yaml"}  # fmt: skip


def _expand_braces(pattern: str) -> list[str]:
    """`*.{toml,cfg}` as the globs it stands for (one level, a few words)."""
    match = re.search(r"\{([^{}]*)\}", pattern)
    if match is None or len(pattern) > 512:
        return [pattern]
    head, tail = pattern[: match.start()], pattern[match.end() :]
    return [head + part + tail for part in match.group(1).split(",")[:16]]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [v for v in value[:MAX_FIELDS] if isinstance(v, str) and v]
    return []


def tool_accesses(tool: str | None, data: Any, cwd: str | None = None) -> list[tuple[str, str]]:
    """(path, mode) of the files a tool call touches, from its input. Modes: read, write,
    list, find. A search reads `FOLDER/**/NAME` (the folder searched, the name glob it is
    given or `*`); `cwd` is the folder a search without a path runs in."""
    if not isinstance(data, dict):
        return []
    kind = tool_kind(tool)
    if kind in (SEARCH, FIND):
        return _search(kind, data, cwd)
    if kind in (SHELL, SQL, CODE, NONE) and builtin(tool):
        return []
    mode = {READ: "read", LIST: "list", EDIT: "write", MOVE: "move"}.get(kind)
    found: list[tuple[str, str]] = []
    paths = [p for key in PATH_KEYS for p in _strings(data.get(key))]
    paths += [p for key in PATHS_KEYS for p in _strings(data.get(key))]
    if builtin(tool):
        return [(p, mode or "read") for p in dict.fromkeys(paths)]
    # an MCP or unknown tool: its path fields, and any other string that reads as a path
    # (`{"volumes": ["/home/me:/h"]}`, a URI)
    seen = set(paths)
    for text in _fields(data):
        if text in seen:
            continue
        head = text.split(":", 1)[0] if ":" in text and not text.startswith("file:") else text
        if looks_like_path(head):
            paths.append(head)
            seen.add(head)
    for path in dict.fromkeys(_as_path(p) for p in paths):
        if mode == "move":
            found += [(path, "read"), (path, "write")]
        elif mode is None:  # unknown: what it does to the file is not told; reading it is
            found.append((path, "read"))  # the least, and what the credential rules ask
        else:
            found.append((path, mode))
    return found


def _search(kind: str, data: dict[str, Any], cwd: str | None) -> list[tuple[str, str]]:
    """A Grep reads (a Glob finds) the files under its folder that its name glob selects;
    a Grep given a file reads that file."""
    folders = (
        _strings(data.get("path")) + _strings(data.get("paths")) + _strings(data.get("directory"))
    )
    if not folders:
        folders = [cwd or "."]
    names: list[str] = []
    keys = ("glob", "include", "file_pattern", "includes") if kind == SEARCH else PATTERN_KEYS
    for key in keys:
        names += [g for text in _strings(data.get(key)) for g in _expand_braces(text)]
    if kind == SEARCH:
        kinds = _strings(data.get("type"))
        names += [_TYPE_GLOBS.get(t, f"*.{t}") for t in kinds if t.isalnum()]
    mode = "read" if kind == SEARCH else "find"
    found: list[tuple[str, str]] = []
    for folder in dict.fromkeys(folders[:MAX_FIELDS]):
        folder = _as_path(folder)
        if kind == SEARCH:
            found.append((folder, "read"))  # (the path may be a file)
        for name in names[:MAX_FIELDS] or ["*"]:
            name = name.lstrip("/")
            if name.startswith("**/") or "/" in name:
                found.append((_join(folder, name), mode))
                if not name.startswith("**/"):
                    found.append((_join(folder, "**/" + name), mode))
            else:
                found.append((_join(folder, "**/" + name), mode))
    return list(dict.fromkeys(found))
