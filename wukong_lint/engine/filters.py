"""Named false-positive filters that rules switch on in their YAML (`filters: [...]`).

A filter is a predicate on a candidate secret: True means "this is not a real secret, drop it".
They are shared by all rules, so what counts as a placeholder is decided once, here, and each
rule only chooses which filters apply to it. No third-party imports (hot path).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from itertools import pairwise
from typing import Any


class _Lazy:
    """A regex compiled on first use: filters run only on candidate secrets, and compiling
    them at import would cost every pre-commit run. Compiled like rule regexes, from the
    cache of the `regex` engine's compiled code (a `re.compile` costs ~1 ms each, every run)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        inline = "".join(letter for flag, letter in _INLINE if flags & flag)
        self._pattern = f"(?{inline}){pattern}" if inline else pattern
        self._compiled: Any = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            from wukong_lint.engine import patterns
            from wukong_lint.engine.patterns import cache_dir

            patterns.prepare([self._pattern], cache_dir())
            self._compiled = patterns.compile_pattern(self._pattern)
        return getattr(self._compiled, name)


_INLINE = ((re.IGNORECASE, "i"), (re.VERBOSE, "x"), (re.MULTILINE, "m"), (re.DOTALL, "s"))


# Values longer than this are checked for placeholder words only at their ends.
LONG_VALUE = 64

# Words that mark a value as a stand-in, documentation or test value rather than a credential.
# Matched case-insensitively as substrings of the secret.
PLACEHOLDER_WORDS = (
    "example",
    "your",
    "placeholder",
    "changeme",
    "change_me",
    "change-me",
    "dummy",
    "sample",
    "redacted",
    "xxxx",
    "xxxxxx",
    "****",
    "...",
    "insert",
    "replace",
    "fake",
    "notreal",
    "not_a_real",
    "not-a-real",
    "mysecret",
    "secret_here",
    "goes_here",
    "todo",
    "fixme",
    "foobar",
    "lorem",
    "ipsum",
)

# Sample credentials that standards and vendor documentation print, copied into libraries'
# docstrings and tests everywhere: the OAuth 2.0 RFCs (6749, 6750, 7009), OAuth 1.0 (RFC 5849),
# AWS's documentation keys, the Azure SAS samples of AWS's and Microsoft's documentation. A
# value holding one of them is a sample, never a live credential.
KNOWN_SAMPLES = (
    "2yotnfzfejr1zcsicmwpaa",  # RFC 6749 access token
    "tgzv3jokf0xg5qx2tlkwia",  # RFC 6749 refresh token
    "splxlobezqqybys6wxsbia",  # RFC 6749 authorization code
    "czzcagrsa3f0mzpnwdfmqmf0m2jw",  # RFC 6749 client s6BhdRkqt3:gX1fBat3bV, base64
    "s6bhdrkqt3",
    "gx1fbat3bv",
    "7fjfp0zbr1ktdrbnfvdmiw",  # RFC 6749 implicit grant token
    "mf_9.b5f-4.1jqm",  # RFC 6750 bearer token
    "45ghiukldjahdnhzdauz",  # RFC 7009
    "hh5s93j4hdidpola",  # RFC 5849 tokens, secrets and verifiers
    "hdhd0244k9j7ao03",
    "kkk9d7dh3k39sjv7",
    "nnch734d00sl2jdk",
    "pfkkdhi9sl3r4s00",
    "dh893hdasih9",
    "9djdj82h48djs9d2",
    "j49sk3j29djd",
    "dpf43f3p2l4k3l03",
    "kllo9940pd9333jh",
    "abbkdwqvyuvctph9ebp",  # the Azure SAS signature of AWS DataSync's API documentation
    "f%6grvaz5cdj2pw4tgu7ilstkwgn7bukkag8p6hesxwmf",  # Microsoft Learn's SAS parameter sample
    "akiaiosfodnn7",  # AWS documentation keys
    "wjalrxutnfemi/k7mdeng",
    "je7mtgbclwbf/2zp9utk",
    "scott:tiger",
)

_TEMPLATE = _Lazy(
    r"""
    \$\{ | \{\{ | \$\( | %\( | <% | \{%    # ${VAR} {{ var }} $(cmd) %(name)s <%= %> {% %}
    | ^\$[A-Za-z_]\w*$                      # $VAR
    | ^%[A-Za-z_]\w*%$                      # %VAR% (Windows)
    | ^\{[A-Za-z_][\w.]*\}$                 # {name}
    | ^<[^<>]+>$                            # <password>
    | \{[A-Za-z_][\w.]*(?:\(\))?(?:![rsa])?(?::[^{}]*)?\}   # f-string / format hole: {name!r}
    | %s | %d                               # printf-style holes
    """,
    re.VERBOSE,
)

# Values that are code rather than data: environment lookups, attribute chains, calls.
_CODE = _Lazy(
    r"""
    os\.environ | os\.getenv | getenv\( | process\.env | env\( | ENV\[ | System\.getenv
    | config\( | settings\. | secrets\. | vault\( | \bnull\b | \bNone\b | \bundefined\b
    | ^(true|false|nil|none|null)$
    | ^[A-Za-z_][\w.]*\(                     # a call: get_token(...)
    | ^[A-Za-z_][\w.]*\[                     # an index: env["X"]
    """,
    re.VERBOSE | re.IGNORECASE,
)

# snake_case, UPPER_CASE, camelCase or PascalCase (every hump has lower-case letters)
_NAME = _Lazy(r"^(?:[a-z_][a-z0-9_]*|[A-Z_][A-Z0-9_]*|[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)*)$")
_WORDY = _Lazy(r"^[A-Za-z_\-. ]+$")
_PATHLIKE = _Lazy(r"^(/|\./|\.\./|~/|[A-Za-z]:\\)|\.(pem|key|json|ya?ml|txt|crt|p12|env|cfg)$")
_URLISH = _Lazy(r"^[a-z][a-z0-9+.-]*://[^@\s]*$", re.IGNORECASE)
_HEX = _Lazy(r"^[0-9a-f]+$")
# Two-letter words that real identifiers are made of (`get_user_id`, `to_db`).
_SHORT_WORDS = frozenset(
    "id io db os ui to of on in is by my no or up at as an do go if me we it ok v1 v2".split()  # noqa: SIM905
)
_WORD_PIECES = _Lazy(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# a class or type name: PascalCase ending in a word that names a kind of thing
_TYPE_NAME = _Lazy(
    r"^(?:[A-Z][A-Za-z0-9]*\.)*[A-Z][A-Za-z0-9]*?(?:Private|Public|Secret|Signing|Api|Access)?"
    r"(?:Key|Keys|Token|Tokens|Secret|Password|Credentials?|Type|Types|Class|Error|Exception|"
    r"Serializer|Provider|Manager|Store|Handler|Factory|Config|Settings|Field|Str|String|Bytes|"
    r"Interface|Protocol|Model|Schema|Base|Mixin|Adapter|Backend|Generator|Loader|Builder)"
    r"(?:With[A-Z][A-Za-z]+)?$"
)
_BASE64ISH = _Lazy(r"^[A-Za-z0-9+/]{8,}={0,2}$")
_UUID = _Lazy(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)


def shannon_entropy(text: str) -> float:
    """Bits per character of `text` (0.0 for the empty string)."""
    if not text:
        return 0.0
    length = len(text)
    terms = _ENTROPY_TERMS.get(length) if length <= _TERMS_UP_TO else None
    if terms is None:
        if length > _TERMS_UP_TO:
            return -sum((n / length) * math.log2(n / length) for n in Counter(text).values())
        terms = _ENTROPY_TERMS[length] = [0.0] + [
            (n / length) * math.log2(n / length) for n in range(1, length + 1)
        ]
    # the same terms summed in the same order as above: the same float, bit for bit
    return -sum(map(terms.__getitem__, Counter(text).values()))


# length -> the entropy term of each character count (every candidate secret's entropy is
# taken at least once, often by several rules: a table look-up per distinct character instead
# of a division and a logarithm); values up to this long (at most ~33,000 floats, ~1 MB)
_TERMS_UP_TO = 256
_ENTROPY_TERMS: dict[int, list[float]] = {}


_ALPHABET_RUNS = ["abcdefghijklmnopqrstuvwxyz"[i : i + 4] for i in range(23)]
_RUN_FINDER: list[Any] = []


def _alphabet_run4(lowered: str) -> bool:
    """Whether the (lower-case ASCII) text holds one of `abcd` ... `wxyz` (one automaton
    pass: a regex alternation of them scans long values slowly)."""
    if not _RUN_FINDER:
        import ahocorasick_rs

        _RUN_FINDER.append(ahocorasick_rs.AhoCorasick(_ALPHABET_RUNS))
    return bool(_RUN_FINDER[0].find_matches_as_indexes(lowered))


def _typed_sequences(lowered: str) -> bool:
    """Someone typed along the alphabet: five consecutive letters (`ghijk`), or two runs of
    four (`abcd1234defg`), or a value that is nothing but a digit sequence (`12345678`).
    Random letters almost never do this; digits are left alone since ids contain `1234`."""
    if len(lowered) >= 6 and lowered.isdigit():
        return all(ord(b) - ord(a) == 1 for a, b in pairwise(lowered))
    if lowered.isascii() and not _alphabet_run4(lowered):
        # every way to say yes below needs four letters in a row along the alphabet, which
        # in lower-case ASCII text is one of `abcd` ... `wxyz`
        return False
    longest = 6 if len(lowered) > LONG_VALUE else 5
    runs4 = 0
    run = 1
    for previous, current in pairwise(lowered):
        if ord(current) - ord(previous) == 1 and current.isalpha() and previous.isalpha():
            run += 1
            if run == longest:
                return True
            if run == 4:
                runs4 += 1
                if runs4 == 2 and len(lowered) <= LONG_VALUE:
                    return True
        else:
            run = 1
    return False


_BASE64 = _Lazy(r"^[A-Za-z0-9+/]{6,198}(?:[A-Za-z0-9+/]{2}|[A-Za-z0-9+/]=|==)$")


def _decoded_placeholder(value: str) -> bool:
    """A base64 value (a Kubernetes Secret's `data:`) that decodes to a placeholder:
    `Y2hhbmdlbWU=` is `changeme`. Random bytes almost never decode to printable ASCII."""
    if len(value) % 4 or not _BASE64.match(value):
        return False
    import base64
    import binascii

    try:
        decoded = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    if not decoded.isascii() or not decoded.decode("ascii").isprintable():
        return False
    return is_placeholder(decoded.decode("ascii"), decode=False)


def _holds_any(text: str, words: tuple[str, ...]) -> bool:
    """Whether `text` holds any of `words`: one automaton pass instead of an `in` test a
    word (every candidate secret of most rules is asked)."""
    find = _WORD_FINDERS.get(words)
    if find is None:
        import ahocorasick_rs

        find = ahocorasick_rs.AhoCorasick(list(words)).find_matches_as_indexes
        _WORD_FINDERS[words] = find
    try:
        return bool(find(text))
    except UnicodeEncodeError:  # a lone surrogate (a JSON "\\ud800"): the automaton needs UTF-8
        return any(word in text for word in words)


_WORD_FINDERS: dict[tuple[str, ...], Any] = {}


def is_placeholder(value: str, decode: bool = True) -> bool:
    lowered = value.lower()
    if len(set(lowered)) <= 2:  # "", "aaaa", "0000", "abab"
        return True
    if _typed_sequences(lowered):  # "abcdef...", "abcd1234efgh", "AB1C2defGHijkLMNo..."
        return True
    if _holds_any(lowered, KNOWN_SAMPLES):
        return True
    if len(lowered) > LONG_VALUE:
        # In a long generated token a short word (`todo`, `fake`) occurs by chance now and
        # then, so short words count only at either end; long ones (`example`) count anywhere.
        return any(
            word in lowered
            if len(word) >= 5
            else lowered.startswith(word) or lowered.endswith(word)
            for word in PLACEHOLDER_WORDS
        )
    if _holds_any(lowered, PLACEHOLDER_WORDS):
        return True
    return decode and _decoded_placeholder(value)


def is_template(value: str) -> bool:
    return bool(_TEMPLATE.search(value))


def is_code(value: str) -> bool:
    if _CODE.search(value):
        return True
    # An attribute chain (self.password, settings.SECRET_KEY, cfg.apiKey) is code when every
    # part is a plausible name; random text with dots (`A.qtoIl6SDLYpU.c1CK`) is not.
    parts = value.split(".")
    return len(parts) > 1 and all(_NAME.match(part) for part in parts)


_CHAIN_PART = _Lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _squash(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def names_itself(key: str, value: str) -> bool:
    """An assignment between two code names: the value is an attribute chain ending in the
    name it is assigned to (`MLKEM768X25519PrivateKey = rust_openssl.hpke.MLKEM768X25519PrivateKey`,
    `api_key = self.api_key_provider.ApiKey`): a re-export or a property, not a value. The
    name decides, so a random value with dots (`dp.st.prd.XXKn...`) never passes."""
    parts = value.split(".")
    if len(parts) < 2 or not all(_CHAIN_PART.match(part) for part in parts):
        return False
    name = _squash(key.replace("-", ".").split(".")[-1])
    return len(name) >= 3 and _squash(parts[-1]) == name


def is_word(value: str) -> bool:
    """Letters and separators only: an identifier or a phrase, not a generated credential."""
    return bool(_WORDY.match(value))


def is_path_or_url(value: str) -> bool:
    return bool(_PATHLIKE.search(value) or _URLISH.match(value))


def is_uuid(value: str) -> bool:
    return bool(_UUID.match(value))


def is_hex_digest(value: str) -> bool:
    """A bare hex string of a digest's length (MD5, SHA-1, SHA-256, SHA-512)."""
    return len(value) in (32, 40, 64, 128) and bool(_HEX.match(value.lower()))


def is_identifier(value: str) -> bool:
    """A name made of words, like `PKCS7PrivateKeyTypes` or `OAuth2Token` or `max_retry_count`:
    a type or variable, not a generated credential. Random strings break into many one- and
    two-letter pieces and fail this test."""
    pieces = _WORD_PIECES.findall(value)
    if "".join(pieces) != value.replace("_", "").replace("-", "").replace(".", ""):
        return False
    words = [p.lower() for p in pieces if p[-1].islower()]
    if sum(1 for w in words if len(w) >= 4) < 2:
        return False
    letters = "".join(words)
    if sum(letters.count(v) for v in "aeiou") < 0.3 * len(letters):
        return False  # words are pronounceable; random letters are mostly consonants
    for piece in pieces:
        if piece[-1].islower():
            word = piece.lower()
            if len(word) == 2 and word not in _SHORT_WORDS:
                return False
            if len(word) < 2 or not any(v in word for v in "aeiouy"):
                return False
        elif not ((piece.isdigit() and len(piece) <= 4) or (piece.isupper() and len(piece) <= 5)):
            return False
    return True


def is_not_jwt(value: str) -> bool:
    """A token shaped like a JWT whose header is not base64url JSON naming an `alg`."""
    import base64
    import json

    header = value.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(header + "=" * (-len(header) % 4))
        data = json.loads(decoded)
    except (ValueError, TypeError):
        return True
    return not (isinstance(data, dict) and "alg" in data)


def is_type_name(value: str) -> bool:
    """A class or type name (`Ed448PrivateKey`, `RSAPrivateKeyWithSerialization`,
    `OAuth2Token`): an annotation or an alias, not a value. Generated credentials do not end
    in a capitalised word such as `Key` or `Type` after other capitalised words."""
    return bool(_TYPE_NAME.match(value)) and sum(c.isupper() for c in value) >= 2


def is_not_b64_jwt(value: str) -> bool:
    """A base64 value that does not decode to a JWT whose header names an `alg` (a JWT stored
    base64-encoded once more, as Kubernetes Secrets hold values)."""
    import base64
    import binascii

    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4)).decode("ascii")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return True
    parts = decoded.strip().split(".")
    return len(parts) != 3 or not all(parts) or is_not_jwt(decoded.strip())


def is_not_basic_auth(value: str) -> bool:
    """A Basic credential (base64 of `user:password`) that does not decode to one, or whose
    password is a placeholder or a template. Values that are not base64 of text (a bearer
    token) pass through: the filter is for rules whose secret may be either."""
    import base64
    import binascii

    if not value.endswith("=") and not _BASE64ISH.match(value):
        return False
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    if not decoded.isprintable():
        return False  # random bytes: a token, judged as one
    # text: a credential only as user:password with a real password
    user, colon, password = decoded.partition(":")
    return (
        not colon
        or not password
        or is_placeholder(password)
        or is_template(password)
        or password.lower() in ("password", "pass", "secret", user.lower())
    )


def is_not_discord_id(value: str) -> bool:
    """A token shaped like a Discord bot token whose first part is not the base64 of a user
    id (a snowflake: 17 to 20 digits)."""
    import base64
    import binascii

    first = value.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4))
    except (ValueError, binascii.Error):
        return True
    return not (decoded.isdigit() and 17 <= len(decoded) <= 20)


FILTERS: dict[str, Callable[[str], bool]] = {
    "placeholder": is_placeholder,
    "template": is_template,
    "code": is_code,
    "word": is_word,
    "path-or-url": is_path_or_url,
    "identifier": is_identifier,
    "uuid": is_uuid,
    "hex-digest": is_hex_digest,
    "not-jwt": is_not_jwt,
    "not-b64-jwt": is_not_b64_jwt,
    "not-discord-id": is_not_discord_id,
    "not-basic-auth": is_not_basic_auth,
    "type-name": is_type_name,
}

DEFAULT_SECRET_FILTERS = ("placeholder", "template")
