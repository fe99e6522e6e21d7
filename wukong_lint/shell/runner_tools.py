"""The readers of the code-runner registry for programs with a structure of their own:
git (config values it runs, `submodule foreach`, `rebase --exec`, `ext::` URLs), containers
(the command, with the host folders mounted into it), make and just (recipes), and the
text of makefiles, justfiles and package.json scripts, shared with the hook, which reads
them from disk (shell/script_runs.py). See shell/runners.py for the items returned."""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from typing import Any

from wukong_lint.shell.runner_registry import (
    _NOT_COMMANDS,
    CODE,
    PROGRAMS,
    SCRIPT,
    UNSEEN,
    Item,
    Resolve,
    content,
    language_of,
    scan,
    split_words,
)

MAX_TARGETS = 64  # make targets and just recipes followed through their prerequisites
CONTAINER_ROOT = "/tmp/.container-root"  # where a fresh container's own paths are judged


def run(
    spec: dict[str, Any], name: str, args: tuple[str, ...], stdin: str | None, resolve: Any
) -> list[Item]:
    how = spec["how"]
    if how == "git":
        return git(spec, args)
    if how == "container":
        return container(spec, name, args)
    if how == "make":
        return make(spec, args, stdin, resolve)
    if how == "just":
        return just(spec, args, stdin, resolve)
    return []


# -- git ------------------------------------------------------------------------------------


def _config_runs(spec: dict[str, Any], key: str, value: str) -> list[Item]:
    """What git runs for a config value (`alias.x=!cmd`, `core.pager=cmd`...)."""
    key = key.strip().lower()
    if value.strip().lower() in _NOT_COMMANDS:
        return []
    for entry in spec.get("config", ()):
        pattern = entry.get("_compiled")
        if pattern is None:
            pattern = entry["_compiled"] = re.compile(entry["keys"])
        if not pattern.fullmatch(key):
            continue
        strip = entry.get("strip", "")
        if strip and value.startswith(strip):
            return [(SCRIPT, value[len(strip) :])]
        otherwise = entry.get("otherwise", "script")
        if otherwise == "git":
            return [("git", *split_words(value))]
        if otherwise == "helper" and not any(c in value for c in " /"):
            return []  # `store`: git-credential-store, not a command of the line
        return [(SCRIPT, value)]
    return []


def _ext_url(word: str) -> Item | None:
    """The argv of git's `ext::` transport URL: words split at spaces, `% ` a space inside
    a word, `%%` a percent sign (`ext::sh -c rm% -rf% ~` runs `sh -c 'rm -rf ~'`)."""
    if not word.startswith("ext::"):
        return None
    words: list[str] = [""]
    text = word[5:]
    i = 0
    while i < len(text):
        char = text[i]
        if char == "%" and i + 1 < len(text):
            following = text[i + 1]
            words[-1] += following if following in " %" else ""
            i += 2
            continue
        if char == " ":
            words.append("")
        else:
            words[-1] += char
        i += 1
    argv = tuple(w for w in words if w)
    return argv or None


def git(spec: dict[str, Any], args: tuple[str, ...]) -> list[Item]:
    items: list[Item] = []
    values = frozenset(spec.get("value_options", ()))
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-"):
            break
        if word == "-c" and i + 1 < len(args):
            key, _, value = args[i + 1].partition("=")
            items += _config_runs(spec, key, value)
            i += 2
            continue
        i += 2 if word in values else 1
    rest = args[i:]
    for word in rest:
        argv = _ext_url(word)
        if argv:
            items.append(argv)
    if not rest:
        return items
    sub, more = rest[0], rest[1:]
    if sub == "config":
        items += _git_config(spec, more)
    elif sub == "submodule" and "foreach" in more:
        after = more[more.index("foreach") + 1 :]
        while after and after[0] in ("--recursive", "--quiet", "-q"):
            after = after[1:]
        if after:
            items.append((SCRIPT, " ".join(after)))
    elif sub == "bisect" and more[:1] == ("run",) and len(more) > 1:
        items.append(tuple(more[1:]))
    options = spec.get("scripts", {}).get(sub)
    if options:
        items += _option_values(more, frozenset(options))
    return items


def _option_values(args: tuple[str, ...], options: frozenset[str]) -> list[Item]:
    """The scripts given to `options` (`--exec CMD`, `--exec=CMD`, `-xCMD`)."""
    found: list[Item] = []
    for i, word in enumerate(args):
        if word in options and i + 1 < len(args):
            found.append((SCRIPT, args[i + 1]))
        elif word.startswith("--") and word.partition("=")[0] in options and "=" in word:
            found.append((SCRIPT, word.partition("=")[2]))
        elif len(word) > 2 and word[:2] in options and word[1] != "-":
            found.append((SCRIPT, word[2:]))
    return [f for f in found if f[1].strip().lower() not in _NOT_COMMANDS]


_CONFIG_VALUED = frozenset(["-f", "--file", "--blob", "--type", "--default", "--comment",
                            "--value", "--url"])  # fmt: skip
_CONFIG_READS = frozenset(["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list",
                           "-l", "--unset", "--unset-all", "--remove-section",
                           "--rename-section", "-e", "--edit", "--get-color",
                           "--get-colorbool", "get", "list", "unset", "remove-section",
                           "rename-section", "edit"])  # fmt: skip


def _git_config(spec: dict[str, Any], args: tuple[str, ...]) -> list[Item]:
    """`git config [options] KEY VALUE` (and `git config set KEY VALUE`): a value git will
    run later, judged now."""
    positional: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        if word in _CONFIG_READS:
            return []
        if word in _CONFIG_VALUED:
            i += 2
            continue
        if word.startswith("-"):
            i += 1
            continue
        positional.append(word)
        i += 1
    if positional[:1] == ["set"]:
        positional = positional[1:]
    if len(positional) < 2:
        return []
    return _config_runs(spec, positional[0], positional[1])


# -- containers -----------------------------------------------------------------------------

_PATH = re.compile(r"(?<![\w.~$/:@-])/[^\s'\";|&<>()`]*")


def container(spec: dict[str, Any], name: str, args: tuple[str, ...]) -> list[Item]:
    """The command a container runs, with the paths of its host mounts mapped back to the
    host folders they are (`-v ~:/h ... rm -rf /h` is `rm -rf ~`)."""
    top = PROGRAMS.get(name) or {}
    mount_options = frozenset(top.get("mount_options", ()))
    host_options = frozenset(top.get("host_options", ()))
    values = frozenset(spec.get("value_options", ()))
    mounts: list[tuple[str, str]] = []
    host = False
    entrypoint = None
    positional: list[str] = []
    command: list[str] | None = None
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            command = list(args[i + 1 :])
            break
        if positional and not spec.get("after_dash"):
            command = list(args[i:])  # the words after the image (or container)
            break
        if not word.startswith("-") or word == "-":
            positional.append(word)
            i += 1
            continue
        option, equals, value = word.partition("=")
        if word in host_options:
            host = True
        if not equals and option in values and i + 1 < len(args):
            value = args[i + 1]
            if f"{option}={value}" in host_options:
                host = True
            i += 1
        if option in mount_options:
            mounts += _mount(value)
        elif option == "--entrypoint":
            entrypoint = value
        elif option == "--overrides" and "hostPath" in value:
            host = True
        i += 1
    if command is None:
        command = positional[1:] if spec.get("after_dash") else []
    if spec.get("node_root") and positional and positional[0].startswith("node/"):
        mounts.append(("/", spec["node_root"]))
    if entrypoint:
        command = [*split_words(entrypoint), *command]
    if not command:
        return []
    if host or not (mounts or spec.get("fresh")):
        return [tuple(command)]  # judged as on the host (its words keep their substitutions)
    return [(SCRIPT, _translate(command, mounts, bool(spec.get("fresh"))))]


def _mount(value: str) -> list[tuple[str, str]]:
    """(host source, container target) of a -v / --mount value; none for a named volume."""
    if "," in value and "=" in value:  # --mount type=bind,source=...,target=...
        parts = dict(p.partition("=")[::2] for p in value.split(","))
        source = parts.get("source") or parts.get("src") or ""
        target = parts.get("target") or parts.get("dst") or parts.get("destination") or ""
    else:
        pieces = value.split(":")
        if len(pieces) < 2:
            return []
        source, target = pieces[0], pieces[1]
    if not target.startswith("/") or not source.startswith(("/", "~", ".", "$")):
        return []  # a named volume is the container engine's, not a host folder
    return [(source, posixpath.normpath(target))]


def _translate(command: list[str], mounts: list[tuple[str, str]], fresh: bool) -> str:
    """The command's text with each absolute path under a mount's target written as the
    host path; other absolute paths of a fresh container are its own (under a temporary
    folder: judged as such)."""
    if len(command) > 2 and command[0] == "chroot":
        root = _mapped(command[1], mounts)
        if root is not None:  # chroot into a host folder: its paths are the host's there
            return _translate(command[2:], [(root, "/")], False)
    text = shell_join(command)
    if not mounts and not fresh:
        return text

    def one(match: re.Match[str]) -> str:
        path = match.group(0)
        mapped = _mapped(path, mounts)
        if mapped is not None:
            return mapped
        return CONTAINER_ROOT + path if fresh else path

    return _PATH.sub(one, text)


def shell_join(words: list[str]) -> str:
    """Words as a command line that gives them back, except that `$...` expansions in a
    word stay expansions (double quotes): `-v "$HOME":/data` maps to `$HOME`, and
    `sh -c "$(curl ...)"` still runs its substitution."""
    out = []
    for word in words:
        if ("$" in word or "`" in word) and not any(c in word for c in '"\\'):
            out.append('"' + word + '"')
        elif word[:1] == "~" and shlex.quote(word[1:] or "x") == (word[1:] or "x"):
            out.append(word)  # (~ and ~/path unquoted: the shell expands them)
        else:
            out.append(shlex.quote(word))
    return " ".join(out)


def _mapped(path: str, mounts: list[tuple[str, str]]) -> str | None:
    """The host path of a container path under one of the mounts, or None."""
    best = None
    for source, target in mounts:
        target = target.rstrip("/") or "/"
        under = target == "/" or path == target or path.startswith(target + "/")
        if under and (best is None or len(target) > len(best[1])):
            best = (source, target)
    if best is None:
        return None
    source, target = best
    rest = path[len(target) :] if target != "/" else path
    if source.rstrip("/") in ("", "/"):
        return rest or "/"
    return source.rstrip("/") + (rest if rest.startswith("/") or not rest else "/" + rest)


# -- make -----------------------------------------------------------------------------------


def make(
    spec: dict[str, Any], args: tuple[str, ...], stdin: str | None, resolve: Resolve | None
) -> list[Item]:
    """The recipes of a makefile the line shows (`-f <(...)`, `-f -`, `--eval`)."""
    found = scan(spec, args, anywhere=True)
    if found.lookup:
        return []
    texts = list(found.codes)
    unseen = []
    for file in found.files:
        text = content(file, stdin, resolve)
        if text is not None:
            texts.append(text)
        elif file.startswith("<("):
            unseen.append(file)
    items: list[Item] = []
    if unseen:
        items.append((UNSEEN, "command-output", "make"))
    if not texts:
        return items
    text = make_recipes("\n".join(texts), make_targets(spec, args))
    return [*items, (SCRIPT, text)] if text else items


def make_targets(spec: dict[str, Any], args: tuple[str, ...]) -> list[str]:
    """The targets named on a make command line (not `VAR=value`, not option values)."""
    valued = spec.get("_valued", frozenset())
    targets = []
    i = 0
    while i < len(args):
        word = args[i]
        if word in valued:
            i += 2
            continue
        if not word.startswith("-") and "=" not in word:
            targets.append(word)
        i += 1
    return targets


_ASSIGN = re.compile(r"^(?:override\s+|export\s+)?([A-Za-z_][\w.-]*)\s*(::?=|\?=|\+=|=|!=)\s*(.*)$")
_RULE = re.compile(r"^([^\t:=#][^:=#]*?)\s*(::?)(?!=)\s*(.*)$")
_MAKE_VAR = re.compile(r"\$(?:\(([^()$]*)\)|\{([^{}$]*)\}|([@<^*?%+|]))")


def make_recipes(text: str, targets: list[str]) -> str:
    """The shell lines make would run for `targets` (the default goal when none) and their
    prerequisites, with the makefile's variables expanded; `$(shell CMD)` runs too."""
    text = text.replace("\\\n", " ")
    variables: dict[str, str] = {}
    rules: dict[str, tuple[list[str], list[str]]] = {}
    order: list[str] = []
    shells: list[str] = []
    current: list[list[str]] = []
    for line in text.split("\n"):
        if line.startswith("\t"):
            for recipe in current:
                recipe.append(line[1:])
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        shells += re.findall(r"\$\(shell ([^()]*)\)", line)
        assign = _ASSIGN.match(stripped)
        rule = _RULE.match(stripped) if assign is None else None
        if rule is None:
            current = []
            if assign:
                name, operator, value = assign.groups()
                if operator == "+=":
                    value = (variables.get(name, "") + " " + value).strip()
                if operator == "!=":
                    shells.append(value)
                variables[name] = value
            continue
        names, _, after = rule.groups()
        prereqs, _, inline = after.partition(";")
        current = []
        for target in names.split():
            recipe: list[str] = []
            entry = rules.setdefault(target, (prereqs.split(), recipe))
            if inline.strip():
                entry[1].append(inline.strip())
            current.append(entry[1])
            if not target.startswith(".") and "%" not in target:
                order.append(target)
    wanted = list(targets) or ([variables["DEFAULT_GOAL"]] if "DEFAULT_GOAL" in variables else
                               order[:1])  # fmt: skip
    lines = [_expand(s, variables) for s in shells]
    seen: set[str] = set()
    while wanted and len(seen) < MAX_TARGETS:
        target = wanted.pop(0)
        if target in seen or target not in rules:
            continue
        seen.add(target)
        prereqs, recipe = rules[target]
        wanted += [p for p in _expand(" ".join(prereqs), variables).split() if p not in seen]
        for line in recipe:
            line = line.lstrip()
            while line[:1] in ("@", "-", "+"):
                line = line[1:].lstrip()
            lines.append(_expand(line, variables, target, prereqs))
    return "\n".join(lines)


def _expand(
    line: str, variables: dict[str, str], target: str = "", prereqs: list[str] | None = None
) -> str:
    """Make's `$(VAR)`, `${VAR}`, `$@`, `$<`, `$^` in a line (two rounds), `$$` as `$`;
    an unknown value becomes a shell variable (unknown to the shell model too)."""

    def one(match: re.Match[str]) -> str:
        inside = match.group(1) or match.group(2)
        auto = match.group(3)
        if auto is not None:
            if auto == "@":
                return target
            if auto in ("<", "^", "+", "?"):
                return " ".join(prereqs or []) if auto != "<" else (prereqs or [""])[0]
            return "${MAKE_AUTO}"
        inside = inside or ""
        if inside.startswith("shell "):
            return "$(" + inside[6:] + ")"
        if inside in variables:
            return variables[inside]
        return "${" + re.sub(r"\W", "_", inside.split()[0] if inside.split() else "X") + "}"

    line = line.replace("$$", "\0")
    for _ in range(2):
        line = _MAKE_VAR.sub(one, line)
    return line.replace("\0", "$")


# -- just -----------------------------------------------------------------------------------


def just(
    spec: dict[str, Any], args: tuple[str, ...], stdin: str | None, resolve: Resolve | None
) -> list[Item]:
    found = scan(spec, args, anywhere=True)
    if found.lookup:
        return []
    items: list[Item] = list(found.items)
    for file in found.files:
        text = content(file, stdin, resolve)
        if text is not None:
            items += just_recipes(text, just_names(spec, args))
        elif file.startswith("<("):
            items.append((UNSEEN, "command-output", "just"))
    return items


def just_names(spec: dict[str, Any], args: tuple[str, ...]) -> list[str]:
    return make_targets(spec, args)


_RECIPE = re.compile(r"^@?([A-Za-z_][\w-]*)((?:\s+[^:=\s]+)*)\s*:(?!=)\s*(.*)$")
_JUST_VAR = re.compile(r"^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(.*)$")


def just_recipes(text: str, names: list[str]) -> list[Item]:
    """What `just NAMES` runs: each recipe's lines (a shebang recipe as its interpreter's
    code) and its dependencies'; the first recipe when none is named."""
    recipes: dict[str, tuple[list[str], list[str]]] = {}
    order: list[str] = []
    variables: dict[str, str] = {}
    current: list[str] | None = None
    for line in text.split("\n"):
        if line[:1] in (" ", "\t"):
            if current is not None:
                current.append(line.strip())
            continue
        current = None
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "[")):
            continue
        variable = _JUST_VAR.match(stripped)
        if variable:
            variables[variable.group(1)] = variable.group(2).strip().strip("'\"")
            continue
        recipe = _RECIPE.match(stripped)
        if recipe is None:
            continue
        body: list[str] = []
        deps = [d for d in recipe.group(3).split() if re.fullmatch(r"[A-Za-z_][\w-]*", d)]
        recipes.setdefault(recipe.group(1), (deps, body))
        order.append(recipe.group(1))
        current = body
    wanted = [n for n in names if n in recipes] or order[:1]
    items: list[Item] = []
    seen: set[str] = set()
    while wanted and len(seen) < MAX_TARGETS:
        name = wanted.pop(0)
        if name in seen or name not in recipes:
            continue
        seen.add(name)
        deps, body = recipes[name]
        wanted = deps + wanted
        lines = [_just_expand(b, variables) for b in body if b]
        if lines and lines[0].startswith("#!"):
            items += shebang_items(lines[0], "\n".join(lines[1:]))
        else:
            items.append((SCRIPT, "\n".join(ln.lstrip("@-") for ln in lines)))
    return items


def _just_expand(line: str, variables: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        return variables.get(name, "${" + re.sub(r"\W", "_", name) + "}")

    return re.sub(r"\{\{(.*?)\}\}", one, line)


def shebang_items(line: str, body: str) -> list[Item]:
    """A script under a `#!` line: shell text, or its interpreter's code."""
    words = line[2:].split()
    if words and words[0].endswith("/env"):
        words = [w for w in words[1:] if not w.startswith("-")]
    program = posixpath.basename(words[0]) if words else "sh"
    language = language_of(program)
    if language is not None:
        return [(CODE, language, body)]
    return [(SCRIPT, body)]


# -- package.json scripts -------------------------------------------------------------------

# what a package manager's subcommand runs of package.json's scripts (with their pre/post)
_NPM_RUNS = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
             "restart": "restart"}  # fmt: skip
_NPM_INSTALLS = ("install", "i", "ci", "add", "isntall", "in")
_LIFECYCLE = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
              "postprepare"]  # fmt: skip
_YARN_OWN = frozenset(
    [
        "add",
        "audit",
        "autoclean",
        "bin",
        "cache",
        "check",
        "config",
        "create",
        "dedupe",
        "dlx",
        "exec",
        "explain",
        "generate-lock-entry",
        "global",
        "help",
        "import",
        "info",
        "init",
        "install",
        "licenses",
        "link",
        "list",
        "login",
        "logout",
        "node",
        "npm",
        "outdated",
        "owner",
        "pack",
        "patch",
        "patch-commit",
        "plugin",
        "policies",
        "publish",
        "rebuild",
        "remove",
        "search",
        "set",
        "stage",
        "tag",
        "team",
        "unlink",
        "unplug",
        "up",
        "upgrade",
        "upgrade-interactive",
        "version",
        "versions",
        "why",
        "workspace",
        "workspaces",
        "constraints",
        "dedupe",
        "store",
        "server",
        "env",
        "fetch",
        "root",
        "prune",
        "deploy",
        "setup",
        "doctor",
        "import",
        "licenses",
        "patch-remove",
        "approve-builds",
        "ignored-builds",
    ]
)


def package_scripts(manager: str, args: tuple[str, ...]) -> list[str]:
    """The package.json scripts a package-manager command runs, in order (`npm test`:
    pretest, test, posttest; `npm install` with no package: the install lifecycle)."""
    words = [a for a in args if not a.startswith("-")]
    if manager == "bun":
        if words[:1] == ["run"] and len(words) > 1:
            return _with_hooks(words[1])
        return []
    if not words:
        return list(_LIFECYCLE) if manager in ("yarn", "pnpm") else []
    sub, rest = words[0], words[1:]
    if sub in ("run", "run-script", "rum", "urn"):
        return _with_hooks(rest[0]) if rest else []
    if sub in _NPM_RUNS:
        return _with_hooks(_NPM_RUNS[sub])
    if sub in _NPM_INSTALLS:
        return list(_LIFECYCLE) if not rest and sub != "add" else []
    if manager in ("yarn", "pnpm") and sub not in _YARN_OWN:
        return _with_hooks(sub)
    return []


def _with_hooks(name: str) -> list[str]:
    return [f"pre{name}", name, f"post{name}"]


def package_text(text: str, names: list[str]) -> tuple[str, list[str]]:
    """The shell lines of the package.json scripts `names` (those it defines), and the
    names found."""
    try:
        data = json.loads(text)
    except ValueError:
        return "", []
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return "", []
    found = [n for n in names if isinstance(scripts.get(n), str)]
    return "\n".join(scripts[n] for n in found), found
