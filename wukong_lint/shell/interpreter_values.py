"""What interpreter code sends and deletes beyond a plain literal (read by interpreters.py).

- Paths built from a literal folder and a value: `os.path.join('/etc', f)`, `'/etc/' + f`,
  `f'/etc/{f}'`, `` `/etc/${f}` ``, `Path('/etc') / f`: "some file under /etc", the path
  `/etc/*` (only when the literal part is an absolute or home path below the root or the
  home folder itself: a relative one, `/` or `~/` say nothing about where it points).
  Names bound by a loop over a literal glob (`for f in glob.glob('/etc/*')`,
  `Dir.glob('/etc/*').each { |f|`) are that glob.
- Network sends (an HTTP client's POST/PUT/PATCH, `fetch` with a body, a socket's send) of
  the whole environment (`os.environ`, `process.env`, `ENV.to_h`, `%ENV`, `$_ENV`) or of a
  file the code reads (`open('~/.aws/credentials').read()`): judged as the `curl` upload
  they amount to (`curl -d "$(env)" URL`, `curl --data-binary @PATH URL`), so that the
  credential-exfiltration rule decides as for the shell. One named variable sent
  (`os.environ['OPENAI_API_KEY']`, `process.env.GITHUB_TOKEN`, or a name bound to one) is
  the `curl` that sends `$NAME`, in an Authorization header when the code puts it in one:
  the secret-variable rules decide by its name and the host (its provider's, or another).
  A file under the home folder (`os.homedir() + '/.npmrc'`, `Path.home() / '.aws'`) is the
  `~/...` path it names.
"""

from __future__ import annotations

import re

from wukong_lint.shell.unwrap import SCRIPT

_Q = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
_HOLE = re.compile(r"\{[^{}]*\}|\$\{[^{}]*\}")
_JOINED = re.compile(
    r"(?:os\.path\.join|path\.join|path\.resolve|File\.join|join_paths)\s*\(\s*(" + _Q + r")\s*,"
    r"|(?:Path|PurePath|Pathname\.new)\s*\(\s*(" + _Q + r")\s*\)\s*/"
    r"|(" + _Q + r")\s*(?:\+|\.(?!\s*\w+\s*\())\s*(?![\s'\"])"
    r"|\bf(" + _Q + r")"
    r"|(`[^`]*\$\{[^`]*`)"
)
_GLOB_LOOP = re.compile(
    r"\bfor\s+(?:my\s+)?\$?(\w+)\s+in\s+(?:glob\.i?glob|glob|Dir\.glob|Dir\[)\s*\(?\s*(" + _Q + ")"
    r"|(?:Dir\.glob|Dir\[)\s*\(?\s*(" + _Q + r")\s*\)?\]?\s*\.each\s*(?:do\s*\||\{\s*\|)\s*(\w+)"
    r"|\bforeach\s+(?:my\s+)?\$(\w+)\s*\(\s*glob\s*\(?\s*(" + _Q + ")"
)
_SEND = re.compile(
    r"\b(?:requests|httpx|session|client|http|aiohttp|urllib3|axios|got|superagent|"
    r"HTTParty|Faraday|RestClient|Net::HTTP|ua|\$ua|\$http)\s*(?:\.|::|->)\s*"
    r"(?:post|put|patch|request|post_form|urlopen)\s*\("
    r"|\burllib\.request\.(?:urlopen|Request)\s*\(|\burlopen\s*\(|\bRequest\s*\("
    r"|\bfetch\s*\([^)]*\bbody\s*:|\bsendall\s*\(|\.send\s*\(|\bcurl_setopt\b"
    r"|\bfile_get_contents\s*\(\s*['\"]https?:|\bstream_context_create\s*\("
)
_URL = re.compile(r"""['"`](https?://[^'"`\s]{1,200})""")
_WHOLE_ENV = re.compile(
    r"\bos\.environ\b(?!\s*(?:\[|\.get\b|\.setdefault\b|\.pop\b|\.update\b|\.__setitem__))"
    r"|\bprocess\.env\b(?!\s*(?:\.|\[))|\bENV\s*\.\s*(?:to_h|to_a|inspect|to_s|each)\b"
    r"|%ENV\b|\$_ENV\b(?!\s*\[)|\bgetenv\s*\(\s*\)|\bos\.Environ\s*\(\s*\)"
)
# one environment variable read by name (its name in whichever group matched)
_ENV_ONE = re.compile(
    r"os\.environ\s*\[\s*['\"](\w+)['\"]\s*\]|os\.environ\.get\(\s*['\"](\w+)['\"]"
    r"|os\.getenv\(\s*['\"](\w+)['\"]|process\.env\.(\w+)|process\.env\[\s*['\"](\w+)['\"]\s*\]"
    r"|\bENV\[\s*['\"](\w+)['\"]\s*\]|\$ENV\{\s*['\"]?(\w+)['\"]?\s*\}|\bgetenv\(\s*['\"](\w+)['\"]"
    r"|Deno\.env\.get\(\s*['\"](\w+)['\"]|System\.getenv\(\s*['\"](\w+)['\"]"
)
_BOUND = re.compile(
    r"(?:^|[\s;({,])(?:my\s+|const\s+|let\s+|var\s+)?[$]?(\w+)\s*=\s*[^;\n=]{0,40}$"
)
_AUTH_NEAR = re.compile(
    r"(?i)authorization|bearer|headers|x-api-key|api[-_]?key['\"]\s*:|token\s+['\"]"
)
_HOME_JOINED = re.compile(
    r"(?:(?:require\(\s*['\"](?:node:)?os['\"]\s*\)|\bos)\.homedir\(\s*\)|Path\.home\(\s*\)"
    r"|process\.env\.HOME|os\.environ\[\s*['\"]HOME['\"]\s*\]|Dir\.home|ENV\[\s*['\"]HOME['\"]\s*\]"
    r"|os\.path\.expanduser\(\s*['\"]~['\"]\s*\))\s*(?:\+|/|,)\s*(" + _Q + ")"
)
_READS = re.compile(
    r"(?:\bopen|\bPath|\bPathname\.new|\bFile\.(?:read|open|binread)|\bIO\.read|"
    r"\breadFileSync|\bfs\.readFile|\bfile_get_contents|\bslurp|\bDeno\.readTextFile)"
    r"\s*\(\s*(?:(?:os\.path\.)?expanduser\s*\(\s*|File\.expand_path\s*\(\s*)?(" + _Q + ")"
)


def _unquote(token: str) -> str:
    return re.sub(r"\\(.)", r"\1", token[1:-1])


def _anchored(prefix: str) -> str | None:
    """`prefix*` for a literal start of a path that says where it points (absolute, home)."""
    if not prefix.startswith(("/", "~")) or len(prefix) > 300:
        return None
    if len([p for p in prefix.split("/") if p and p != "~"]) < 1:
        return None  # '/' + x, '~/' + x: the value decides where it points
    return prefix.rstrip("/") + "/*" if not prefix.endswith("*") else prefix


def joined_paths(code: str) -> dict[int, str]:
    """Offset in `code` of a path built from a literal folder and a value -> the glob it
    stands for (`/etc/*`)."""
    found: dict[int, str] = {}
    for match in _JOINED.finditer(code):
        token = next(g for g in match.groups() if g is not None)
        if token.startswith("`"):
            prefix = token[1 : token.index("${")]
        elif match.group(4) is not None:  # an f-string: up to its first value
            inner = _unquote(token)
            hole = _HOLE.search(inner)
            if hole is None:
                continue
            prefix = inner[: hole.start()]
        else:
            prefix = _unquote(token)
            if match.group(3) is not None and not prefix.endswith("/"):
                continue  # "rm -rf " + x: a command, not a folder
        glob = _anchored(prefix)
        if glob is not None:
            found[match.start()] = glob
    return found


def glob_names(code: str) -> dict[str, str]:
    """Names bound by a loop over a literal glob -> that glob."""
    names: dict[str, str] = {}
    for match in _GLOB_LOOP.finditer(code):
        groups = match.groups()
        if groups[0] is not None:
            name, token = groups[0], groups[1]
        elif groups[2] is not None:
            name, token = groups[3], groups[2]
        else:
            name, token = groups[4], groups[5]
        names[name] = _unquote(token)
    return names


_ENV_NAME = re.compile(
    r"(?:^|[\s;({,])(?:my\s+|const\s+|let\s+|var\s+)?[$%]?(\w+)\s*=\s*[^;\n]{0,80}?(?:"
    + _WHOLE_ENV.pattern
    + ")"
)


def _arguments(code: str, start: int) -> str:
    """A call's arguments from `start` (after its opening parenthesis) to the closing one
    (at most 2,000 characters: a one-liner's call, not a program's)."""
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


def _named(code: str, window: str, url: str) -> list[tuple[str, ...]]:
    """The `curl` sending each variable the call's arguments read by name (or a name bound
    to one earlier: `k = os.environ['X']; post(url, data=k)`)."""
    names: list[tuple[str, bool]] = []
    for match in _ENV_ONE.finditer(window):
        name = next(g for g in match.groups() if g is not None)
        before = window[max(0, match.start() - 80) : match.start()]
        names.append((name, _AUTH_NEAR.search(before) is not None))
    for match in _ENV_ONE.finditer(code):
        bound = _BOUND.search(code[max(0, match.start() - 60) : match.start()])
        if bound is not None and re.search(rf"\b{re.escape(bound.group(1))}\b", window):
            name = next(g for g in match.groups() if g is not None)
            names.append((name, _AUTH_NEAR.search(window) is not None))
    found: list[tuple[str, ...]] = []
    for name, auth in dict.fromkeys(names):
        if auth:
            found.append((SCRIPT, f'curl -H "Authorization: ${name}" {url}'))
        else:
            found.append((SCRIPT, f'curl -d "${name}" {url}'))
    return found[:8]


def sends(code: str) -> list[tuple[str, ...]]:
    """The uploads a program makes of the environment or of files it reads, as the `curl`
    commands they amount to (none when it sends nothing)."""
    if not _SEND.search(code):
        return []
    url_match = _URL.search(code)
    url = url_match.group(1) if url_match else "https://unknown.invalid/"
    found: list[tuple[str, ...]] = []
    dumps = {m.group(1) for m in _ENV_NAME.finditer(code)}  # env = dict(os.environ)
    for match in _SEND.finditer(code):
        window = _arguments(code, match.end())
        if _WHOLE_ENV.search(window) or any(re.search(rf"\b{n}\b", window) for n in dumps):
            found.append((SCRIPT, f'curl -d "$(env)" {url}'))
            break
        found += _named(code, window, url)
    for match in _READS.finditer(code):
        path = _unquote(match.group(1))
        if path and not path.startswith(("http:", "https:")) and "\n" not in path:
            found.append(("curl", "--data-binary", "@" + path, url))
        if len(found) > 20:
            break
    for match in _HOME_JOINED.finditer(code):  # os.homedir() + '/.npmrc'
        rest = _unquote(match.group(1)).lstrip("/")
        if rest and "\n" not in rest:
            found.append(("curl", "--data-binary", "@~/" + rest, url))
        if len(found) > 24:
            break
    return found
