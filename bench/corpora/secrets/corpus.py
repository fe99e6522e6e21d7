#!/usr/bin/env python3
# ruff: noqa: E501  (format tables and templates read better unwrapped)
"""Labelled corpus generator for the wukong-lint benchmark.

Writes OUT/tree/, a folder of realistic source files with FAKE credentials planted in them, and
OUT/labels.json that lists every planted secret as {path, line, provider} (and, for diagnosis,
every planted hard negative as {path, line, kind}).

Everything is generated from --seed with `random.Random`: same seed, same bytes. Nothing is
downloaded. The credential formats below were written independently from each provider's
public documentation of its token format (prefix, alphabet, length); they deliberately do not
come from the project's rules/ folder, so the corpus is an independent check of those rules.

    python bench/corpora/secrets/corpus.py --seed 1 --out bench/out/corpus-dev [--files 2000] [--mb 20]

Standard library only.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import os
import random
import shutil
import string
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
ALNUM = UP + LO + DIG
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
B32 = UP + "234567"
B62 = DIG + UP + LO
BENCH = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/


# --------------------------------------------------------------------------------------------
# Small random helpers
# --------------------------------------------------------------------------------------------


class R(random.Random):
    def s(self, alphabet: str, n: int) -> str:
        return "".join(self.choice(alphabet) for _ in range(n))

    def digits(self, lo: int, hi: int | None = None) -> str:
        n = lo if hi is None else self.randint(lo, hi)
        return self.choice("123456789") + self.s(DIG, n - 1)

    def pick(self, seq):
        return seq[self.randrange(len(seq))]

    def b64bytes(self, n: int, urlsafe: bool = False) -> str:
        raw = bytes(self.getrandbits(8) for _ in range(n))
        enc = base64.urlsafe_b64encode(raw) if urlsafe else base64.b64encode(raw)
        return enc.decode()

    def bytes_(self, n: int) -> bytes:
        return bytes(self.getrandbits(8) for _ in range(n))

    def strong(self, n: int, extra: str = "-_.!*+=~") -> str:
        """A generated password: starts alphanumeric, has upper, lower, digits (+ symbols)."""
        while True:
            first = self.choice(ALNUM)
            rest = self.s(ALNUM + extra, n - 1)
            v = first + rest
            if (
                any(c in UP for c in v)
                and any(c in LO for c in v)
                and any(c in DIG for c in v)
                and len(set(v)) >= min(n, 10)
            ):
                return v


def crc_b62(payload: str, width: int = 6) -> str:
    n = binascii.crc32(payload.encode()) & 0xFFFFFFFF
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return out.rjust(width, "0")


# --------------------------------------------------------------------------------------------
# Credential formats (FAKE values with the documented shape)
# --------------------------------------------------------------------------------------------


@dataclass
class Secret:
    provider: str
    value: str  # the single-line value (PEM blocks: the whole block, lines joined with \n)
    names: list[str]  # env-style names under which this credential is usually configured
    kind: str = "token"  # token | url | pem | conn
    header: str | None = None  # HTTP header form, e.g. "Authorization: Bearer {v}"


def _pem(rng: R, label: str, der: bytes, width: int = 64, armor_lines=()) -> str:
    body = base64.b64encode(der).decode()
    lines = [f"-----BEGIN {label}-----", *armor_lines]
    lines += [body[i : i + width] for i in range(0, len(body), width)]
    lines.append(f"-----END {label}-----")
    return "\n".join(lines)


def pem_rsa(rng: R) -> str:
    der = bytes.fromhex("308204a40201000282010100") + rng.bytes_(1180)
    return _pem(rng, "RSA PRIVATE KEY", der)


def pem_pkcs8(rng: R) -> str:
    der = bytes.fromhex(
        "308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100"
    )
    return _pem(rng, "PRIVATE KEY", der + rng.bytes_(1154))


def pem_ec(rng: R) -> str:
    der = (
        bytes.fromhex("30770201010420")
        + rng.bytes_(32)
        + bytes.fromhex("a00a06082a8648ce3d030107a14403420004")
        + rng.bytes_(64)
    )
    return _pem(rng, "EC PRIVATE KEY", der)


def pem_openssh(rng: R) -> str:
    der = (
        b"openssh-key-v1\0"
        + b"\0\0\0\x04none\0\0\0\x04none\0\0\0\0\0\0\0\x01\0\0\0\x33\0\0\0\x0bssh-ed25519\0\0\0\x20"
        + rng.bytes_(32)
        + b"\0\0\0\x88"
        + rng.bytes_(8)
        + b"\0\0\0\x0bssh-ed25519\0\0\0\x20"
        + rng.bytes_(100)
        + b"\x01\x02\x03\x04\x05"
    )
    return _pem(rng, "OPENSSH PRIVATE KEY", der, width=70)


def pem_pgp(rng: R) -> str:
    der = bytes.fromhex("9503980465") + rng.bytes_(900)
    block = _pem(rng, "PGP PRIVATE KEY BLOCK", der, armor_lines=("",))
    lines = block.split("\n")
    lines.insert(-1, "=" + rng.b64bytes(3))
    return "\n".join(lines)


def gcp_private_key(rng: R) -> str:
    return pem_pkcs8(rng) + "\n"


def jwt(rng: R) -> str:
    def enc(obj) -> str:
        return (
            base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode())
            .decode()
            .rstrip("=")
        )

    alg = rng.pick(["HS256", "RS256", "HS512"])
    header = enc({"alg": alg, "typ": "JWT"})
    iat = rng.randint(1_600_000_000, 1_750_000_000)
    payload = enc(
        {
            "sub": rng.digits(6, 10),
            "name": rng.pick(["Ana Lima", "Kofi Mensah", "Li Wei", "Marta Nowak", "Sam Reyes"]),
            "role": rng.pick(["admin", "service", "editor", "billing"]),
            "iat": iat,
            "exp": iat + rng.pick([3600, 86400, 2592000]),
        }
    )
    siglen = {"HS256": 43, "HS512": 86, "RS256": 342}[alg]
    return f"{header}.{payload}.{rng.s(B64URL, siglen)}"


HOSTS = [
    "db.internal.acme-corp.io",
    "pg-primary.prod.northwind.dev",
    "10.20.3.14",
    "mysql-01.eu-west-1.rds.amazonaws.com",
    "orders-db.c9xk2m1p.us-east-1.rds.amazonaws.com",
    "cache.prod.tailwind.net",
    "mq.internal.globex.io",
    "analytics-db.lan",
]
USERS = [
    "app",
    "admin",
    "deploy",
    "svc_orders",
    "reporting",
    "etl",
    "backend",
    "root",
    "billing_rw",
]


def url_password(rng: R) -> str:
    return rng.strong(rng.randint(14, 28), extra="-_~")


def conn_string(rng: R) -> tuple[str, str]:
    scheme = rng.pick(["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp", "amqps"])
    user, pw, host = rng.pick(USERS), url_password(rng), rng.pick(HOSTS)
    db = rng.pick(["orders", "app", "analytics", "billing", "users"])
    if scheme.startswith("postgres"):
        return scheme, f"{scheme}://{user}:{pw}@{host}:5432/{db}" + rng.pick(
            ["", "?sslmode=require"]
        )
    if scheme == "mysql":
        return scheme, f"mysql://{user}:{pw}@{host}:3306/{db}"
    if scheme == "mongodb+srv":
        cluster = f"cluster0.{rng.s(LO + DIG, 5)}.mongodb.net"
        return scheme, f"mongodb+srv://{user}:{pw}@{cluster}/{db}?retryWrites=true&w=majority"
    if scheme == "redis":
        return scheme, rng.pick(
            [f"redis://default:{pw}@{host}:6379/0", f"rediss://:{pw}@{host}:6380"]
        )
    return scheme, f"{scheme}://{user}:{pw}@{host}:5672/{rng.pick(['%2F', 'jobs', 'events'])}"


def gen_secret(provider: str, rng: R) -> Secret:
    p = provider
    bearer = "Authorization: Bearer {v}"
    if p == "aws-access-key-id":
        return Secret(
            p,
            rng.pick(["AKIA", "AKIA", "AKIA", "ASIA"]) + rng.s(B32, 16),
            ["AWS_ACCESS_KEY_ID", "AWS_ACCESS_KEY", "S3_ACCESS_KEY_ID"],
        )
    if p == "aws-secret-access-key":
        return Secret(
            p, rng.s(B64, 40), ["AWS_SECRET_ACCESS_KEY", "AWS_SECRET_KEY", "S3_SECRET_ACCESS_KEY"]
        )
    if p == "gcp-api-key":
        return Secret(
            p,
            "AIzaSy" + rng.s(B64URL, 33),
            ["GOOGLE_API_KEY", "MAPS_API_KEY", "FIREBASE_API_KEY", "GCP_API_KEY"],
        )
    if p == "azure-storage-connection-string":
        acct = rng.pick(["acmeprod", "stdatalake", "northwindlogs", "globexbackups"]) + rng.s(
            LO + DIG, 4
        )
        v = (
            f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={rng.b64bytes(64)};"
            "EndpointSuffix=core.windows.net"
        )
        return Secret(
            p,
            v,
            ["AZURE_STORAGE_CONNECTION_STRING", "STORAGE_CONNECTION_STRING", "BLOB_CONN"],
            "conn",
        )
    if p in ("github-classic-pat", "github-oauth", "github-app-token"):
        prefix = {
            "github-classic-pat": "ghp_",
            "github-oauth": "gho_",
            "github-app-token": rng.pick(["ghs_", "ghu_"]),
        }[p]
        body = rng.s(ALNUM, 30)
        return Secret(
            p,
            prefix + body + crc_b62(body),
            ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "GH_PAT"],
            header=rng.pick([bearer, "Authorization: token {v}"]),
        )
    if p == "github-fine-grained-pat":
        return Secret(
            p,
            "github_pat_11" + rng.s(UP + DIG, 20) + "_" + rng.s(ALNUM, 59),
            ["GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT"],
            header=bearer,
        )
    if p == "gitlab-pat":
        return Secret(
            p,
            "glpat-" + rng.s(ALNUM + "-_", 20),
            ["GITLAB_TOKEN", "GITLAB_PAT", "CI_JOB_API_TOKEN"],
            header="PRIVATE-TOKEN: {v}",
        )
    if p == "slack-bot-token":
        return Secret(
            p,
            f"xoxb-{rng.digits(10, 13)}-{rng.digits(10, 13)}-{rng.s(ALNUM, 24)}",
            ["SLACK_BOT_TOKEN", "SLACK_TOKEN"],
            header=bearer,
        )
    if p == "slack-user-token":
        return Secret(
            p,
            f"xoxp-{rng.digits(10, 13)}-{rng.digits(10, 13)}-{rng.digits(10, 13)}-{rng.s(HEX, 32)}",
            ["SLACK_USER_TOKEN", "SLACK_TOKEN"],
            header=bearer,
        )
    if p == "slack-webhook":
        v = f"https://hooks.slack.com/services/T{rng.s(UP + DIG, rng.randint(8, 10))}/B{rng.s(UP + DIG, rng.randint(8, 10))}/{rng.s(ALNUM, 24)}"
        return Secret(p, v, ["SLACK_WEBHOOK_URL", "ALERTS_WEBHOOK"], "url")
    if p == "discord-webhook":
        host = rng.pick(["discord.com", "discordapp.com"])
        v = f"https://{host}/api/webhooks/{rng.digits(18, 19)}/{rng.s(B64URL, 68)}"
        return Secret(p, v, ["DISCORD_WEBHOOK_URL", "DISCORD_WEBHOOK"], "url")
    if p == "telegram-bot-token":
        return Secret(
            p,
            f"{rng.digits(9, 10)}:AA{rng.s(B64URL, 33)}",
            ["TELEGRAM_BOT_TOKEN", "TG_BOT_TOKEN", "TELEGRAM_TOKEN"],
        )
    if p == "stripe-live-secret-key":
        body = rng.pick(["51" + rng.s(ALNUM, 97), rng.s(ALNUM, 24)])
        return Secret(
            p,
            "sk_live_" + body,
            ["STRIPE_SECRET_KEY", "STRIPE_API_KEY", "STRIPE_KEY"],
            header=bearer,
        )
    if p == "stripe-restricted-key":
        body = rng.pick(["51" + rng.s(ALNUM, 97), rng.s(ALNUM, 24)])
        return Secret(
            p, "rk_live_" + body, ["STRIPE_RESTRICTED_KEY", "STRIPE_API_KEY"], header=bearer
        )
    if p == "stripe-webhook-secret":
        return Secret(
            p, "whsec_" + rng.s(ALNUM, 32), ["STRIPE_WEBHOOK_SECRET", "STRIPE_ENDPOINT_SECRET"]
        )
    if p == "square-token":
        v = rng.pick(
            [
                "EAAA" + rng.s(B64URL, 60),
                "sq0atp-" + rng.s(B64URL, 22),
                "sq0csp-" + rng.s(B64URL, 43),
            ]
        )
        return Secret(
            p, v, ["SQUARE_ACCESS_TOKEN", "SQUARE_TOKEN", "SQUARE_APP_SECRET"], header=bearer
        )
    if p == "shopify-token":
        v = rng.pick(["shpat_", "shpca_", "shppa_", "shpss_"]) + rng.s(HEX, 32)
        return Secret(
            p,
            v,
            ["SHOPIFY_ACCESS_TOKEN", "SHOPIFY_API_SECRET", "SHOPIFY_ADMIN_TOKEN"],
            header="X-Shopify-Access-Token: {v}",
        )
    if p == "openai-key":
        v = rng.pick(
            [
                "sk-proj-" + rng.s(B64URL, 74) + "T3BlbkFJ" + rng.s(B64URL, 74),
                "sk-proj-" + rng.s(B64URL, 74) + "T3BlbkFJ" + rng.s(B64URL, 74),
                "sk-svcacct-" + rng.s(B64URL, 74) + "T3BlbkFJ" + rng.s(B64URL, 74),
                "sk-" + rng.s(ALNUM, 20) + "T3BlbkFJ" + rng.s(ALNUM, 20),
            ]
        )
        return Secret(p, v, ["OPENAI_API_KEY", "OPENAI_KEY", "LLM_API_KEY"], header=bearer)
    if p == "anthropic-key":
        return Secret(
            p,
            "sk-ant-api03-" + rng.s(B64URL, 93) + "AA",
            ["ANTHROPIC_API_KEY", "CLAUDE_API_KEY"],
            header="x-api-key: {v}",
        )
    if p == "huggingface-token":
        return Secret(
            p,
            "hf_" + rng.s(UP + LO, 34),
            ["HF_TOKEN", "HUGGINGFACE_TOKEN", "HUGGING_FACE_HUB_TOKEN"],
            header=bearer,
        )
    if p == "replicate-token":
        return Secret(p, "r8_" + rng.s(ALNUM, 37), ["REPLICATE_API_TOKEN"], header=bearer)
    if p == "groq-key":
        return Secret(p, "gsk_" + rng.s(ALNUM, 52), ["GROQ_API_KEY"], header=bearer)
    if p == "npm-token":
        body = rng.s(ALNUM, 30)
        return Secret(p, "npm_" + body + crc_b62(body), ["NPM_TOKEN", "NODE_AUTH_TOKEN"])
    if p == "pypi-token":
        return Secret(
            p,
            "pypi-AgEIcHlwaS5vcmcCJ" + rng.s(B64URL, rng.randint(140, 180)),
            ["PYPI_TOKEN", "TWINE_PASSWORD", "PYPI_API_TOKEN"],
        )
    if p == "sendgrid-key":
        return Secret(
            p,
            f"SG.{rng.s(B64URL, 22)}.{rng.s(B64URL, 43)}",
            ["SENDGRID_API_KEY", "SMTP_PASSWORD"],
            header=bearer,
        )
    if p == "mailgun-key":
        v = rng.pick(["key-" + rng.s(HEX, 32), f"{rng.s(HEX, 32)}-{rng.s(HEX, 8)}-{rng.s(HEX, 8)}"])
        return Secret(p, v, ["MAILGUN_API_KEY", "MAILGUN_KEY"])
    if p == "twilio-api-key":
        return Secret(p, "SK" + rng.s(HEX, 32), ["TWILIO_API_KEY", "TWILIO_API_KEY_SID"])
    if p == "digitalocean-token":
        return Secret(
            p,
            rng.pick(["dop_v1_", "doo_v1_", "dor_v1_"]) + rng.s(HEX, 64),
            ["DIGITALOCEAN_TOKEN", "DO_API_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN"],
            header=bearer,
        )
    if p == "datadog-api-key":
        return Secret(
            p, rng.s(HEX, 32), ["DD_API_KEY", "DATADOG_API_KEY"], header="DD-API-KEY: {v}"
        )
    if p == "datadog-app-key":
        return Secret(
            p,
            rng.s(HEX, 40),
            ["DD_APP_KEY", "DATADOG_APP_KEY", "DD_APPLICATION_KEY"],
            header="DD-APPLICATION-KEY: {v}",
        )
    if p == "sentry-token":
        if rng.random() < 0.5:
            v = "sntryu_" + rng.s(HEX, 64)
        else:
            claims = {
                "iat": rng.randint(1_700_000_000, 1_750_000_000),
                "url": "https://sentry.io",
                "region_url": "https://us.sentry.io",
                "org": rng.pick(["acme", "northwind", "globex"]),
            }
            v = (
                "sntrys_"
                + base64.b64encode(json.dumps(claims).encode()).decode().rstrip("=")
                + "_"
                + rng.s(ALNUM + "+/", 43)
            )
        return Secret(p, v, ["SENTRY_AUTH_TOKEN"], header=bearer)
    if p == "linear-key":
        return Secret(
            p, "lin_api_" + rng.s(ALNUM, 40), ["LINEAR_API_KEY"], header="Authorization: {v}"
        )
    if p == "notion-token":
        v = rng.pick(["secret_" + rng.s(ALNUM, 43), "ntn_" + rng.digits(11) + rng.s(ALNUM, 35)])
        return Secret(p, v, ["NOTION_TOKEN", "NOTION_API_KEY"], header=bearer)
    if p == "atlassian-token":
        return Secret(
            p,
            "ATATT3xFfGF0" + rng.s(B64URL, 170) + "=" + rng.s("0123456789ABCDEF", 8),
            ["JIRA_API_TOKEN", "ATLASSIAN_API_TOKEN", "CONFLUENCE_API_TOKEN"],
        )
    if p == "okta-token":
        return Secret(
            p,
            "00" + rng.s(B64URL, 40),
            ["OKTA_API_TOKEN", "OKTA_CLIENT_TOKEN"],
            header="Authorization: SSWS {v}",
        )
    if p == "dockerhub-pat":
        return Secret(
            p,
            "dckr_pat_" + rng.s(B64URL, 27),
            ["DOCKERHUB_TOKEN", "DOCKER_PASSWORD", "DOCKER_HUB_ACCESS_TOKEN"],
        )
    if p == "vault-token":
        v = rng.pick(["hvs." + rng.s(ALNUM, 24), "hvs.CAESI" + rng.s(B64URL, 86)])
        return Secret(p, v, ["VAULT_TOKEN"], header="X-Vault-Token: {v}")
    if p == "jwt":
        return Secret(
            p,
            jwt(rng),
            ["ACCESS_TOKEN", "AUTH_TOKEN", "JWT", "SERVICE_JWT", "ID_TOKEN"],
            header=bearer,
        )
    if p.startswith("private-key-"):
        gen = {
            "private-key-rsa": pem_rsa,
            "private-key-ec": pem_ec,
            "private-key-openssh": pem_openssh,
            "private-key-pgp": pem_pgp,
            "private-key-pkcs8": pem_pkcs8,
        }[p]
        return Secret(
            p,
            gen(rng),
            ["PRIVATE_KEY", "SSH_PRIVATE_KEY", "SIGNING_KEY", "TLS_KEY", "GPG_PRIVATE_KEY"],
            "pem",
        )
    if p == "gcp-service-account":
        return Secret(p, gcp_private_key(rng), ["GOOGLE_APPLICATION_CREDENTIALS_JSON"], "json")
    if p == "connection-string":
        scheme, v = conn_string(rng)
        names = {
            "redis": ["REDIS_URL", "CACHE_URL"],
            "amqp": ["AMQP_URL", "BROKER_URL", "RABBITMQ_URL"],
            "mongodb+srv": ["MONGODB_URI", "MONGO_URL"],
        }.get(
            scheme.rstrip("s") if scheme.startswith("amqp") else scheme,
            ["DATABASE_URL", "DB_URL", "SQLALCHEMY_DATABASE_URI"],
        )
        return Secret(p, v, names, "conn")
    if p == "basic-auth-url":
        host = rng.pick(
            [
                "artifacts.acme-corp.io/simple",
                "registry.northwind.dev/v2/",
                "git.globex.io/platform/infra.git",
                "nexus.internal.tailwind.net/repository/npm/",
                "jenkins.ci.acme-corp.io/job/deploy/build",
            ]
        )
        return Secret(
            p,
            f"https://{rng.pick(USERS)}:{url_password(rng)}@{host}",
            ["INDEX_URL", "REGISTRY_URL", "REPO_URL", "PIP_EXTRA_INDEX_URL"],
            "url",
        )
    if p == "generic-secret":
        name = rng.pick(
            [
                "PASSWORD",
                "DB_PASSWORD",
                "DB_PASS",
                "API_KEY",
                "SECRET_TOKEN",
                "CLIENT_SECRET",
                "AUTH_TOKEN",
                "ACCESS_TOKEN",
                "SECRET_KEY",
                "APP_SECRET",
                "JWT_SECRET",
                "SIGNING_SECRET",
                "ENCRYPTION_KEY",
                "ADMIN_PASSWORD",
                "SMTP_PASSWORD",
                "PRIVATE_TOKEN",
                "WEBHOOK_SECRET",
                "API_SECRET",
            ]
        )
        return Secret(p, rng.strong(rng.randint(16, 44)), [name])
    raise KeyError(provider)


PROVIDERS = [
    "aws-access-key-id",
    "aws-secret-access-key",
    "gcp-api-key",
    "gcp-service-account",
    "azure-storage-connection-string",
    "github-classic-pat",
    "github-fine-grained-pat",
    "github-oauth",
    "github-app-token",
    "gitlab-pat",
    "slack-bot-token",
    "slack-user-token",
    "slack-webhook",
    "discord-webhook",
    "telegram-bot-token",
    "stripe-live-secret-key",
    "stripe-restricted-key",
    "stripe-webhook-secret",
    "square-token",
    "shopify-token",
    "openai-key",
    "anthropic-key",
    "huggingface-token",
    "replicate-token",
    "groq-key",
    "npm-token",
    "pypi-token",
    "sendgrid-key",
    "mailgun-key",
    "twilio-api-key",
    "digitalocean-token",
    "datadog-api-key",
    "datadog-app-key",
    "sentry-token",
    "linear-key",
    "notion-token",
    "atlassian-token",
    "okta-token",
    "dockerhub-pat",
    "vault-token",
    "private-key-rsa",
    "private-key-ec",
    "private-key-openssh",
    "private-key-pgp",
    "private-key-pkcs8",
    "jwt",
    "connection-string",
    "basic-auth-url",
    "generic-secret",
]
# Relative frequency (generic assignments and connection strings are the most common in real leaks).
WEIGHT = {
    "generic-secret": 6,
    "connection-string": 4,
    "basic-auth-url": 2,
    "jwt": 2,
    "aws-access-key-id": 2,
}
# Providers whose value means nothing without a telling name next to it.
NEEDS_CONTEXT = {
    "aws-secret-access-key",
    "datadog-api-key",
    "datadog-app-key",
    "okta-token",
    "telegram-bot-token",
    "mailgun-key",
    "twilio-api-key",
    "generic-secret",
}


# --------------------------------------------------------------------------------------------
# Names in each language's style
# --------------------------------------------------------------------------------------------


def snake(name: str) -> str:
    return name.lower()


def camel(name: str) -> str:
    parts = name.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def pascal(name: str) -> str:
    return "".join(p.title() for p in name.lower().split("_"))


def dotted(name: str) -> str:
    return name.lower().replace("_", ".", 1).replace("_", "-")


WORDS = [
    "user",
    "order",
    "invoice",
    "payment",
    "session",
    "cache",
    "report",
    "account",
    "item",
    "cart",
    "event",
    "message",
    "queue",
    "job",
    "metric",
    "profile",
    "route",
    "handler",
    "client",
    "request",
    "response",
    "record",
    "batch",
    "export",
    "schedule",
    "template",
    "asset",
    "upload",
    "region",
    "tenant",
    "project",
    "build",
    "artifact",
    "release",
    "node",
    "cluster",
    "shard",
    "index",
    "search",
    "query",
    "filter",
    "audit",
    "ledger",
    "refund",
    "shipment",
    "warehouse",
    "product",
    "catalog",
    "price",
    "discount",
    "coupon",
    "review",
    "rating",
    "comment",
    "thread",
    "channel",
    "webhook",
    "notification",
    "email",
    "sms",
    "device",
    "sensor",
    "reading",
    "forecast",
    "model",
    "dataset",
    "feature",
]
VERBS = [
    "get",
    "load",
    "fetch",
    "build",
    "create",
    "update",
    "delete",
    "sync",
    "parse",
    "render",
    "validate",
    "compute",
    "resolve",
    "handle",
    "merge",
    "split",
    "apply",
]
ATTRS = [
    "amount",
    "total",
    "count",
    "status",
    "created_at",
    "updated_at",
    "owner_id",
    "name",
    "title",
    "priority",
    "weight",
    "score",
    "label",
]


def ident(rng: R) -> str:
    return f"{rng.pick(VERBS)}_{rng.pick(WORDS)}"


# --------------------------------------------------------------------------------------------
# Filler code per language (ordinary code, no secrets)
# --------------------------------------------------------------------------------------------


def fill_py(rng: R) -> list[str]:
    n, v, a = rng.pick(WORDS), rng.pick(VERBS), rng.pick(ATTRS)
    t = rng.randrange(7)
    if t == 0:
        return [
            f"def {v}_{n}(self, {n}_id: int, *, limit: int = {rng.randint(10, 500)}) -> list[dict]:",
            f'    """{v.title()} the {n} records that belong to `{n}_id`."""',
            f"    if {n}_id <= 0:",
            f'        raise ValueError(f"invalid {n} id: {{{n}_id}}")',
            f"    rows = self.db.execute(SELECT_{n.upper()}, ({n}_id, limit)).fetchall()",
            f'    result = [dict(row) for row in rows if row["{a}"] is not None]',
            f'    logger.debug("{v} %d {n} rows", len(result))',
            "    return result",
            "",
        ]
    if t == 1:
        cls = pascal(n) + rng.pick(["Service", "Repository", "Handler", "Client", "Serializer"])
        return [
            f"class {cls}:",
            f'    """{n.title()} operations used by the {rng.pick(WORDS)} API."""',
            "",
            f"    def __init__(self, session, timeout: float = {rng.randint(1, 60)}.0) -> None:",
            "        self.session = session",
            "        self.timeout = timeout",
            f"        self._cache: dict[str, {pascal(n)}] = {{}}",
            "",
            f"    def {v}(self, key: str) -> {pascal(n)} | None:",
            "        if key in self._cache:",
            "            return self._cache[key]",
            f'        response = self.session.get(f"/api/v1/{n}s/{{key}}", timeout=self.timeout)',
            "        response.raise_for_status()",
            f"        item = {pascal(n)}.from_dict(response.json())",
            "        self._cache[key] = item",
            "        return item",
            "",
        ]
    if t == 2:
        return [
            f"# {rng.pick(['NOTE', 'See also', 'Why'])}: the {n} {a} is computed lazily because the upstream",
            f"# {rng.pick(WORDS)} service is slow; keep this in sync with docs/{n}.md.",
            f"{n.upper()}_{a.upper()}_LIMIT = {rng.randint(1, 9999)}",
            f'DEFAULT_{n.upper()}_REGION = "{rng.pick(["eu-west-1", "us-east-1", "ap-southeast-2"])}"',
            f"RETRY_BACKOFF = ({rng.randint(1, 3)}, {rng.randint(4, 9)}, {rng.randint(10, 30)})",
            "",
        ]
    if t == 3:
        return [
            "@pytest.fixture",
            f"def {n}_factory(db):",
            "    def make(**overrides):",
            f'        data = {{"{a}": {rng.randint(0, 99)}, "name": "{n}-{rng.randint(1, 99)}"}}',
            "        data.update(overrides)",
            f"        return {pascal(n)}.objects.create(**data)",
            "    return make",
            "",
        ]
    if t == 4:
        return [
            f"async def {v}_{n}_batch(items: Iterable[{pascal(n)}]) -> int:",
            "    done = 0",
            "    async with aiohttp.ClientSession() as http:",
            "        for chunk in chunked(items, 50):",
            f'            resp = await http.post("{rng.pick(["/internal", "/api"])}/{n}/{v}", json=[c.to_dict() for c in chunk])',
            "            if resp.status >= 400:",
            f'                logger.warning("{n} batch failed: %s", await resp.text())',
            "                continue",
            "            done += len(chunk)",
            "    return done",
            "",
        ]
    if t == 5:
        return [
            f"def _{v}_{a}(values):",
            f"    total = sum(x.{a} for x in values)",
            f"    return round(total / max(len(values), 1), {rng.randint(0, 4)})",
            "",
        ]
    return [
        f'@app.route("/{n}s/<int:{n}_id>", methods=["GET", "POST"])',
        "@login_required",
        f"def {n}_detail({n}_id):",
        f"    obj = {pascal(n)}.query.get_or_404({n}_id)",
        '    if request.method == "POST":',
        f"        form = {pascal(n)}Form(request.form, obj=obj)",
        "        if form.validate():",
        "            form.populate_obj(obj)",
        "            db.session.commit()",
        f'    return render_template("{n}/detail.html", {n}=obj)',
        "",
    ]


def fill_js(rng: R, ts: bool = False) -> list[str]:
    n, v, a = rng.pick(WORDS), rng.pick(VERBS), rng.pick(ATTRS)
    typ = (lambda s: f": {s}") if ts else (lambda s: "")
    t = rng.randrange(6)
    if t == 0:
        return [
            f"export async function {v}{pascal(n)}(id{typ('string')}){typ(f'Promise<{pascal(n)}>')} {{",
            f"  const res = await fetch(`${{API_BASE}}/{n}s/${{id}}`, {{ credentials: 'include' }});",
            f"  if (!res.ok) throw new Error(`{v} {n} failed: ${{res.status}}`);",
            "  return res.json();",
            "}",
            "",
        ]
    if t == 1:
        return [
            f"export function {pascal(n)}Card({{ {n}, onSelect }}{typ('Props')}) {{",
            "  const [open, setOpen] = useState(false);",
            "  return (",
            f'    <div className="{n}-card" onClick={{() => onSelect({n}.id)}}>',
            f"      <h3>{{{n}.title}}</h3>",
            f"      <span>{{{n}.{camel(a.upper())}}}</span>",
            "      {open && <Details onClose={() => setOpen(false)} />}",
            "    </div>",
            "  );",
            "}",
            "",
        ]
    if t == 2:
        lines = [f"// {n} helpers: keep pure, they run on the server and in the browser."]
        if ts:
            lines += [
                f"export interface {pascal(n)} {{",
                "  id: string;",
                f"  {camel(a.upper())}: number;",
                "  createdAt: string;",
                "}",
                "",
            ]
        lines += [
            f"export const {camel(n.upper() + '_' + a.upper())}Total = (items) =>",
            f"  items.reduce((acc, x) => acc + (x.{camel(a.upper())} ?? 0), 0);",
            "",
        ]
        return lines
    if t == 3:
        return [
            f"router.{rng.pick(['get', 'post', 'put'])}('/{n}s/:id', requireAuth, async (req, res, next) => {{",
            "  try {",
            f"    const item = await {pascal(n)}.findById(req.params.id);",
            "    if (!item) return res.status(404).json({ error: 'not found' });",
            "    res.json(item);",
            "  } catch (err) {",
            "    next(err);",
            "  }",
            "});",
            "",
        ]
    if t == 4:
        return [
            f"const {n.upper()}_OPTIONS = {{",
            f"  retries: {rng.randint(0, 5)},",
            f"  timeoutMs: {rng.randint(100, 30000)},",
            f"  region: '{rng.pick(['eu-west-1', 'us-east-1'])}',",
            f"  color: '#{rng.s(HEX, 6)}',",
            "};",
            "",
        ]
    return [
        f"describe('{n}', () => {{",
        f"  it('{v}s a {n}', async () => {{",
        f"    const out = await {v}{pascal(n)}('{rng.randint(1, 999)}');",
        f"    expect(out.{camel(a.upper())}).toBeDefined();",
        "  });",
        "});",
        "",
    ]


def fill_java(rng: R) -> list[str]:
    n, v, a = rng.pick(WORDS), rng.pick(VERBS), rng.pick(ATTRS)
    t = rng.randrange(4)
    if t == 0:
        return [
            f"    public {pascal(n)} {v}{pascal(n)}(long id) {{",
            f"        {pascal(n)} entity = repository.findById(id)",
            f'            .orElseThrow(() -> new NotFoundException("{n} " + id));',
            f'        log.debug("{v} {n} {{}}", id);',
            "        return entity;",
            "    }",
            "",
        ]
    if t == 1:
        return [
            f"    private static final int MAX_{n.upper()}_{a.upper()} = {rng.randint(1, 10000)};",
            f"    private static final Duration {n.upper()}_TTL = Duration.ofMinutes({rng.randint(1, 120)});",
            "",
        ]
    if t == 2:
        return [
            "    @Transactional",
            f"    public void {v}All(List<{pascal(n)}> items) {{",
            f"        for ({pascal(n)} item : items) {{",
            f"            if (item.get{pascal(a.upper())}() == null) {{",
            "                continue;",
            "            }",
            "            repository.save(item);",
            "        }",
            "    }",
            "",
        ]
    return [
        f"    // {n.title()} {a} must be refreshed before {rng.pick(WORDS)} export.",
        f"    @Scheduled(fixedRate = {rng.randint(1, 60) * 1000})",
        f"    public void refresh{pascal(n)}() {{",
        f'        cache.invalidate("{n}");',
        "    }",
        "",
    ]


def fill_go(rng: R) -> list[str]:
    n, v, a = rng.pick(WORDS), rng.pick(VERBS), rng.pick(ATTRS)
    t = rng.randrange(4)
    if t == 0:
        return [
            f"// {pascal(v)}{pascal(n)} {v}s a {n} by id.",
            f"func (s *Service) {pascal(v)}{pascal(n)}(ctx context.Context, id string) (*{pascal(n)}, error) {{",
            f"\tvar out {pascal(n)}",
            f"\tif err := s.db.GetContext(ctx, &out, query{pascal(n)}, id); err != nil {{",
            f'\t\treturn nil, fmt.Errorf("{v} {n} %s: %w", id, err)',
            "\t}",
            "\treturn &out, nil",
            "}",
            "",
        ]
    if t == 1:
        return [
            f"type {pascal(n)} struct {{",
            '\tID        string    `json:"id" db:"id"`',
            f'\t{pascal(a.upper())} int64 `json:"{a}" db:"{a}"`',
            '\tCreatedAt time.Time `json:"created_at"`',
            "}",
            "",
        ]
    if t == 2:
        return [
            f"const (\n\tdefault{pascal(n)}Limit = {rng.randint(1, 1000)}\n\t{camel(n.upper())}Timeout = {rng.randint(1, 60)} * time.Second\n)",
            "",
        ]
    return [
        f"func handle{pascal(n)}(w http.ResponseWriter, r *http.Request) {{",
        f'\tid := chi.URLParam(r, "{n}ID")',
        '\tif id == "" {',
        '\t\thttp.Error(w, "missing id", http.StatusBadRequest)',
        "\t\treturn",
        "\t}",
        f'\trender.JSON(w, r, map[string]string{{"id": id, "kind": "{n}"}})',
        "}",
        "",
    ]


def fill_yaml(rng: R) -> list[str]:
    n = rng.pick(WORDS)
    t = rng.randrange(4)
    if t == 0:
        return [
            f"{n}-worker:",
            f"  image: registry.acme-corp.io/{n}-worker:{rng.randint(1, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}",
            "  restart: unless-stopped",
            "  environment:",
            f"    LOG_LEVEL: {rng.pick(['info', 'debug', 'warn'])}",
            f'    {n.upper()}_CONCURRENCY: "{rng.randint(1, 16)}"',
            "  depends_on:",
            "    - postgres",
            "    - redis",
            "",
        ]
    if t == 1:
        return [
            f"- name: {rng.pick(VERBS)} {n}",
            f"  uses: actions/{rng.pick(['checkout', 'setup-python', 'cache'])}@v4",
            "  with:",
            f"    key: {n}-${{{{ runner.os }}}}-${{{{ hashFiles('**/requirements.txt') }}}}",
            "",
        ]
    if t == 2:
        return [
            f"{n}:",
            f"  enabled: {rng.pick(['true', 'false'])}",
            f"  replicas: {rng.randint(1, 12)}",
            "  resources:",
            f'    limits: {{cpu: "{rng.randint(1, 4)}", memory: {rng.pick(["256Mi", "1Gi", "2Gi"])}}}',
            f"  # {n} {rng.pick(ATTRS)} is tuned for the {rng.pick(WORDS)} load",
            "",
        ]
    return [
        f"  /{n}s/{{id}}:",
        "    get:",
        f"      summary: {rng.pick(VERBS).title()} a {n}",
        "      parameters:",
        "        - in: path",
        "          name: id",
        "          required: true",
        "      responses:",
        "        '200':",
        f"          description: The {n}",
        "",
    ]


def fill_sh(rng: R) -> list[str]:
    n = rng.pick(WORDS)
    t = rng.randrange(3)
    if t == 0:
        return [
            f"{rng.pick(VERBS)}_{n}() {{",
            '  local target="$1"',
            '  if [[ -z "$target" ]]; then',
            f'    echo "usage: {rng.pick(VERBS)}_{n} TARGET" >&2',
            "    return 1",
            "  fi",
            f'  rsync -az --delete "./{n}/" "$target:/srv/{n}/"',
            "}",
            "",
        ]
    if t == 1:
        return [
            f"for f in {n}/*.sql; do",
            '  echo "applying $f"',
            '  psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f "$f"',
            "done",
            "",
        ]
    return [
        f"# {n}: wait until the service answers",
        f'until curl -fsS "http://localhost:{rng.randint(3000, 9000)}/healthz" >/dev/null; do',
        "  sleep 1",
        "done",
        "",
    ]


def fill_md(rng: R) -> list[str]:
    n, v = rng.pick(WORDS), rng.pick(VERBS)
    t = rng.randrange(3)
    if t == 0:
        return [
            f"## {v.title()} {n}s",
            "",
            f"The {n} service {v}s {rng.pick(WORDS)} data every {rng.randint(1, 60)} minutes. It reads its settings",
            "from the environment (see the table below) and never stores credentials on disk.",
            "",
            "| variable | default | meaning |",
            "|---|---|---|",
            f"| `{n.upper()}_TIMEOUT` | `{rng.randint(1, 60)}` | seconds before a request is abandoned |",
            f"| `{n.upper()}_REGION` | `eu-west-1` | where the {n} bucket lives |",
            "",
        ]
    if t == 1:
        return ["```bash", f"make {v}-{n}", f"./scripts/{v}_{n}.sh --env staging", "```", ""]
    return [
        f"- {v.title()} the {n} before deploying.",
        f"- Check the {rng.pick(WORDS)} dashboard.",
        f"- Ask #{n}-oncall when in doubt.",
        "",
    ]


def fill_kv(rng: R, style: str) -> list[str]:
    n, a = rng.pick(WORDS), rng.pick(ATTRS)
    vals = [
        str(rng.randint(1, 5000)),
        rng.pick(["true", "false"]),
        rng.pick(["info", "debug"]),
        f"/{n}/{a}",
        rng.pick(["eu-west-1", "us-east-1"]),
        f"{n}-{rng.randint(1, 9)}",
    ]
    out = []
    for _ in range(rng.randint(2, 6)):
        key = f"{rng.pick(WORDS)}_{rng.pick(ATTRS)}"
        val = rng.pick(vals)
        if style == "env":
            out.append(f"{key.upper()}={val}")
        elif style == "properties":
            out.append(f"{dotted(key.upper())}={val}")
        elif style == "toml":
            out.append(
                f"{key} = {val if val.isdigit() or val in ('true', 'false') else json.dumps(val)}"
            )
    if style == "toml":
        out = [f"[{n}]", *out]
    if style == "properties" and rng.random() < 0.3:
        out.insert(0, f"# {n} settings")
    return [*out, ""]


def fill_docker(rng: R) -> list[str]:
    n = rng.pick(WORDS)
    return rng.pick(
        [
            [
                "RUN apt-get update \\",
                "    && apt-get install -y --no-install-recommends curl ca-certificates \\",
                "    && rm -rf /var/lib/apt/lists/*",
                "",
            ],
            [f"COPY {n}/ /app/{n}/", "RUN pip install --no-cache-dir -r /app/requirements.txt", ""],
            [f"ENV {n.upper()}_PORT={rng.randint(3000, 9000)} \\", "    PYTHONUNBUFFERED=1", ""],
            [
                f"HEALTHCHECK CMD curl -f http://localhost:{rng.randint(3000, 9000)}/health || exit 1",
                "",
            ],
        ]
    )


FILLERS: dict[str, Callable[[R], list[str]]] = {
    "py": fill_py,
    "js": fill_js,
    "ts": lambda r: fill_js(r, ts=True),
    "java": fill_java,
    "go": fill_go,
    "yaml": fill_yaml,
    "sh": fill_sh,
    "md": fill_md,
    "env": lambda r: fill_kv(r, "env"),
    "toml": lambda r: fill_kv(r, "toml"),
    "properties": lambda r: fill_kv(r, "properties"),
    "docker": fill_docker,
}

# Auth-flavoured but secret-free code that real projects are full of (natural hard negatives).
AUTHY = {
    "py": [
        'token = request.headers.get("Authorization", "").removeprefix("Bearer ")',
        "def check_password(user, password):\n    return bcrypt.checkpw(password.encode(), user.password_hash)",
        'session["access_token"] = tokens["access_token"]',
        "api_key = settings.STRIPE_API_KEY",
        "PASSWORD_RESET_TIMEOUT = 60 * 60 * 24",
        'secret = get_secret("orders/db-password")',
    ],
    "js": [
        "const token = req.headers.authorization?.split(' ')[1];",
        "const apiKey = config.get('stripe.apiKey');",
        "headers: { Authorization: `Bearer ${accessToken}` },",
        "if (!password || password.length < 12) return false;",
    ],
    "java": [
        'String token = request.getHeader("Authorization");',
        "char[] password = console.readPassword();",
        'String apiKey = env.getProperty("stripe.api-key");',
    ],
    "go": [
        'token := r.Header.Get("Authorization")',
        'password := os.Getenv("DB_PASSWORD")',
        'apiKey, err := secrets.Get(ctx, "stripe-api-key")',
    ],
}


# --------------------------------------------------------------------------------------------
# Embedding a value in a language
# --------------------------------------------------------------------------------------------

LANGS = [
    "py",
    "js",
    "ts",
    "java",
    "go",
    "json",
    "yaml",
    "env",
    "sh",
    "md",
    "toml",
    "properties",
    "docker",
]
LANG_WEIGHT = [20, 10, 10, 7, 7, 10, 10, 4, 5, 7, 3, 3, 4]


def embed(
    lang: str, name: str, value: str, rng: R, header: str | None = None
) -> tuple[list[str], int]:
    """Lines that put `value` (one line) under `name` in `lang`, and the index of its line."""
    q = rng.pick(['"', "'"])
    hdr = header.format(v=value) if header and rng.random() < 0.25 else None
    if lang == "py":
        if hdr:
            k, _, hv = hdr.partition(": ")
            return [
                "HEADERS = {",
                '    "Accept": "application/json",',
                f'    "{k}": "{hv}",',
                "}",
            ], 2
        return rng.pick(
            [
                ([f'{name} = "{value}"'], 0),
                ([f"{snake(name)} = {q}{value}{q}"], 0),
                (
                    [
                        f"{snake(name.split('_')[0])}_config = {{",
                        f'    "timeout": {rng.randint(1, 30)},',
                        f'    "{snake(name)}": "{value}",',
                        "}",
                    ],
                    2,
                ),
                (
                    [
                        "client = make_client(",
                        f'    base_url="https://api.{rng.pick(WORDS)}.io",',
                        f'    {snake(name)}="{value}",',
                        ")",
                    ],
                    2,
                ),
                ([f'os.environ.setdefault("{name}", "{value}")'], 0),
            ]
        )
    if lang in ("js", "ts"):
        if hdr:
            k, _, hv = hdr.partition(": ")
            return [
                "const res = await fetch(url, {",
                "  method: 'POST',",
                f"  headers: {{ '{k}': '{hv}' }},",
                "});",
            ], 2
        decl = "export const" if rng.random() < 0.5 else "const"
        typ = ": string" if lang == "ts" and rng.random() < 0.5 else ""
        return rng.pick(
            [
                ([f"{decl} {name}{typ} = {q}{value}{q};"], 0),
                ([f"const {camel(name)} = `{value}`;"], 0),
                (
                    [
                        "const config = {",
                        "  region: 'us-east-1',",
                        f"  {camel(name)}: {q}{value}{q},",
                        "};",
                    ],
                    2,
                ),
                ([f"process.env.{name} = process.env.{name} || '{value}';"], 0),
            ]
        )
    if lang == "java":
        return rng.pick(
            [
                ([f'    private static final String {name} = "{value}";'], 0),
                ([f'    private String {camel(name)} = "{value}";'], 0),
                (
                    [
                        "    static {",
                        f'        System.setProperty("{dotted(name)}", "{value}");',
                        "    }",
                    ],
                    1,
                ),
            ]
        )
    if lang == "go":
        if hdr:
            k, _, hv = hdr.partition(": ")
            return [f'\treq.Header.Set("{k}", "{hv}")'], 0
        return rng.pick(
            [
                ([f'const {camel(name)} = "{value}"'], 0),
                ([f'var {pascal(name)} = "{value}"'], 0),
                (
                    [
                        "var defaultConfig = Config{",
                        f'\tEndpoint: "https://api.{rng.pick(WORDS)}.io",',
                        f'\t{pascal(name)}: "{value}",',
                        "}",
                    ],
                    2,
                ),
            ]
        )
    if lang == "yaml":
        return rng.pick(
            [
                ([f"{snake(name)}: {value}"], 0),
                ([f'{snake(name)}: "{value}"'], 0),
                (
                    [
                        f"{rng.pick(WORDS)}:",
                        f"  url: https://api.{rng.pick(WORDS)}.io",
                        f"  {snake(name)}: {value}",
                    ],
                    2,
                ),
                (["env:", f"  - name: {name}", f'    value: "{value}"'], 2),
                (["environment:", f"  {name}: {value}"], 1),
            ]
        )
    if lang == "env":
        return rng.pick(
            [([f"{name}={value}"], 0), ([f'{name}="{value}"'], 0), ([f"export {name}={value}"], 0)]
        )
    if lang == "sh":
        if hdr:
            return [
                f'curl -fsS -H "{hdr}" \\',
                f"  https://api.{rng.pick(WORDS)}.io/v1/{rng.pick(WORDS)}s",
            ], 0
        return rng.pick(
            [
                ([f'export {name}="{value}"'], 0),
                ([f"{name}='{value}'"], 0),
                ([f'{snake(name)}="{value}"'], 0),
            ]
        )
    if lang == "md":
        if hdr:
            return ["```bash", f'curl -H "{hdr}" https://api.{rng.pick(WORDS)}.io/v1/me', "```"], 1
        return rng.pick(
            [
                (["```bash", f"export {name}={value}", "```"], 1),
                (["```python", f'{snake(name)} = "{value}"', "```"], 1),
                ([f"Set `{name}` to `{value}` in the deploy settings."], 0),
                (["```yaml", f"{snake(name)}: {value}", "```"], 1),
            ]
        )
    if lang == "toml":
        return rng.pick(
            [
                ([f'{snake(name)} = "{value}"'], 0),
                ([f"[{rng.pick(WORDS)}]", f'{snake(name)} = "{value}"'], 1),
            ]
        )
    if lang == "properties":
        return rng.pick(
            [
                ([f"{dotted(name)}={value}"], 0),
                ([f"{dotted(name)} = {value}"], 0),
                ([f"{camel(name)}: {value}"], 0),
            ]
        )
    if lang == "docker":
        if hdr:
            return [f'RUN curl -fsS -H "{hdr}" https://api.{rng.pick(WORDS)}.io/v1/setup | sh'], 0
        return rng.pick(
            [
                ([f"ENV {name}={value}"], 0),
                ([f"ENV {name} {value}"], 0),
                ([f"ARG {name}={value}"], 0),
            ]
        )
    raise KeyError(lang)


def embed_pem(lang: str, name: str, pem: str, rng: R) -> tuple[list[str], int] | None:
    """A multi-line private key block; the labelled line is the BEGIN line."""
    lines = pem.split("\n")
    esc = pem.replace("\n", "\\n")
    if lang == "py":
        if rng.random() < 0.5:
            return [f'{name} = """{lines[0]}', *lines[1:], '"""'], 0
        return [f'{snake(name)} = """', *lines, '"""'], 1
    if lang in ("js", "ts"):
        return [f"const {camel(name)} = `{lines[0]}", *lines[1:], "`;"], 0
    if lang == "java":
        return [
            f'    private static final String {name} = """',
            *["        " + x for x in lines],
            '        """;',
        ], 1
    if lang == "go":
        return [f"const {camel(name)} = `{lines[0]}", *lines[1:], "`"], 0
    if lang == "yaml":
        return [f"{snake(name)}: |", *["  " + x if x else "" for x in lines]], 1
    if lang == "sh":
        return [
            "mkdir -p ~/.ssh",
            f"cat > ~/.ssh/{rng.pick(['id_rsa', 'deploy_key', 'id_ed25519'])} <<'EOF'",
            *lines,
            "EOF",
        ], 2
    if lang == "md":
        return ["```", *lines, "```"], 1
    if lang == "env":
        return [f'{name}="{esc}"'], 0
    if lang == "toml":
        return [f'{snake(name)} = """', *lines, '"""'], 1
    if lang == "properties":
        return [f"{dotted(name)}={esc}"], 0
    return None  # json files get them through json.dumps; Dockerfiles never


# --------------------------------------------------------------------------------------------
# Hard negatives: (kind, name, value) rendered with `embed`, or raw lines
# --------------------------------------------------------------------------------------------


def negative(lang: str, rng: R) -> tuple[str, list[str], int]:
    """A hard negative for `lang`: (kind, lines, index of the interesting line)."""
    r = rng.random()
    env_ref = {
        "py": [
            ('os.environ["{N}"]', False),
            ('os.getenv("{N}")', False),
            ('os.environ.get("{N}", "")', False),
        ],
        "js": [("process.env.{N}", False), ("process.env['{N}'] ?? ''", False)],
        "ts": [("process.env.{N}!", False), ("process.env.{N} as string", False)],
        "java": [('System.getenv("{N}")', False)],
        "go": [('os.Getenv("{N}")', False)],
        "yaml": [
            ("${{N}}", True),
            ("${{ secrets.{N} }}", True),
            ("{{{{ .Values.{n} }}}}", True),
            ("'{{{{ vault_{n} }}}}'", True),
        ],
        "env": [("${{N}}", True), ("", True)],
        "sh": [('"${{N}}"', True), ('"$(vault kv get -field=value secret/{n})"', True)],
        "md": [("<{n}>", True), ("${{N}}", True)],
        "toml": [("${{N}}", True)],
        "properties": [("${{N}}", True), ("${{N:}}", True)],
        "docker": [("${{N}}", True)],
    }
    secretish = rng.pick(
        [
            "PASSWORD",
            "DB_PASSWORD",
            "API_KEY",
            "SECRET_KEY",
            "CLIENT_SECRET",
            "AUTH_TOKEN",
            "GITHUB_TOKEN",
            "STRIPE_SECRET_KEY",
            "OPENAI_API_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "SLACK_BOT_TOKEN",
        ]
    )

    def render(
        kind: str, name: str, value: str, raw_code: bool = False
    ) -> tuple[str, list[str], int]:
        if raw_code and lang in ("py", "js", "ts", "java", "go"):
            line = {
                "py": f"{snake(name)} = {value}",
                "js": f"const {camel(name)} = {value};",
                "ts": f"const {camel(name)} = {value};",
                "java": f"    private String {camel(name)} = {value};",
                "go": f"{camel(name)} := {value}",
            }[lang]
            return kind, [line], 0
        lines, idx = embed(lang, name, value, rng)
        return kind, lines, idx

    if r < 0.16:  # environment / template references
        tmpl, literal = rng.pick(env_ref[lang])
        value = tmpl.format(N=secretish, n=snake(secretish))
        return render("env-or-template", secretish, value, raw_code=not literal)
    if r < 0.32:  # placeholders
        value = rng.pick(
            [
                "your-api-key-here",
                "<password>",
                "changeme",
                "xxxxxxxxxxxxxxxx",
                "REPLACE_ME",
                "<your-token>",
                "ghp_" + "x" * 36,
                "sk-proj-" + "X" * 40,
                "sk_live_" + "x" * 24,
                "xoxb-your-bot-token",
                "hf_" + "X" * 34,
                "AIzaSy" + "X" * 33,
                "glpat-xxxxxxxxxxxxxxxxxxxx",
                "{{ secret }}",
                "********",
                "TODO",
                "insert-key-here",
                "your_password",
                "dummy",
                "sample-secret-value",
            ]
        )
        return render("placeholder", secretish, value)
    if r < 0.36:
        return render("empty", secretish, "")
    if r < 0.42:
        name, value = rng.pick(
            [
                ("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"),
                ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                ("AWS_ACCESS_KEY_ID", "AKIAI44QH8DHBEXAMPLE"),
                ("AWS_SECRET_ACCESS_KEY", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
            ]
        )
        return render("documented-example-key", name, value)
    if r < 0.50:
        name = rng.pick(["GIT_SHA", "COMMIT", "REVISION", "BUILD_COMMIT", "BASE_REF_SHA"])
        return render("git-sha", name, rng.s(HEX, 40))
    if r < 0.58:
        name, n = rng.pick(
            [
                ("SHA256", 64),
                ("CHECKSUM", 64),
                ("MD5", 32),
                ("ETAG", 32),
                ("DIGEST", 64),
                ("SHA1", 40),
            ]
        )
        value = rng.s(HEX, n) if rng.random() < 0.7 else f"sha256:{rng.s(HEX, 64)}"
        return render("hex-digest", name, value)
    if r < 0.64:
        u = f"{rng.s(HEX, 8)}-{rng.s(HEX, 4)}-4{rng.s(HEX, 3)}-{rng.pick('89ab')}{rng.s(HEX, 3)}-{rng.s(HEX, 12)}"
        return render(
            "uuid",
            rng.pick(["TENANT_ID", "REQUEST_ID", "CLIENT_ID", "SUBSCRIPTION_ID", "WORKSPACE_ID"]),
            u,
        )
    if r < 0.70:
        name, value = rng.pick(
            [
                ("PASSWORD_FIELD", "password"),
                ("TOKEN_TYPE", "bearer"),
                ("AUTH_SCHEME", "Bearer"),
                ("GRANT_TYPE", "client_credentials"),
                ("AUTH_METHOD", "api_key"),
                ("SECRET_NAME", "orders-db-password"),
                ("PASSWORD_HASHER", "argon2"),
                ("TOKEN_HEADER", "X-Auth-Token"),
                ("API_KEY_HEADER", "X-Api-Key"),
                ("PASSWORD_MIN_LENGTH", "12"),
                ("SECRET_MANAGER_PATH", "projects/acme/secrets/db-password/versions/latest"),
            ]
        )
        return render("secret-word-not-secret", name, value)
    if r < 0.76:
        value = rng.pick(
            [
                f"postgres://app@{rng.pick(HOSTS)}:5432/orders",
                "redis://localhost:6379/0",
                "mongodb://mongo:27017/app",
                "amqp://rabbitmq:5672/%2F",
                f"postgresql://{rng.pick(USERS)}:${{DB_PASSWORD}}@{rng.pick(HOSTS)}/app",
                "mysql://root@127.0.0.1:3306/test",
                "https://api.github.com/repos/acme/infra",
            ]
        )
        return render(
            "url-without-password",
            rng.pick(["DATABASE_URL", "REDIS_URL", "MONGO_URL", "BROKER_URL", "API_URL"]),
            value,
        )
    if r < 0.82:
        name, value = rng.pick(
            [
                ("VERSION", f"{rng.randint(0, 9)}.{rng.randint(0, 40)}.{rng.randint(0, 20)}"),
                ("PRIMARY_COLOR", f"#{rng.s(HEX, 6)}"),
                ("ACCENT_COLOR", f"#{rng.s(HEX, 3)}"),
                ("STRIPE_PUBLISHABLE_KEY", "pk_live_" + rng.s(ALNUM, 24)),
                (
                    "GOOGLE_OAUTH_CLIENT_ID",
                    f"{rng.digits(12)}-{rng.s(LO + DIG, 32)}.apps.googleusercontent.com",
                ),
                ("MEASUREMENT_ID", "G-" + rng.s(UP + DIG, 10)),
                ("COMPONENT_ID", "c" + rng.s(LO + DIG, 24)),
                ("TRACE_ID", rng.s(HEX, 32)),
                (
                    "BUILD_ID",
                    f"{rng.randint(2023, 2025)}{rng.randint(10, 12)}{rng.randint(10, 28)}.{rng.s(HEX, 8)}",
                ),
                ("CACHE_KEY", f"deps-v3-{rng.s(HEX, 16)}"),
                ("ROUTE_ID", rng.s(ALNUM, 22)),
            ]
        )
        return render("identifier", name, value)
    if r < 0.90:  # test fixtures with obviously fake values
        lines = {
            "py": [
                "def test_login_rejects_bad_password(client):",
                '    resp = client.post("/login", data={"username": "alice", "password": "wrong-password"})',
                "    assert resp.status_code == 401",
            ],
            "js": [
                "it('masks tokens', () => {",
                "  expect(mask('test-token-123')).toBe('test****');",
                "});",
            ],
            "ts": ["const fixture = { apiKey: 'test-api-key', password: 'hunter2' };"],
            "java": ['        User u = new User("bob", "password123");'],
            "go": ['\tcfg := Config{APIKey: "test-key", Password: "secret"}'],
        }.get(lang)
        if lines:
            return "test-fixture", lines, len(lines) - 2 if len(lines) > 1 else 0
        return render(
            "test-fixture",
            rng.pick(["PASSWORD", "API_KEY", "TOKEN"]),
            rng.pick(["test", "secret", "password", "test-token"]),
        )
    if r < 0.95:  # i18n keys and prose about secrets
        if lang == "json" or lang in ("js", "ts", "py"):
            key = rng.pick(
                [
                    "auth.password.label",
                    "settings.api_key.description",
                    "errors.token_expired",
                    "auth.secret.hint",
                ]
            )
            text = rng.pick(
                [
                    "Password",
                    "Your API key is shown only once.",
                    "Your session token has expired.",
                    "Keep this secret safe",
                ]
            )
            return render("i18n", key.replace(".", "_").upper(), f"{key}: {text}")
        return (
            "prose",
            [
                f"# Rotate the {rng.pick(['API key', 'password', 'token', 'client secret'])} every 90 days; never commit it."
            ],
            0,
        )
    # data URIs / long base64 that is not a secret
    png = "iVBORw0KGgoAAAANSUhEUgAA" + rng.b64bytes(rng.randint(150, 900))
    return render(
        "data-uri",
        rng.pick(["LOGO", "ICON", "PLACEHOLDER_IMAGE", "AVATAR_FALLBACK"]),
        f"data:image/png;base64,{png}",
    )


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------

SERVICES = [
    "orders",
    "billing",
    "auth",
    "search",
    "catalog",
    "notify",
    "reports",
    "gateway",
    "ingest",
    "ledger",
]


def file_path(lang: str, rng: R) -> str:
    svc, n = rng.pick(SERVICES), rng.pick(WORDS)
    return {
        "py": rng.pick(
            [
                f"services/{svc}/{svc}/{n}.py",
                f"services/{svc}/{svc}/api/{n}_views.py",
                f"services/{svc}/tests/test_{n}.py",
                f"scripts/{rng.pick(VERBS)}_{n}.py",
                f"services/{svc}/{svc}/settings.py",
            ]
        ),
        "js": rng.pick(
            [
                f"web/src/{n}/{n}.js",
                f"web/src/api/{n}Client.js",
                f"web/server/routes/{n}.js",
                f"web/test/{n}.test.js",
            ]
        ),
        "ts": rng.pick(
            [
                f"web/src/components/{pascal(n)}.tsx",
                f"web/src/lib/{n}.ts",
                f"packages/sdk/src/{n}.ts",
            ]
        ),
        "java": f"backend/src/main/java/com/acme/{svc}/{pascal(n)}{rng.pick(['Service', 'Controller', 'Config', 'Repository'])}.java",
        "go": rng.pick(
            [f"cmd/{svc}/{n}.go", f"internal/{svc}/{n}.go", f"internal/{n}/{n}_test.go"]
        ),
        "json": rng.pick(
            [
                f"config/{svc}.{rng.pick(['dev', 'prod', 'staging'])}.json",
                f"web/src/locales/{rng.pick(['en', 'fr', 'de', 'pt'])}-{n}.json",
                f"services/{svc}/fixtures/{n}.json",
                f"web/packages/{n}/package-lock.json",
                f"infra/{n}-policy.json",
            ]
        ),
        "yaml": rng.pick(
            [
                f"deploy/k8s/{svc}/{n}-deployment.yaml",
                f".github/workflows/{rng.pick(VERBS)}-{n}.yml",
                f"deploy/compose/docker-compose.{svc}.yml",
                f"ansible/roles/{svc}/defaults/main.yml",
                f"docs/openapi/{svc}.yaml",
            ]
        ),
        "env": rng.pick(
            [
                f"services/{svc}/.env",
                f"services/{svc}/.env.production",
                "web/.env.local",
                f"deploy/{svc}.env",
            ]
        ),
        "sh": rng.pick([f"scripts/{rng.pick(VERBS)}-{n}.sh", f"deploy/bin/{svc}-{n}.sh"]),
        "md": rng.pick(
            [f"docs/{svc}/{n}.md", f"services/{svc}/README.md", f"docs/runbooks/{n}.md"]
        ),
        "toml": rng.pick(
            [f"services/{svc}/pyproject.toml", f"config/{svc}-{n}.toml", f"services/{svc}/{n}.toml"]
        ),
        "properties": f"backend/src/main/resources/application-{rng.pick(['dev', 'prod', 'staging', 'local'])}-{n}.properties",
        "docker": rng.pick(
            [
                f"services/{svc}/Dockerfile",
                f"docker/{n}/Dockerfile",
                f"services/{svc}/Dockerfile.{rng.pick(['dev', 'worker'])}",
            ]
        ),
    }[lang]


def header_lines(lang: str, path: str, rng: R) -> list[str]:
    n = rng.pick(WORDS)
    if lang == "py":
        return [
            f'"""{n.title()} {rng.pick(["views", "service", "helpers", "settings", "jobs"])}."""',
            "",
            "from __future__ import annotations",
            "",
            "import logging",
            "import os",
            *rng.sample(
                [
                    "import json",
                    "import time",
                    "from datetime import datetime, timezone",
                    "from collections.abc import Iterable",
                    "import requests",
                    "import boto3",
                ],
                3,
            ),
            "",
            "logger = logging.getLogger(__name__)",
            "",
        ]
    if lang in ("js", "ts"):
        return [
            "import { useState } from 'react';"
            if path.endswith("x")
            else f"import {{ {camel(n.upper())}Schema }} from '../schemas';",
            "import { API_BASE } from '../config';",
            "",
        ]
    if lang == "java":
        pkg = ".".join(path.split("/")[4:-1])
        cls = os.path.basename(path)[:-5]
        return [
            f"package {pkg};",
            "",
            "import java.time.Duration;",
            "import java.util.List;",
            "",
            "@Service",
            f"public class {cls} {{",
            "",
            f"    private static final Logger log = LoggerFactory.getLogger({cls}.class);",
            "",
        ]
    if lang == "go":
        return [
            f"package {path.split('/')[-2]}",
            "",
            "import (",
            '\t"context"',
            '\t"fmt"',
            '\t"net/http"',
            '\t"os"',
            '\t"time"',
            ")",
            "",
        ]
    if lang == "sh":
        return [
            "#!/usr/bin/env bash",
            "set -euo pipefail",
            f"# {n}: helper for the {rng.pick(SERVICES)} deploy",
            "",
        ]
    if lang == "md":
        return [f"# {n.title()} {rng.pick(['runbook', 'guide', 'service', 'notes'])}", ""]
    if lang == "docker":
        return [
            f"FROM {rng.pick(['python:3.12-slim', 'node:20-alpine', 'golang:1.22', 'eclipse-temurin:21-jre'])}",
            "WORKDIR /app",
            "",
        ]
    if lang == "yaml":
        return ["---", f"# {n} configuration", ""]
    return []


def footer_lines(lang: str) -> list[str]:
    return ["}"] if lang == "java" else []


@dataclass
class Planned:
    path: str
    lang: str
    target: int
    secrets: list[Secret] = field(default_factory=list)


def build_text_file(plan: Planned, rng: R, secrets_out: list, negs_out: list) -> str:
    lang = plan.lang
    lines = header_lines(lang, plan.path, rng)
    filler = FILLERS[lang]
    size = sum(len(x) + 1 for x in lines)
    # interleave: some filler, a secret or a negative, filler...
    events: list[tuple[str, object]] = [("secret", s) for s in plan.secrets]
    n_neg = max(1, int(plan.target / 2500 * rng.uniform(0.3, 1.2)))
    events += [("neg", None)] * n_neg
    rng.shuffle(events)
    per = max(1, plan.target // (len(events) + 1))

    def pad(budget: int) -> None:
        nonlocal size
        goal = size + budget
        while size < goal:
            block = [x for chunk in filler(rng) for x in chunk.split("\n")]
            if lang in AUTHY and rng.random() < 0.05:
                block = [*rng.pick(AUTHY[lang]).split("\n"), "", *block]
            lines.extend(block)
            size += sum(len(x) + 1 for x in block)

    for kind, obj in events:
        pad(int(per * rng.uniform(0.3, 1.2)))
        if kind == "secret":
            s: Secret = obj  # type: ignore[assignment]
            name = rng.pick(s.names)
            if s.kind == "pem":
                block, idx = embed_pem(lang, name, s.value, rng)  # type: ignore[misc]
            else:
                block, idx = embed(lang, name, s.value, rng, s.header)
            if lang == "py" and rng.random() < 0.3:
                block = [
                    "",
                    f"# {rng.pick(['temporary', 'local testing', 'do not commit', 'prod'])} credentials",
                    *block,
                ]
                idx += 2
            secrets_out.append(
                {
                    "path": plan.path,
                    "line": len(lines) + idx + 1,
                    "provider": s.provider,
                    "_needle": s.value.split("\n")[0][:16],
                }
            )
            assert all("\n" not in x for x in block)
        else:
            kindname, block, idx = negative(lang, rng)
            negs_out.append({"path": plan.path, "line": len(lines) + idx + 1, "kind": kindname})
        lines.extend(block)
        size += sum(len(x) + 1 for x in block)
    pad(max(0, plan.target - size))
    lines.extend(footer_lines(lang))
    return "\n".join(lines) + "\n"


def _json_filler(rng: R, depth: int = 0) -> dict:
    out: dict = {}
    for _ in range(rng.randint(2, 6)):
        k = (
            f"{rng.pick(WORDS)}{pascal(rng.pick(ATTRS).upper())}"
            if rng.random() < 0.5
            else rng.pick(WORDS)
        )
        r = rng.random()
        if r < 0.2 and depth < 3:
            out[k] = _json_filler(rng, depth + 1)
        elif r < 0.4:
            out[k] = rng.randint(0, 100000)
        elif r < 0.55:
            out[k] = [rng.pick(WORDS) for _ in range(rng.randint(1, 5))]
        elif r < 0.65:
            out[k] = rng.pick([True, False, None])
        else:
            out[k] = rng.pick(
                [
                    f"https://{rng.pick(WORDS)}.acme-corp.io/{rng.pick(WORDS)}",
                    rng.pick(["eu-west-1", "us-east-1"]),
                    f"{rng.pick(VERBS).title()} the {rng.pick(WORDS)}",
                    f"{rng.pick(WORDS)}-{rng.randint(1, 99)}",
                ]
            )
    return out


def _lock_file(rng: R, target: int) -> dict:
    pkgs: dict = {"": {"name": rng.pick(WORDS) + "-web", "version": "1.0.0"}}
    size = 0
    while size < target:
        name = f"{rng.pick(['@babel/', '@types/', '', '', 'eslint-plugin-', '@acme/'])}{rng.pick(WORDS)}-{rng.pick(WORDS)}"
        ver = f"{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 20)}"
        entry = {
            "version": ver,
            "resolved": f"https://registry.npmjs.org/{name}/-/{name.split('/')[-1]}-{ver}.tgz",
            "integrity": "sha512-" + rng.b64bytes(64),
            "dev": rng.random() < 0.5,
        }
        if rng.random() < 0.3:
            entry["dependencies"] = {rng.pick(WORDS): f"^{rng.randint(1, 9)}.0.0"}
        pkgs[f"node_modules/{name}"] = entry
        size += 260
    return {"name": pkgs[""]["name"], "lockfileVersion": 3, "requires": True, "packages": pkgs}


def build_json_file(plan: Planned, rng: R, secrets_out: list, negs_out: list) -> str:
    if plan.path.endswith("package-lock.json"):
        doc = _lock_file(rng, plan.target)
        text = json.dumps(doc, indent=2) + "\n"
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if '"integrity"' in line and rng.random() < 0.05:
                negs_out.append({"path": plan.path, "line": i + 1, "kind": "lock-integrity"})
        # secrets in lock files are rare; a token in an .npmrc-style field is not, put any here
        if not plan.secrets:
            return text
    doc = _json_filler(rng) if not plan.path.endswith("package-lock.json") else doc
    markers: list[tuple[str, str, object]] = []  # (needle, what, label)
    items = list(doc.items())
    size = len(json.dumps(doc))
    while size < plan.target:
        k = f"{rng.pick(WORDS)}{len(items)}"
        v = _json_filler(rng)
        items.append((k, v))
        size += len(json.dumps(v)) + 20
    for s in plan.secrets:
        name = rng.pick(s.names)
        key = rng.pick([snake(name), camel(name)])
        val = s.value + "\n" if s.kind == "pem" else s.value
        section = {"endpoint": f"https://api.{rng.pick(WORDS)}.io", key: val}
        items.insert(
            rng.randint(0, len(items)),
            (f"{rng.pick(WORDS)}{pascal(rng.pick(VERBS).upper())}{len(items)}", section),
        )
        needle = json.dumps(val)[1:-1]
        markers.append((f'"{key}": "{needle}', "secret", s.provider))
    for _ in range(max(1, plan.target // 3000)):
        kindname, name, value = _json_negative(rng)
        items.insert(
            rng.randint(0, len(items)), (f"{rng.pick(WORDS)}Settings{len(items)}", {name: value})
        )
        markers.append((f'"{name}": {json.dumps(value)}', "neg", kindname))
    doc = dict(items)
    text = json.dumps(doc, indent=2) + "\n"
    lines = text.split("\n")
    claimed: set[int] = set()
    for needle, what, label in markers:
        for i, line in enumerate(lines):
            if needle in line and i not in claimed:
                claimed.add(i)
                if what == "secret":
                    secrets_out.append(
                        {
                            "path": plan.path,
                            "line": i + 1,
                            "provider": label,
                            "_needle": needle[-8:],
                        }
                    )
                else:
                    negs_out.append({"path": plan.path, "line": i + 1, "kind": label})
                break
        else:  # pragma: no cover - would be a generator bug
            raise AssertionError(f"marker not found in {plan.path}: {needle[:20]}")
    return text


def _json_negative(rng: R) -> tuple[str, str, object]:
    return rng.pick(
        [
            ("placeholder", "apiKey", "your-api-key-here"),
            ("placeholder", "password", "<password>"),
            ("placeholder", "client_secret", "REPLACE_ME"),
            ("env-or-template", "token", "${GITHUB_TOKEN}"),
            ("empty", "password", ""),
            ("documented-example-key", "accessKeyId", "AKIAIOSFODNN7EXAMPLE"),
            ("git-sha", "commit", rng.s(HEX, 40)),
            ("hex-digest", "sha256", rng.s(HEX, 64)),
            (
                "uuid",
                "clientId",
                f"{rng.s(HEX, 8)}-{rng.s(HEX, 4)}-4{rng.s(HEX, 3)}-a{rng.s(HEX, 3)}-{rng.s(HEX, 12)}",
            ),
            ("secret-word-not-secret", "token_type", "bearer"),
            ("secret-word-not-secret", "passwordField", "password"),
            ("i18n", "auth.password.placeholder", "Enter your password"),
            ("i18n", "settings.apiKey.help", "Your API key is shown once"),
            (
                "identifier",
                "version",
                f"{rng.randint(0, 9)}.{rng.randint(0, 40)}.{rng.randint(0, 9)}",
            ),
            ("identifier", "themeColor", f"#{rng.s(HEX, 6)}"),
            ("identifier", "publishableKey", "pk_live_" + rng.s(ALNUM, 24)),
            ("url-without-password", "databaseUrl", "postgres://app@db:5432/app"),
            (
                "data-uri",
                "icon",
                "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA" + rng.b64bytes(300),
            ),
            ("test-fixture", "password", "test-password"),
        ]
    )


def build_gcp_sa(plan: Planned, rng: R, secrets_out: list) -> str:
    project = (
        f"{rng.pick(['acme', 'northwind', 'globex'])}-{rng.pick(SERVICES)}-{rng.randint(100, 999)}"
    )
    sa = rng.pick(["deployer", "ci-runner", "bigquery-reader", "terraform"])
    doc = {
        "type": "service_account",
        "project_id": project,
        "private_key_id": rng.s(HEX, 40),
        "private_key": plan.secrets[0].value,
        "client_email": f"{sa}@{project}.iam.gserviceaccount.com",
        "client_id": rng.digits(21),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
        "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
        "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/{sa}%40{project}.iam.gserviceaccount.com",
        "universe_domain": "googleapis.com",
    }
    text = json.dumps(doc, indent=2) + "\n"
    line = (
        next(i for i, x in enumerate(text.split("\n")) if x.lstrip().startswith('"private_key":'))
        + 1
    )
    secrets_out.append(
        {
            "path": plan.path,
            "line": line,
            "provider": "gcp-service-account",
            "_needle": "BEGIN PRIVATE",
        }
    )
    return text


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def generate(
    out: str, seed: int, files: int = 2000, mb: float = 20.0, secret_rate: float = 0.35
) -> dict:
    rng = R(seed)
    if os.path.exists(out):
        shutil.rmtree(out)
    tree = os.path.join(out, "tree")
    os.makedirs(tree)
    avg = mb * 1_000_000 / files
    plans: list[Planned] = []
    used: set[str] = set()

    def unique(path: str) -> str:
        # A clash gets another folder level, keeping well-known file names (Dockerfile, .env...).
        head, _, name = path.rpartition("/")
        while path.lower() in used:
            path = f"{head}/{rng.pick(WORDS)}{rng.randint(2, 99)}/{name}"
        used.add(path.lower())
        return path

    n_secrets = int(files * secret_rate)
    pool: list[str] = []
    for p in PROVIDERS:
        pool += [p] * WEIGHT.get(p, 1)
    providers = [pool[i % len(pool)] for i in range(n_secrets)]
    rng.shuffle(providers)
    n_gcp = providers.count("gcp-service-account")
    n_regular = max(1, files - n_gcp)
    for _ in range(n_regular):
        lang = rng.choices(LANGS, LANG_WEIGHT)[0]
        path = unique(file_path(lang, rng))
        factor = rng.lognormvariate(0, 0.7)
        if path.endswith("package-lock.json"):
            factor *= 4
        plans.append(Planned(path, lang, max(400, int(avg * factor / 1.3))))
    for p in providers:
        secret = gen_secret(p, rng)
        if p == "gcp-service-account":
            name = rng.pick(["service-account", "gcp-credentials", "sa-key", "credentials"])
            path = unique(
                f"{rng.pick(['deploy/gcp', 'infra/keys', 'services/' + rng.pick(SERVICES)])}/{name}-{rng.pick(['prod', 'ci', 'dev'])}.json"
            )
            plans.append(Planned(path, "gcpsa", 0, [secret]))
            continue
        while True:
            plan = rng.pick(plans[:n_regular])
            if plan.lang == "docker" and secret.kind == "pem":
                continue
            if plan.path.endswith("package-lock.json"):
                continue
            break
        plan.secrets.append(secret)

    secrets: list[dict] = []
    negatives: list[dict] = []
    total = 0
    for plan in plans:
        if plan.lang == "gcpsa":
            text = build_gcp_sa(plan, rng, secrets)
        elif plan.lang == "json":
            text = build_json_file(plan, rng, secrets, negatives)
        else:
            text = build_text_file(plan, rng, secrets, negatives)
        full = os.path.join(tree, plan.path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        total += len(text.encode())
        file_lines = text.split("\n")
        for d in secrets:  # self-check: the labelled line holds the planted value
            if d["path"] == plan.path and "_needle" in d:
                needle = d.pop("_needle")
                if needle not in file_lines[d["line"] - 1]:
                    raise AssertionError(f"label off: {d} {file_lines[d['line'] - 1][:40]!r}")
    secrets.sort(key=lambda d: (d["path"], d["line"]))
    negatives.sort(key=lambda d: (d["path"], d["line"]))
    keys = [(d["path"], d["line"]) for d in secrets]
    assert len(keys) == len(set(keys)), "two secrets on one line"
    meta = {
        "seed": seed,
        "tree": "tree",
        "files": len(plans),
        "bytes": total,
        "secrets": secrets,
        "negatives": negatives,
    }
    with open(os.path.join(out, "labels.json"), "w", encoding="utf-8") as fh:
        json.dump(meta, fh, indent=1)
        fh.write("\n")
    return meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(BENCH, "out", "corpus"))
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--mb", type=float, default=20.0, help="approximate total size in MB")
    args = ap.parse_args(argv)
    meta = generate(args.out, args.seed, args.files, args.mb)
    print(
        f"{args.out}: {meta['files']} files, {meta['bytes'] / 1e6:.1f} MB, "
        f"{len(meta['secrets'])} secrets, {len(meta['negatives'])} hard negatives",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
