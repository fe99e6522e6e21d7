"""A script is judged when it runs, and when it is written (issue 26).

Run time: for a shell call, the files it would run (shell/script_runs.py lists them from
the parsed line: `bash x.sh`, `./x.sh`, `source x.sh`, `python x.py`, `node x.js`, `make
[TARGET]`, `just RECIPE`, `npm test` / `npm run X` / `yarn X`, the hooks of `git commit`,
a git alias, `xargs -a FILE`...) are read here, relative to the event's `cwd` and the
folder a `cd` on the line moved to, and their commands are judged as if typed: each file's
text becomes the command of a Bash call in that folder (shell/script_runs.judged_text:
makefile recipes, package.json scripts, interpreter code through the interpreter model),
scanned with the command and path rules. What they run in turn is read the same way, a
few levels deep. A file is never executed; it is read at most MAX_SCRIPT bytes, through
its symbolic links, only when it is a regular file (a FIFO or a device is never opened for
reading). A file that cannot be read (missing, too large, unreadable, not a regular file,
written by the same line from a download, in a folder that cannot be told) is asked about
(`dangerous-command.unseen-script`) with the reason.

Write time: a Write, Edit or MultiEdit whose new content is a script (`*.sh`, a `#!`
line, `.git/hooks/*`), a makefile, a justfile, package.json, a CI workflow or a program
(`*.py`, `*.js`...) is judged on that content by the command rules; only what is
destructive (high and critical) stops the write: writing `rm -rf build` into a clean
target is the job.

The findings name the file (`[in scripts/x.sh, run by this call]`). This is the hook's I/O
at the edge: the shell model itself never reads a file.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
from typing import Any

from wukong_lint.model import Finding, Severity

MAX_SCRIPT = 1 << 20  # bytes of one file read; a larger one is asked about
MAX_FILES = 24  # files read for one event
MAX_DEPTH = 3  # scripts run by scripts, followed this deep
_REASONS = {
    "missing": "the file does not exist",
    "too-large": f"it is larger than {MAX_SCRIPT >> 20} MB",
    "unreadable": "it cannot be read",
    "not-a-file": "it is not a regular file",
    "downloaded": "the same command line downloads it first",
    "written": "the same command line writes it first from elsewhere",
    "unknown-folder": "the folder it runs in is not known",
    "unknown-path": "its path is a value the command line does not give",
    "not-judged": "it is nested too deeply to judge",
}
_KINDS = ("command", "path")
_WRITE_KINDS = ("command",)
# A program's text is read by the interpreter model (a regex scan of all of it: a 250 KB
# module costs a third of a second) only when it names a call that could do harm and
# something to harm the model can see: its findings in a program file come from literal
# targets (a root, home, system or device path, a credential folder, code fetched and run).
_CALLS = ("rmtree", "remove_tree", "rm_rf", "rmSync", "rmdir", "unlink", "remove",
          "system", "popen", "subprocess", "spawn", "exec", "eval", "child_process",
          "shell_exec", "passthru", "Popen", "check_output", "check_call", ".rm(", "urlopen",
          "requests.", "fetch(", "writeFile", "open(", "FileUtils", "File.delete",
          "Files.delete", "delete-directory", "/dev/")  # fmt: skip
_TARGETS = ("home", "HOME", "expanduser", "~", "'/'", '"/"', "/etc", "/usr", "/var", "/bin",
            "/sbin", "/boot", "/dev/", "/root", "/lib", "/opt", "/srv", "/sys", "/proc",
            "/Users", "/System", "/Library", ".ssh", ".aws", ".gnupg", ".kube", ".netrc",
            "exec(", "eval(", "Function(", "environ", "process.env", "ENV", "getenv")  # fmt: skip
# Languages whose write calls shell/file_writes.py reads (Scanner.program_writes)
_CODE_LANGUAGES = frozenset(["python", "node", "perl", "ruby", "php"])
MAX_PROGRAM = 64 << 10  # a longer program is read around the lines naming a target
_WINDOW = 24  # lines kept before and after such a line
_PROGRAM_SUFFIXES = {".py": "python", ".js": "node", ".mjs": "node", ".cjs": "node",
                     ".ts": "node", ".mts": "node", ".pl": "perl", ".rb": "ruby",
                     ".php": "php", ".lua": "lua", ".r": "r", ".jl": "julia"}  # fmt: skip


def read_script(path: str) -> tuple[str | None, str | None]:
    """(the text of a file, None) or (None, why it cannot be read). Symbolic links are
    followed; only a regular file is opened (non-blocking: a FIFO put in its place between
    the check and the open does not hang the hook)."""
    try:
        real = os.path.realpath(path)
        info = os.stat(real)
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError):
        return None, "unreadable"
    if not stat.S_ISREG(info.st_mode):
        return None, "not-a-file"
    if info.st_size > MAX_SCRIPT:
        return None, "too-large"
    from wukong_lint.util.fsutil import read_regular

    try:
        data = read_regular(real, MAX_SCRIPT)
    except OSError:
        return None, "unreadable"
    if data is None:
        return None, "not-a-file"
    if len(data) > MAX_SCRIPT:
        return None, "too-large"
    return data.decode("utf-8", "surrogateescape"), None


class Judge:
    """The findings of the scripts one event runs or writes."""

    def __init__(self, ruleset: Any, profile: str | None, data: dict[str, Any]) -> None:
        self.ruleset = ruleset
        self.profile = profile or "generic"
        self.data = data
        cwd = data.get("cwd")
        self.cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else os.getcwd()
        self.home = os.path.expanduser("~")
        self.findings: list[Finding] = []
        self.files = 0
        self.seen: set[tuple[str, tuple[str, ...]]] = set()

    # -- scanning -------------------------------------------------------------------------
    def scan(
        self, text: str, folder: str, label: str, kinds: tuple[str, ...] = _KINDS
    ) -> list[Finding]:
        """Scan `text` as the command of a Bash call in `folder`; the findings relabelled."""
        from wukong_lint.engine.scan import scan_unit
        from wukong_lint.model.events import Context, call_event, make_unit

        rules = _subset(self.ruleset, kinds)
        ctx = Context(self.profile, False, {}, folder)
        agent_type = self.data.get("agent_type")
        is_main = not self.data.get("agent_id") and not agent_type
        event, _ = call_event(ctx, 1, "Bash", {"command": text}, None,
                              "main" if is_main else "subagent", None, is_main)  # fmt: skip
        found, _ = scan_unit(rules, make_unit("<script>", event, text))
        # (silenced ones too: the hook decides which comments it honours, judge.acted_on)
        return [f._replace(message=f"{f.message} [{label}]") for f in found]

    def reduced(self, text: str) -> str:
        """A long script's text cut down to the statements worth judging: those where a
        command rule may match, naming a program that runs files or code, or holding a path
        a path rule looks for (shell/commands.script_selector, shell/script_reduce.py)."""
        from wukong_lint.shell.commands import SELECT_FROM, script_selector
        from wukong_lint.shell.runner_registry import NAMES
        from wukong_lint.shell.script_reduce import reduce

        if len(text) < SELECT_FROM:
            return text
        commands = [r for r in _subset(self.ruleset, ("command",)).rules if self.in_scope(r)]
        words = frozenset(["./", *_path_words(_subset(self.ruleset, ("path",)).rules)])
        selector = script_selector(commands, NAMES, words)
        if selector is None:
            return text
        if not selector.may_match(text):
            return ""  # (no statement of it can matter: not even parsed)
        return reduce(text, selector)

    def in_scope(self, rule: Any) -> bool:
        """Whether a command rule runs in this profile (a rule of another profile's scope
        selects no statement of a script here)."""
        profiles = ((rule.params or {}).get("scope") or {}).get("profiles") or ()
        return not profiles or self.profile in profiles

    def unseen(self, reason: str, program: str, where: str) -> None:
        text = f"wukong-lint-unseen-script {reason} {program}"
        why = _REASONS.get(reason, reason)
        self.findings += self.scan(text, self.cwd, f"{where}: {why}")

    # -- run time ---------------------------------------------------------------------------
    def line(self, command: str, folder: str, depth: int, via: str = "") -> None:
        from wukong_lint.shell.parse import parse
        from wukong_lint.shell.script_runs import runs

        try:
            script = parse(command)
        except Exception:  # (the command rules report what does not parse)
            return
        for run in runs(script):
            if self.files >= MAX_FILES:
                break
            try:
                self.run(run, folder, depth, via)
            except RecursionError:  # (a script nested beyond the stack: not judged whole)
                self.unseen("not-judged", run.program, f"in {run.path or run.kind}{via}")
        if depth == 0:  # files the line writes with text it shows: judged as written
            from wukong_lint.shell.script_runs import writes

            for path, text in writes(script)[:MAX_FILES]:
                full = self.expand(path)
                if full is not None:
                    self.written_file(os.path.join(folder, full), text)

    def run(self, run: Any, folder: str, depth: int, via: str) -> None:
        if run.kind == "trusted":
            return  # (a virtual environment the line itself made)
        base = self.folder(run.cwd, folder)
        shown = run.path or run.kind
        where = f"in {shown}{via}, run by this call"
        if base is None:
            self.unseen("unknown-folder", run.program, where)
            return
        if run.unseen is not None:
            self.unseen(run.unseen, run.program, where)
            return
        if run.content is not None:
            self.judge(run, run.content, base, depth, where, via)
            return
        for path, text, reason in self.files_of(run, base):
            label = f"in {self.shown(path)}{via}, run by this call"
            if reason is not None:
                self.unseen(reason, run.program, label)
            elif text is not None:
                self.judge(run, text, base, depth, label, via)

    def judge(self, run: Any, text: str, base: str, depth: int, label: str, via: str) -> None:
        from wukong_lint.shell.script_runs import judged_text, shebang_kind

        shell = ("sh", "exec", "make", "just", "npm", "args", "git", "git-alias")
        if run.kind not in shell and not _worth_reading(text):
            return  # a program that names no call that could do harm, or nothing to harm
        if run.kind == "git":
            run = run._replace(kind="exec")
        if run.kind not in shell:
            text = program_excerpt(text)
        kind = shebang_kind(text) if run.kind == "exec" else run.kind
        if kind in _CODE_LANGUAGES:  # the protected files the program's code writes
            self.findings += self.program_writes(text, base, label)
        judged = self.reduced(judged_text(run, text) if run.kind != "git-alias" else text)
        if not judged.strip():
            return
        self.findings += self.scan(judged, base, label)
        if depth + 1 < MAX_DEPTH and kind in ("sh", "make", "just", "npm", "git-alias"):
            self.line(judged, base, depth + 1, f" ({label.split(',')[0][3:]})")

    def program_writes(self, code: str, base: str, label: str) -> list[Finding]:
        """The guard-integrity findings of the files a program's write calls name
        (shell/file_writes.code_writes: a binary-write open of `p` in a loop over a literal
        glob of the hook's cache), judged as redirections. Read only around the lines naming
        a protected path (the write calls' regexes cost ~1 ms per KB)."""
        from wukong_lint.shell.file_writes import code_writes

        words = _guard_words(self.ruleset)
        if not any(word in code for word in words):
            return []
        lines = code.split("\n")
        keep = [False] * len(lines)
        for number, line in enumerate(lines):
            if any(word in line for word in words):
                for at in range(max(0, number - _WINDOW), min(len(lines), number + _WINDOW + 1)):
                    keep[at] = True
        excerpt = "\n".join(line for line, kept in zip(lines, keep, strict=True) if kept)
        written = code_writes(excerpt[: 4 * MAX_PROGRAM])[:32]
        if not written:
            return []
        redirects = "\n".join(f": > {shlex.quote(path)}" for path in written)
        return self.scan(redirects, base, label, ("path",))

    def folder(self, cwd: str, folder: str) -> str | None:
        if cwd in (".", ""):
            return folder
        if cwd == "?":
            return None
        path = self.expand(cwd)
        if path is None:
            return None
        return os.path.normpath(os.path.join(folder, path))

    def expand(self, word: str) -> str | None:
        """A path word with `~`, `$HOME`, `$PWD` expanded; None when another value is in it."""
        if word == "~" or word.startswith("~/"):
            word = self.home + word[1:]
        for name, value in (("$HOME", self.home), ("${HOME}", self.home), ("$PWD", self.cwd),
                            ("${PWD}", self.cwd), ("$(pwd)", self.cwd)):  # fmt: skip
            word = word.replace(name, value)
        if any(c in word for c in "$`*?[") or "\0" in word:
            return None
        return word

    def shown(self, path: str) -> str:
        """A path as the message shows it: relative to the project when inside it."""
        if path.startswith(self.cwd.rstrip("/") + "/"):
            return os.path.relpath(path, self.cwd)
        if path.startswith(self.home + "/"):
            return "~" + path[len(self.home) :]
        return path

    def read(self, path: str) -> tuple[str | None, str | None]:
        key = (os.path.realpath(path), ())
        if key in self.seen:
            return None, None  # (judged already: a script sourcing itself, a loop)
        self.seen.add(key)
        self.files += 1
        return read_script(path)

    def files_of(self, run: Any, base: str) -> list[tuple[str, str | None, str | None]]:
        """(path, text, unreadable reason) of the files a run reads."""
        from wukong_lint.shell.script_runs import JUSTFILES, MAKEFILES

        if run.kind == "make" and not run.path:
            return self.first(base, MAKEFILES, up=False)
        if run.kind == "just" and not run.path:
            return self.first(base, JUSTFILES, up=True)
        if run.kind == "npm":
            return self.first(base, ("package.json",), up=True)
        if run.kind == "git":
            return self.git_hooks(base, run.names)
        if run.kind == "git-alias":
            return self.git_alias(base, run.names[0], run.extra)
        path = self.expand(run.path)
        if path is None:
            return [(run.path, None, "unknown-path")]
        path = os.path.join(base, path)
        text, reason = self.read(path)
        return [(path, text, reason)] if text is not None or reason is not None else []

    def first(self, base: str, names: tuple[str, ...], up: bool) -> list[Any]:
        """The first of `names` found in `base` (and its parents up to the project's root
        folder, as npm and just look); none found: nothing runs."""
        folder = base
        while True:
            for name in names:
                path = os.path.join(folder, name)
                if os.path.lexists(path):
                    text, reason = self.read(path)
                    return [(path, text, reason)] if text is not None or reason else []
            parent = os.path.dirname(folder)
            if not up or parent == folder or not folder.startswith(self.cwd):
                return []
            folder = parent

    def git_dir(self, base: str) -> tuple[str, str] | None:
        """(the work tree's root, the git folder) of the repository `base` is in."""
        folder = base
        for _ in range(64):
            dot = os.path.join(folder, ".git")
            if os.path.isdir(dot):
                return folder, dot
            if os.path.isfile(dot):
                text, _ = read_script(dot)
                if text and text.startswith("gitdir:"):
                    target = text.split(":", 1)[1].strip()
                    return folder, os.path.normpath(os.path.join(folder, target))
            parent = os.path.dirname(folder)
            if parent == folder:
                return None
            folder = parent
        return None

    def git_config(self, git_dir: str) -> str:
        """The text of the repository's, the user's and the XDG git config files."""
        texts = []
        xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(self.home, ".config")
        common = git_dir
        commondir = os.path.join(git_dir, "commondir")
        if os.path.isfile(commondir):
            text, _ = read_script(commondir)
            if text:
                common = os.path.normpath(os.path.join(git_dir, text.strip()))
        for path in (os.path.join(common, "config"), os.path.join(self.home, ".gitconfig"),
                     os.path.join(xdg, "git", "config")):  # fmt: skip
            text, _ = read_script(path)
            if text:
                texts.append(text)
        return "\n".join(texts)

    def git_hooks(self, base: str, names: tuple[str, ...]) -> list[Any]:
        found = self.git_dir(base)
        if found is None:
            return []
        root, git_dir = found
        hooks = os.path.join(git_dir, "hooks")
        configured = _config_value(self.git_config(git_dir), "core", "hookspath")
        if configured:
            path = self.expand(configured)
            hooks = os.path.join(root, path) if path is not None else hooks
        out = []
        for name in names:
            path = os.path.join(hooks, name)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                text, reason = self.read(path)
                out.append((path, text, reason))
        return out

    def git_alias(self, base: str, name: str, args: tuple[str, ...]) -> list[Any]:
        found = self.git_dir(base)
        config = self.git_config(found[1]) if found else ""
        value = _config_value(config, "alias", name.lower())
        if not value:
            return []
        from wukong_lint.shell.runner_tools import shell_join

        words = shell_join(list(args))
        text = value[1:] + " " + words if value.startswith("!") else f"git {value} {words}"
        return [(f"git alias {name}", text, None)]

    # -- write time -------------------------------------------------------------------------
    def written(self) -> None:
        from wukong_lint.model.events import target_paths

        tool = self.data.get("tool_name")
        tool_input = self.data.get("tool_input")
        if tool not in ("Write", "Edit", "MultiEdit") or not isinstance(tool_input, dict):
            return
        paths = target_paths(tool, tool_input)
        if not paths or not isinstance(paths[0], str):
            return
        path = os.path.join(self.cwd, os.path.expanduser(paths[0]))
        content = self.new_content(tool, tool_input, path)
        if not content:
            return
        self.written_file(path, content)

    def written_file(self, path: str, content: str) -> None:
        """Judge the new content of a file that will run (only its destructive findings)."""
        text = written_text(path, content)
        if not text or not text.strip():
            return
        text = self.reduced(text)
        label = f"in the new content of {self.shown(path)}"
        runtime = _runtime_rules(self.ruleset)
        for finding in self.scan(text, self.cwd, label, _WRITE_KINDS):
            # (a rule tagged `runtime` judges values known only when the script runs:
            # its arguments, its environment; it is judged again then)
            if finding.severity >= Severity.HIGH and finding.rule_id not in runtime:
                self.findings.append(finding)

    def new_content(self, tool: str, data: dict[str, Any], path: str) -> str | None:
        if tool == "Write":
            content = data.get("content")
            return content if isinstance(content, str) else None
        edits = data.get("edits") if tool == "MultiEdit" else [data]
        if not isinstance(edits, list):
            return None
        current, _ = read_script(path)
        text = current or ""
        pieces = []
        for edit in edits:
            if not isinstance(edit, dict):
                continue
            old, new = edit.get("old_string"), edit.get("new_string")
            if not isinstance(new, str):
                continue
            if isinstance(old, str) and old and old in text:
                text = text.replace(old, new, -1 if edit.get("replace_all") else 1)
            else:
                pieces.append(new)  # (the edit cannot apply as given: its text alone)
        return "\n".join([text, *pieces]) if current is not None else "\n".join(pieces)


def written_text(path: str, content: str) -> str | None:
    """The shell text of a written file that will run (None: it is not such a file)."""
    from wukong_lint.engine.rules import shell_file_type
    from wukong_lint.shell.files import shell_text
    from wukong_lint.shell.runner_tools import just_recipes
    from wukong_lint.shell.script_runs import Run, items_text, judged_text, shebang_kind

    name = os.path.basename(path)
    kind = shell_file_type(path)
    if kind is not None and kind != "docker":
        return shell_text(path, content)
    if name in ("justfile", "Justfile", ".justfile", "JUSTFILE"):
        return "\n".join(items_text(just_recipes(content, [n]))
                         for n in _just_names(content))  # fmt: skip
    hook = "/.git/hooks/" in path.replace(os.sep, "/") and not name.endswith(".sample")
    if content.startswith("#!") or hook:
        kind = shebang_kind(content)
    else:
        kind = _PROGRAM_SUFFIXES.get(os.path.splitext(name)[1].lower()) or ""
    if not kind or kind == "binary":
        return None
    if kind != "sh":
        if not _worth_reading(content):
            return None
        content = program_excerpt(content)
    return judged_text(Run(kind, path, ".", (), 0, 0, name), content)


_AUTOMATA: list[Any] = []


def _worth_reading(code: str) -> bool:
    """Can the interpreter model find something in this program? (One keyword pass.)"""
    if not _AUTOMATA:
        import ahocorasick_rs

        _AUTOMATA[:] = [ahocorasick_rs.AhoCorasick(list(_CALLS)), set(range(len(_CALLS)))]
        _AUTOMATA.append(ahocorasick_rs.AhoCorasick([*_CALLS, *_TARGETS]))
    start = code.find("\n") + 1 if code.startswith("#!") else 0  # (not the #! line's /usr)
    body = code[start:]
    try:
        found = {n for n, _, _ in _AUTOMATA[2].find_matches_as_indexes(body, overlapping=True)}
    except UnicodeEncodeError:  # (lone surrogates)
        return True
    calls = _AUTOMATA[1]
    return bool(found & calls) and bool(found - calls)


def program_excerpt(code: str) -> str:
    """A long program cut to the lines around those naming a target (the interpreter model
    reads a literal target near the call that uses it: `p = '/'` then `rmtree(p)`)."""
    if len(code) <= MAX_PROGRAM:
        return code
    lines = code.split("\n")
    keep = [False] * len(lines)
    for number, line in enumerate(lines):
        if any(w in line for w in _TARGETS):
            for at in range(max(0, number - _WINDOW), min(len(lines), number + _WINDOW + 1)):
                keep[at] = True
    excerpt = "\n".join(line for line, kept in zip(lines, keep, strict=True) if kept)
    return excerpt[: 4 * MAX_PROGRAM]


def _just_names(text: str) -> list[str]:
    return re.findall(r"(?m)^@?([A-Za-z_][\w-]*)(?:\s+[^:=\s]+)*\s*:(?!=)", text)[:64]


def _config_value(text: str, section: str, key: str) -> str | None:
    """A value of a git config text (`[section]` then `key = value`; the last one wins)."""
    found = None
    current = ""
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("["):
            current = stripped.strip("[]").split()[0].lower() if stripped.strip("[]") else ""
            continue
        if current != section or "=" not in stripped or stripped.startswith(("#", ";")):
            continue
        name, _, value = stripped.partition("=")
        if name.strip().lower() == key:
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            found = value
    return found


def _path_words(rules: list[Any]) -> list[str]:
    """Literal pieces of the path rules' targets (`/.ssh`, `.env`, `/etc`): a statement of a
    long script holding none of them gives the path rules nothing to look at."""
    words = set()
    for rule in rules:
        for target in (rule.params or {}).get("targets", ()):
            for piece in target.replace("~", "").split("*"):
                piece = piece.rstrip("/")
                if len(piece) >= 3:
                    words.add(piece)
    return sorted(words)


_GUARD_WORDS: dict[int, tuple[Any, tuple[str, ...]]] = {}


def _guard_words(ruleset: Any) -> tuple[str, ...]:
    """Literal pieces of the protected paths (the guard-integrity path rules' targets), bare
    extensions (`.json`) left out: a program naming none writes none of them by name."""
    found = _GUARD_WORDS.get(id(ruleset))
    if found is None or found[0] is not ruleset:
        rules = [r for r in _subset(ruleset, ("path",)).rules if r.category == "guard-integrity"]
        words = tuple(w for w in _path_words(rules) if "/" in w or len(w) > 5)
        found = _GUARD_WORDS[id(ruleset)] = (ruleset, words)
    return found[1]


_SUBSETS: dict[tuple[int, tuple[str, ...]], Any] = {}


def _runtime_rules(ruleset: Any) -> frozenset[str]:
    """The ids of the rules tagged `runtime` (not applied to a script when it is written)."""
    key = (id(ruleset), "runtime")
    found = _SUBSETS.get(key)
    if found is None or found[0] is not ruleset:
        ids = frozenset(rule.id for rule in ruleset.rules if "runtime" in (rule.tags or ()))
        found = _SUBSETS[key] = (ruleset, ids)
    return found[1]  # type: ignore[no-any-return]


def _subset(ruleset: Any, kinds: tuple[str, ...]) -> Any:
    """The rules of `kinds` of a rule set (made once per rule set)."""
    key = (id(ruleset), kinds)
    found = _SUBSETS.get(key)
    if found is None or found[0] is not ruleset:
        found = _SUBSETS[key] = (ruleset, ruleset.select(lambda r: r.kind in kinds))
    return found[1]


def script_findings(data: dict[str, Any], ruleset: Any, profile: str | None) -> list[Finding]:
    """The findings of the scripts a PreToolUse event runs (a shell call) or writes."""
    from wukong_lint.model.events import shell_command

    if data.get("hook_event_name") != "PreToolUse":
        return []
    judge = Judge(ruleset, profile, data)
    command = shell_command(data.get("tool_name"), data.get("tool_input"))
    if command is not None:
        judge.line(command, judge.cwd, 0)
    else:
        judge.written()
    return judge.findings
