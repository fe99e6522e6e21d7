"""What a value in a credential file must look like to be a live credential, and which keys
name a password, a host or a user. Shared by the credential-file formats and the logins in
data files; the shared placeholder and template filters (engine/filters.py) decide first."""

from __future__ import annotations

import base64
import binascii
import functools
import re

from wukong_lint.engine.filters import is_placeholder, is_template

# Values that name the kind of thing rather than being it (a JSON schema's "type", a form's
# field type), and values that mean "nothing here".
_TYPE_WORDS = frozenset(
    """string str text password passwd pass secret token char varchar bytes int integer bool
    boolean object array number any none null nil undefined true false yes no on off empty
    required optional hidden masked sensitive default unset prompt ask keyring keychain
    env environment vault""".split()  # noqa: SIM905
)
# Indirect or protected values: a command to run, an environment or vault reference, an
# encrypted blob with its scheme (Maven `{...}`, Spring `{cipher}`, Jasypt `ENC(...)`).
_INDIRECT = re.compile(
    r"""^(?:`|\$\(|\$[A-Za-z_{]|%[A-Za-z_]\w*%|!{1,2}[a-z]+(?:\s|$)|ENC\(|\{cipher\}|\{[A-Za-z0-9+/=]{8,}\}$
    |vault:|secret://|op://|keyring:|env:|file:|\*+$|<[^>]*>$|\[[^\]]*\]$)""",
    re.X,
)
# values of tests and demos (`test123`, `demo-pass`, `foo`), as the generic rule treats them
_TEST_VALUE = re.compile(r"(?i)test|demo|mock|fixture|(?<![a-z])(?:foo|bar|baz|qux)(?![a-z])")
# documentation's stock passwords (`scott` / `tiger`, `hunter2`), Java's keystore default
_DEMO_VALUES = frozenset(
    ["hunter2", "tiger", "changeit", "passw0rd", "p@ssw0rd", "p@55w0rd", "s3cret", "s3cr3t"]
)
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_PROSE = re.compile(r"^[A-Za-z][A-Za-z,.'()-]*(?: [A-Za-z,.'()-]+){2,}$")


def is_live(value: str, key: str = "") -> bool:
    """Whether `value` may be a real credential: not empty, not a placeholder, template,
    type name, reference, prose, nor the key's own name."""
    value = value.strip()
    if len(value) < 3:
        return False
    lowered = value.lower()
    if lowered in _TYPE_WORDS or lowered in _DEMO_VALUES:
        return False
    if "passw" in lowered or lowered.startswith(("my_", "my-", "mypass", "mysecret")):
        return False  # `password123`, `mypassword`: a value that names itself is a stand-in
    if _ENV_NAME.match(value):
        return False  # `NPM_TOKEN`: the name of a variable that holds it
    if key and lowered in (key.lower(), key.lower().replace("_", "").replace("-", "")):
        return False
    # `%s` / `%d` inside a generated password are chance, not printf holes
    if _INDIRECT.match(value) or is_template(re.sub(r"%[sd]", "", value)) or is_placeholder(value):
        return False
    return not (_TEST_VALUE.search(value) or _PROSE.match(value))


# In a credential file the format says a field holds a password: any literal value there is
# a committed credential (a weak one is still one). These say instead that the file holds
# none: empty, "not set", a prompt, or a reference to where the value really lives.
_NOTHING_WORDS = frozenset(
    """none null nil undefined empty unset prompt ask keyring keychain env environment vault
    true false yes no on off required optional hidden""".split()  # noqa: SIM905
)
_REFERENCE = re.compile(
    r"""^(?:`|\$\(|\$[A-Za-z_{]|%[A-Za-z_]\w*%|!{1,2}[a-z]+(?:\s|$)|ENC\(|\{cipher\}
    |\{[A-Za-z0-9+/=]{8,}\}$|vault:|secret://|op://|keyring:|env:|file:)""",
    re.X,
)

LIVE = "live"
PLACEHOLDER = "placeholder"


def grade(value: str, key: str = "") -> str:
    """What a value in a field the file's format says is a password is: LIVE (a real-looking
    credential: report it high), PLACEHOLDER (`password`, `changeme`, `xxx`, `<password>`:
    still a credential committed in a credential file, reported low), or "" (no credential
    in the file: empty, a reference such as `${TOKEN}` or `!pass show x`, a template)."""
    value = value.strip()
    if len(value) < 2:
        return ""
    if is_live(value, key):
        return LIVE
    lowered = value.lower()
    if re.fullmatch(r"<(?![%=#])[^<>]+>|\[[^\[\]]+\]", value):
        return PLACEHOLDER  # `<password>`, `[password]`: a blank a document left to fill
    if lowered in _NOTHING_WORDS or _REFERENCE.match(value) or is_template(value):
        return ""
    if "example" in lowered:  # a provider's documented sample (AWS's `...EXAMPLEKEY`): quiet
        return ""
    if _PROSE.match(value) and lowered not in _DEMO_VALUES:
        return ""  # a sentence where a value goes: a comment in the wrong place
    return PLACEHOLDER


def b64decode(value: str) -> bytes | None:
    """The bytes of a base64 (or base64url) value; None when it does not decode."""
    text = value.strip()
    if not text or len(text) % 4 == 1 or not re.fullmatch(r"[A-Za-z0-9+/_\-]+={0,2}", text):
        return None
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_" if (
            "-" in text or "_" in text) else None, validate=True)  # fmt: skip
    except (binascii.Error, ValueError):
        return None


def b64text(value: str) -> str | None:
    """The UTF-8 text a base64 value encodes (printable only); None otherwise."""
    raw = b64decode(value)
    if raw is None:
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text.isprintable() else None


@functools.lru_cache(maxsize=4096)  # (a data file repeats its keys: asked thousands of times)
def _last_word(key: str) -> str:
    """The last word of a key: `spring.datasource.password` -> `password`, `DB_PASSWORD` ->
    `password`, `userPassword` -> `password`."""
    key = key.strip().strip("\"'")
    piece = re.split(r"[._\-/:\s]", key)[-1] if key else ""
    camel = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", piece)
    return (camel[-1] if camel else piece).lower()


_PASSWORD_WORDS = frozenset(["password", "passwd", "pwd", "pass", "passphrase", "passw", "pword"])
_HOST_WORDS = frozenset(
    "host hostname server url uri address addr endpoint dsn domain jdbcurl serverhost".split()  # noqa: SIM905
)
_USER_WORDS = frozenset("user username login userid uid usr account principal".split())  # noqa: SIM905


def is_password_key(key: str) -> bool:
    word = _last_word(key)
    if word in _PASSWORD_WORDS:
        return True
    lowered = key.lower()
    return lowered.endswith(("password", "passwd", "passphrase")) and not lowered.endswith("bypass")


def is_host_key(key: str) -> bool:
    word = _last_word(key)
    lowered = key.lower().replace("-", "").replace("_", "")
    return word in _HOST_WORDS or lowered.endswith(("host", "url", "jdbcurl", "server"))


def is_user_key(key: str) -> bool:
    word = _last_word(key)
    lowered = key.lower().replace("-", "").replace("_", "")
    return word in _USER_WORDS or lowered.endswith(("user", "username", "login", "userid"))


def group_prefix(key: str) -> str:
    """The part of a flat key before its last word (`spring.datasource.`, `DB_`): flat files
    (.env, .properties) group one login's keys by it."""
    key = key.lower()
    cut = max(key.rfind("."), key.rfind("_"), key.rfind("-"))
    return key[:cut] if cut > 0 else ""
