"""Fake credentials in the providers' formats, for the agent-history fixtures and corpus.

Every value is drawn from a seeded `random.Random`: random, never a real credential, but in
the exact shape each provider issues (prefix, length, alphabet), so that a scanner's rule for
that provider must fire on it. A value is redrawn when it holds a word that scanners treat as
a placeholder (`fake`, `todo`, `xxxx`, ...: it would be dismissed as a stand-in) or a run of
typed characters.

`Secret.core` is the part of the value that a redaction must remove (the whole token, or the
password of a URL); `Secret.digest` names it in manifests without writing it out.
"""

from __future__ import annotations

import hashlib
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
AWS_ID = string.ascii_uppercase + "234567"
DIGITS = string.digits

# Words scanners read as "not a real credential" (placeholder filters): never in a value.
_AVOID = ("example", "your", "sample", "dummy", "fake", "test", "todo", "fixme", "xxx",
          "redact", "insert", "replace", "change", "secret", "foo", "bar", "lorem", "ipsum",
          "notreal", "mysecret", "placeholder")  # fmt: skip
_TYPED = re.compile(r"(?i)1234|2345|3456|4567|5678|6789|qwer|asdf|zxcv|(.)\1\1\1")


def _alphabet_run(text: str, size: int = 4) -> bool:
    """`size` letters in a row along the alphabet, in any case (`uVwX`): scanners take such a
    value for one typed by hand."""
    run = 1
    low = text.lower()
    for a, b in pairwise(low):
        run = run + 1 if a.isalpha() and b.isalpha() and ord(b) - ord(a) == 1 else 1
        if run >= size:
            return True
    return False


@dataclass(frozen=True)
class Secret:
    rule: str  # the rule id wukong-lint should report
    value: str  # as it stands in the text (a token, a URL, a PEM block)
    core: str  # what a redaction must remove

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.core.encode()).hexdigest()[:16]

    @property
    def needle(self) -> str:
        """A piece of the core that stands verbatim in any JSON encoding of it (no character
        JSON escapes): what to look for in a raw line."""
        return max(re.findall(r"[A-Za-z0-9_+.:@/=-]{12,}", self.core), key=len)


def _draw(rng: random.Random, size: int, alphabet: str) -> str:
    while True:
        text = "".join(rng.choice(alphabet) for _ in range(size))
        lowered = text.lower()
        if (
            not any(w in lowered for w in _AVOID)
            and not _TYPED.search(text)
            and not _alphabet_run(text)
        ):
            return text


def _token(rule: str, make: Callable[[random.Random], str]) -> Callable[[random.Random], Secret]:
    def build(rng: random.Random) -> Secret:
        value = make(rng)
        return Secret(rule, value, value)

    return build


def _password_url(rule: str, template: str) -> Callable[[random.Random], Secret]:
    def build(rng: random.Random) -> Secret:
        password = _draw(rng, 20, ALNUM)
        return Secret(rule, template.format(password), password)

    return build


def _private_key(rng: random.Random) -> Secret:
    body = [_draw(rng, 70, B64) for _ in range(5)] + [_draw(rng, 24, B64) + "=="]
    value = ("-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(body)
             + "\n-----END OPENSSH PRIVATE KEY-----\n")  # fmt: skip
    return Secret("secret.private-key", value, body[0])


def _aws_secret(rng: random.Random) -> Secret:
    value = _draw(rng, 40, B64)
    return Secret("secret.aws-secret-access-key", value, value)


MAKERS: dict[str, Callable[[random.Random], Secret]] = {
    "github-pat": _token("secret.github-pat", lambda r: "ghp_" + _draw(r, 36, ALNUM)),
    "github-fine-grained-pat": _token(
        "secret.github-fine-grained-pat",
        lambda r: "github_pat_" + _draw(r, 22, ALNUM) + "_" + _draw(r, 59, ALNUM),
    ),
    "aws-access-key-id": _token(
        "secret.aws-access-key-id", lambda r: "AKIA" + _draw(r, 16, AWS_ID)
    ),
    "aws-secret-access-key": _aws_secret,
    "anthropic-api-key": _token(
        "secret.anthropic-api-key", lambda r: "sk-ant-api03-" + _draw(r, 93, URLSAFE) + "AA"
    ),
    "openai-project-key": _token(
        "secret.openai-project-key",
        lambda r: "sk-proj-" + _draw(r, 74, URLSAFE) + "T3BlbkFJ" + _draw(r, 74, URLSAFE),
    ),
    "slack-bot-token": _token(
        "secret.slack-bot-token",
        lambda r: f"xoxb-{_draw(r, 12, DIGITS)}-{_draw(r, 13, DIGITS)}-{_draw(r, 24, ALNUM)}",
    ),
    "slack-webhook-url": _token(
        "secret.slack-webhook-url",
        lambda r: "https://hooks.slack.com/services/T" + _draw(r, 8, AWS_ID) + "/B"
        + _draw(r, 10, AWS_ID) + "/" + _draw(r, 24, ALNUM),
    ),
    "stripe-secret-key": _token(
        "secret.stripe-secret-key", lambda r: "sk_live_" + _draw(r, 24, ALNUM)
    ),
    "stripe-restricted-key": _token(
        "secret.stripe-restricted-key", lambda r: "rk_live_" + _draw(r, 24, ALNUM)
    ),
    "stripe-webhook-secret": _token(
        "secret.stripe-webhook-secret", lambda r: "whsec_" + _draw(r, 32, ALNUM)
    ),
    "gitlab-pat": _token("secret.gitlab-pat", lambda r: "glpat-" + _draw(r, 20, URLSAFE)),
    "npm-access-token": _token("secret.npm-access-token", lambda r: "npm_" + _draw(r, 36, ALNUM)),
    "gcp-api-key": _token("secret.gcp-api-key", lambda r: "AIza" + _draw(r, 35, URLSAFE)),
    "sendgrid-api-key": _token(
        "secret.sendgrid-api-key",
        lambda r: "SG." + _draw(r, 22, URLSAFE) + "." + _draw(r, 43, URLSAFE),
    ),
    "huggingface-token": _token(
        "secret.huggingface-token", lambda r: "hf_" + _draw(r, 34, string.ascii_letters)
    ),
    "connection-string": _password_url(
        "secret.connection-string", "postgres://billing:{}@db.staging.internal:5432/billing"
    ),
    "url-basic-auth": _password_url("secret.url-basic-auth", "https://deploy:{}@registry.acme.dev/v2/"),
    "private-key": _private_key,
}  # fmt: skip

# How each kind is introduced in text where a bare token would not be recognised on its own
# (an AWS secret key is 40 characters of base64 with nothing to mark it).
CONTEXT = {
    "aws-secret-access-key": "aws_secret_access_key = {}",
}


def make(kind: str, rng: random.Random) -> Secret:
    return MAKERS[kind](rng)


def in_context(kind: str, secret: Secret) -> str:
    """The secret as it would be printed in a config file or command output."""
    return CONTEXT.get(kind, "{}").format(secret.value)


def raw_lines_holding(text: str, secret: Secret) -> list[int]:
    """1-based numbers of the lines of `text` whose raw bytes hold the secret's needle."""
    needle = secret.needle
    return [n for n, line in enumerate(text.split("\n"), 1) if needle in line]
