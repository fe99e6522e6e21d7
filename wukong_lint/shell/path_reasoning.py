"""Where a path word of a command points: the root, a home folder, a system folder, the
project, a temporary folder...

A command line is judged against its project: the transcript's or the hook event's `cwd`
(the project root), or, in a file scan, an unknown root (relative paths are inside it,
absolute paths are not). `~`, `$HOME`, `${HOME}`, `$TMPDIR`, `$PWD`, `$(pwd)` are expanded,
`..` and `.` normalised, and the folder a `cd` earlier on the line moved to (`cwd`, see
shell.py) is followed, so that `cd .. && rm -rf build` deletes outside the project.

`classify(word, cwd, root)` returns one of the classes below. A path ending in `/\\0*`
stands for "some of the files under it" (find with a -name filter, say).
"""

from __future__ import annotations

import functools
import posixpath
import re

from wukong_lint.util.star_globs import globs_overlap, has_glob

ROOT = "root"  # / or /*
HOME = "home"  # a home folder itself, all of it (~, ~/*, /home/user)
HOME_CHILD = "home-child"  # something in a home folder outside the project
CREDENTIAL = "credential"  # keys, tokens, password files, a process's environment
SECRET = "secret"  # a file of the project (or a temporary one) named for secrets: .env, *.pem
SYSTEM = "system"  # /etc, /usr, /var, /bin... and what is under them
DEVICE = "device"  # /dev/...
OUTSIDE = "outside"  # anything else outside the project
PROJECT_ROOT = "project-root"  # the project folder itself, or all of it (., *, $PWD)
GIT_DIR = "git-dir"  # the repository's .git
PROJECT = "project"  # a file or folder inside the project
DISPOSABLE = "disposable"  # build output, dependencies, caches inside the project
TEMP = "temp"  # /tmp, /var/tmp, $TMPDIR, mktemp
CACHE = "cache"  # ~/.cache, /var/cache, apt lists: rebuilt on demand
UNKNOWN = "unknown"  # depends on a value the line does not give
# a function's argument where the function is defined (`f() { rm -rf "$1"; }`): the value a
# call passes, judged where it is called (the class: the word holds ARGUMENT)
ARGUMENT_CLASS = "argument"
ARGUMENT = "\x1farg\x1f"
ENVIRON = "/proc/self/environ"  # what `env`, `printenv`, `set`, `export -p` print

UNDER = "/\0*"  # some of the files under a folder (a -name pattern may follow)
STDIN = "\0stdin"  # targets read from a pipe whose content is unknown

_PROJECT = "/\0w/\0w/\0w/\0w/\0project"  # stands for an unknown project root
_HOME = "/\0h/\0h/\0home"  # stands for an unknown home folder
_ESCAPED = "/\0w"


@functools.cache
def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


SYSTEM_TOP = _names(
    "etc usr bin sbin lib lib32 lib64 libx32 boot var opt srv sys proc run snap mnt media "
    "nix System Library Applications private Volumes cores"
)
TEMP_ROOTS = (
    "/tmp",
    "/var/tmp",
    "/private/tmp",
    "/var/folders",
    "/private/var/folders",
    "/dev/shm",
)
CACHE_ROOTS = ("/var/cache", "/var/lib/apt/lists", "/usr/share/doc", "/usr/share/man",
               "/root/.cache", "/root/.npm")  # fmt: skip
HOME_CACHES = frozenset([".cache", ".npm", ".yarn", ".pnpm-store", ".gradle", ".m2",
                         "Library/Caches", ".cargo/registry", ".cargo/git", ".nuget",
                         ".local/share/Trash", ".bun/install/cache", ".deno"])  # fmt: skip
# The user's credential files (rules/paths/credentials.yaml holds the same list for the
# path rules; tests/test_credential_paths.py keeps the two in step). Folders count whole,
# but for the files in NOT_CREDENTIALS.
HOME_CREDENTIALS = (".ssh", ".aws", ".gnupg", ".kube/config", ".docker/config.json", ".netrc",
                    ".git-credentials", ".npmrc", ".pypirc", ".config/gcloud", ".azure",
                    ".password-store", ".vault-token", ".config/gh/hosts.yml",
                    ".terraform.d/credentials.tfrc.json", ".terraformrc", ".gem/credentials",
                    ".pgpass", ".my.cnf", ".mylogin.cnf", ".s3cfg", ".boto", ".config/rclone",
                    ".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json",
                    ".gemini/google_accounts.json", ".config/github-copilot",
                    ".config/glab-cli/config.yml", ".config/hub", ".cargo/credentials",
                    ".cargo/credentials.toml", ".config/git/credentials", ".yarnrc.yml",
                    ".config/doctl/config.yaml", ".local/share/keyrings", "Library/Keychains",
                    ".m2/settings-security.xml")  # fmt: skip
# files inside those folders that hold no secret (`cat ~/.ssh/config | curl ...` sends none)
NOT_CREDENTIALS = (".ssh/config", ".ssh/known_hosts", ".ssh/known_hosts.old",
                   ".ssh/known_hosts2", ".ssh/authorized_keys", ".aws/config")  # fmt: skip
SYSTEM_CREDENTIALS = ("/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/ssh", "/etc/ssl/private",
                      "/root/.ssh", "/var/lib/docker", "/etc/kubernetes/pki", "/var/run/secrets",
                      "/run/secrets")  # fmt: skip
# file names that hold secrets wherever they are (`.env`, `*.pem`...; `.env.example` does not)
_SECRET_NAME = (
    r"\.env|\.env\.(?!(example|sample|template|dist|defaults?|schema)$)[\w.-]+|[\w.-]+\.env"
    r"|credentials(\.json)?|secrets?\.(ya?ml|json|toml)|[\w.-]+\.(pem|key|p12|pfx|jks|keystore)"
    r"|id_(rsa|dsa|ecdsa|ed25519)|\.htpasswd|service[-_]?account[\w.-]*\.json|\.git-credentials"
    r"|\.netrc|\.pgpass|\.pypirc|\.npmrc|\.vault-token|terraform\.tfstate(\.backup)?"
)
_SECRET_CLASSES = frozenset(["project", "disposable", "temp"])  # (PROJECT... defined below)
DISPOSABLE_NAMES = _names(
    "build dist out target node_modules .next .nuxt .turbo .cache .parcel-cache coverage "
    ".nyc_output "
    ".coverage htmlcov .pytest_cache __pycache__ .mypy_cache .ruff_cache .tox .nox venv "
    ".venv tmp .tmp temp .eggs .gradle .dart_tool bower_components _build .svelte-kit "
    ".angular storybook-static obj DerivedData .expo .webpack .vercel .serverless "
    ".sass-cache jspm_packages .hypothesis .ipynb_checkpoints site-packages .docusaurus "
    "public/build .DS_Store Thumbs.db desktop.ini cmake-build-debug cmake-build-release "
    "logs log artifacts .terraform .pnpm-store "
    # lock files: regenerated by the package manager (`rm -rf node_modules package-lock.json`)
    "package-lock.json yarn.lock pnpm-lock.yaml bun.lockb npm-shrinkwrap.json"
)
DISPOSABLE_SUFFIXES = tuple(
    _names(".pyc .pyo .o .obj .class .log .egg-info .tmp .bak .swp .orig .rej .so .a .dSYM .out ~")
)
DEV_SINKS = frozenset(
    "/dev/" + name for name in _names("null zero stdout stderr stdin tty random urandom full ptmx")
)
_WHOLE = frozenset(["*", ".*", "{*,.*}", "{.*,*}", "*.*", "**", "**/*", "{,.}*", ".[!.]*"])
# (patterns compiled when first used: most command lines never need them)
_VAR = r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::?([-=?+])([^}]*))?\}?"
_BRACES = r"\{([^{}]*,[^{}]*)\}"
_SUBST = r"^(?:\$\(\s*(\w+)[^)]*\)|`\s*(\w+)[^`]*`)"


def expand_braces(word: str, limit: int = 16) -> list[str]:
    """`{/,~}` and `/usr/{bin,lib}` as the shell expands them (a few levels, a few words)."""
    words = [word]
    for _ in range(3):
        more = []
        for one in words:
            match = _rx(_BRACES).search(one) if "{" in one else None
            if match is None:
                more.append(one)
                continue
            head, tail = one[: match.start()], one[match.end() :]
            more += [head + part + tail for part in match.group(1).split(",")]
        words = more[:limit]
        if all("{" not in one or _rx(_BRACES).search(one) is None for one in words):
            break
    return words


def home_of(root: str | None) -> str:
    """The user's home folder, told by the project root's path, or a stand-in."""
    if root:
        parts = root.split("/")
        if len(parts) >= 3 and parts[1] in ("home", "Users") and parts[2]:
            return "/".join(parts[:3])
        if root == "/root" or root.startswith("/root/"):
            return "/root"
    return _HOME


def _expand(word: str, cwd: str, home: str) -> str | None:
    """The word with its leading ~ / variable / substitution expanded; None if unknown."""
    if word.startswith("~"):
        end = word.find("/")
        head, rest = (word, "") if end < 0 else (word[:end], word[end:])
        if head == "~":
            return home + rest
        return "/home/" + head[1:] + rest  # ~user: another user's home
    if word.startswith(("<(", ">(")):
        return None  # a process substitution: a pipe whose content the word does not give
    if word.startswith(("$", "`")):
        match = _rx(_VAR).match(word)
        if match:
            name, op, default = match.group(1), match.group(2), match.group(3)
            rest = word[match.end() :]
            if op == "+":
                return None  # ${X:+alt}: the alternative or nothing
            if op == "?":
                default = None  # ${X:?}: the value itself, or the shell stops
            if name == "HOME":
                return home + rest
            if name in ("TMPDIR", "TMP", "TEMP", "RUNNER_TEMP"):
                return "/tmp" + rest
            if name in ("PWD",):
                return cwd + rest
            if name == "OLDPWD":
                return None
            if default and "$" not in default and "`" not in default and op in ("-", "="):
                # `${OUT:-dist}`: the value the line gives for when the variable is not set
                # (set, it is the caller's: a script's input, like its arguments)
                default = default.strip("'\"")
                if not default:
                    return None
                if default.startswith(("/", "~")):
                    return _expand(default, cwd, home)
                return default + rest
            return None
        match = _rx(_SUBST).match(word)
        if match:
            program = match.group(1) or match.group(2)
            rest = word[match.end() :]
            if program == "pwd" or "--show-toplevel" in word[: match.end()]:
                return cwd + rest  # (the repository's top: the project, for a guard)
            if program == "mktemp":
                return "/tmp/\0mktemp" + rest
        return None
    return word


_CLIMB_AFTER_UNKNOWN = re.compile(r"[$`].*?(?:^|/)\.\.(?:/|$)")


@functools.lru_cache(maxsize=8192)
def resolve(word: str, cwd: str, root: str | None) -> str | None:
    """The absolute, normalised path a word names, with stand-ins for an unknown project root
    and home; None when it depends on something unknown."""
    home = home_of(root)
    project = root or _PROJECT
    if cwd == "?":
        return None
    base = project if cwd in ("", ".") else resolve(cwd, ".", root)
    if base is None:
        return None
    expanded = _expand(word, base, home)
    if expanded is None:
        return None
    if ".." in expanded and _CLIMB_AFTER_UNKNOWN.search(expanded):
        return None  # `/tmp/$x/..`: `..` climbs from a depth the line does not give
    if not expanded.startswith("/"):
        expanded = base + "/" + expanded
    path = posixpath.normpath(expanded)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    return path


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _relative_disposable(rel: str) -> bool:
    if "[" in rel and _BRACKET.search(rel):  # `*.py[co]`: when every spelling of it is
        spellings = _bracket_spellings(rel)
        return bool(spellings) and all(_relative_disposable(s) for s in spellings)
    parts = rel.split("/")
    for i, part in enumerate(parts):
        if part in DISPOSABLE_NAMES or "/".join(parts[i : i + 2]) in DISPOSABLE_NAMES:
            return True
        if part.endswith(DISPOSABLE_SUFFIXES) and part not in (".", ".."):
            return True
    return False


_BRACKET = re.compile(r"\[([!^]?)([^\]\[]+)\]")


def _bracket_spellings(rel: str, limit: int = 16) -> list[str]:
    """The words a pattern's `[...]` classes spell (`*.py[co]`: `*.pyc`, `*.pyo`); empty
    for a negated class, a range or more than `limit` spellings (not told)."""
    found = _BRACKET.search(rel)
    if found is None:
        return [rel]
    negated, chars = found.groups()
    if negated or "-" in chars[1:-1] or len(chars) > limit:
        return []
    out: list[str] = []
    for char in dict.fromkeys(chars):
        out += _bracket_spellings(rel[: found.start()] + char + rel[found.end() :], limit)
        if len(out) > limit:
            return []
    return out


def _named_build_output(word: str) -> bool:
    """A relative path of build output by its names alone (`.pytest_cache`, `dist/app.js`):
    no expansion, glob or `..` that could reach elsewhere."""
    if word[:1] in ("/", "~", "-") or any(c in word for c in "$`*?[{\\") or not word.strip("./"):
        return False
    return ".." not in word.split("/") and _relative_disposable(word)


def secret_name(name: str) -> bool:
    """Is a file name one that usually holds secrets (`.env`, `prod.env`, `server.key`)?"""
    return _rx(_SECRET_NAME).fullmatch(name) is not None


def _whole(last: str) -> bool:
    return last in _WHOLE


@functools.lru_cache(maxsize=8192)
def classify(word: str, cwd: str = ".", root: str | None = None) -> str:
    """The class of the place a path word names (see the module docstring)."""
    if word == STDIN or not word:
        return UNKNOWN
    if ARGUMENT in word:
        return ARGUMENT_CLASS
    if word.startswith("@"):  # curl -d @file, -T: the file is sent
        word = word[1:]
    elif "=@" in word:  # curl -F name=@file
        word = word.split("=@", 1)[1]
    if "://" in word:
        return UNKNOWN  # a URL, not a file here
    some = UNDER in word
    name = ""
    if some:
        at = word.index(UNDER)
        word, name = word[:at] or "/", word[at + len(UNDER) :]
    path = resolve(word, cwd, root)
    if path is None:
        if not some and _named_build_output(word):
            return DISPOSABLE  # `cd - && rm -rf .pytest_cache`: whichever folder, its output
        return UNKNOWN
    found = _classify_path(path, root)
    if found in _SECRET_CLASSES and not some and secret_name(path.rsplit("/", 1)[-1]):
        return SECRET  # `.env` of the project: sent away, it is a credential
    if some:
        # only some of the files under it: the root's or a home's are still system files or
        # the user's; the project's are the project's
        found = {ROOT: SYSTEM, HOME: HOME_CHILD, PROJECT_ROOT: PROJECT}.get(found, found)
        if found == PROJECT and name and _relative_disposable(name):
            return DISPOSABLE  # find . -name '*.pyc': build output
    return found


def _classify_path(path: str, root: str | None) -> str:
    home = home_of(root)
    project = root or _PROJECT
    head, last = posixpath.split(path)
    whole = _whole(last)
    folder = head if whole else path  # `dir/*` is all of dir
    if folder == "/":
        return ROOT if whole or path == "/" else _elsewhere(path, home)
    if _under(folder, project):
        rel = folder[len(project) :].lstrip("/")
        if not rel:
            return PROJECT_ROOT
        if rel == ".git" or rel.startswith(".git/"):
            return GIT_DIR
        return (
            DISPOSABLE
            if _relative_disposable(rel) or (not whole and _relative_disposable(last))
            else PROJECT
        )
    if folder.startswith(_ESCAPED + "/") or folder == _ESCAPED:
        return OUTSIDE
    return _elsewhere(folder, home)


def home_credential(rel: str) -> bool:
    """Is a path relative to a home folder (`.aws/credentials`, `.ss*/id_*`) one of the
    user's credential files? A glob counts when it can name one."""
    if rel.endswith(".pub") or rel in NOT_CREDENTIALS:
        return False
    if any(_under(rel, name) for name in HOME_CREDENTIALS):
        return True
    if not has_glob(rel):
        return False
    return any(
        globs_overlap(rel, name, True) or globs_overlap(rel, name + "/*", True)
        for name in HOME_CREDENTIALS
    )


def _elsewhere(folder: str, home: str) -> str:
    for secret in SYSTEM_CREDENTIALS:
        if _under(folder, secret):
            return CREDENTIAL
    if folder.startswith("/proc/") and folder.endswith("/environ"):
        return CREDENTIAL  # a process's environment: its tokens and keys (`env | curl`)
    if _under(folder, home):
        rel = folder[len(home) :].lstrip("/")
        if not rel:
            return HOME
        if home_credential(rel):
            return CREDENTIAL
        if any(_under(rel, cache) for cache in HOME_CACHES):
            return CACHE
        return HOME_CHILD
    for temp in TEMP_ROOTS:
        if _under(folder, temp):
            return TEMP
    if folder.startswith("/tmp/\0mktemp"):
        return TEMP
    for cache in CACHE_ROOTS:
        if _under(folder, cache):
            return CACHE
    parts = folder.split("/")
    top = parts[1] if len(parts) > 1 else ""
    if top in ("home", "Users"):
        if len(parts) <= 3:
            return HOME  # /home, /home/user: someone's home
        if home_credential("/".join(parts[3:])):
            return CREDENTIAL
        return HOME_CHILD
    if top == "root":
        if len(parts) == 2:
            return HOME
        return CREDENTIAL if home_credential("/".join(parts[2:])) else HOME_CHILD
    if folder in DEV_SINKS or folder.startswith(("/dev/fd/", "/dev/tcp/", "/dev/udp/")):
        return TEMP  # not a file: writing there destroys nothing
    if top == "dev":
        return DEVICE if len(parts) > 2 else SYSTEM
    if top in SYSTEM_TOP:
        return SYSTEM
    if folder.startswith(_HOME):
        return HOME_CHILD
    return OUTSIDE


def change_dir(cwd: str, target: str | None) -> str:
    """The folder after `cd target` from `cwd` ("." the project root, "?" unknown), kept as
    a path word that `resolve` reads later (when the project root is known)."""
    if target is None or target == "~":
        return "~"
    if target == "-" or not target:
        return "?"
    if target.startswith(("/", "~", "$", "`")):
        return target
    if cwd == "?":
        return "?"
    return target if cwd == "." else posixpath.join(cwd, target)


_KNOWN_PATH = r"\$(?:HOME|PWD|TMPDIR|\{HOME\}|\{PWD\}|\{TMPDIR\})(?![\w{])"


def known_path(value: str) -> bool:
    """A value whose only expansions are the path variables reasoned about here (`$HOME/*`):
    a loop binds it as written, so `rm -rf "$d"` in the body deletes under $HOME."""
    return "`" not in value and "$" not in _rx(_KNOWN_PATH).sub("", value)
