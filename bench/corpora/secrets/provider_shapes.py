"""Labelled provider-token examples: true shapes and look-alikes, per rule (issue 13).

Each provider's generator writes lines the way people commit them (env files, code, YAML,
shell) around a token of the documented shape; each look-alike generator writes what must
not be reported: a wrong length or alphabet, the prefix in prose, placeholders, digests,
neighbouring formats. Written from the providers' token documentation, independently of the
rules' regexes, so that the measure checks the rules rather than mirrors them.

`POS[rule]` and `NEG[rule]` draw one line from a `random.Random`. The rules' own `examples`
were drawn with seed 1; bench/provider_shapes.py measures the rules on seed 2, the test suite
(tests/test_secrets_context.py) on seed 3. Standard library only.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
HEX = "0123456789abcdef"
URLSAFE = ALNUM + "_-"
B64 = ALNUM + "+/"

# the ways a token is written down; `{t}` is the token, `{n}` a name fitting the provider
CONTEXTS = [
    "{n}={t}",
    'export {n}="{t}"',
    '{n} = "{t}"',
    "  {n}: {t}",
    '    "{n}": "{t}",',
    "const {n} = '{t}';",
    '{n} := "{t}"',
    "ENV {n} {t}",
    "- {n}={t}",
    "{n}: '{t}'",
]


def r(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def mixed(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    """Random text that holds an upper-case letter, a lower-case one and a digit (those of
    them that the alphabet has)."""
    tests = [t for t in (str.isupper, str.islower, str.isdigit) if any(map(t, alphabet))]
    while True:
        s = r(rng, alphabet, n)
        if all(any(t(c) for c in s) for t in tests):
            return s


def put(rng: random.Random, name: str, token: str) -> str:
    return rng.choice(CONTEXTS).format(n=name, t=token)


Gen = Callable[[random.Random], str]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# --- true shapes -----------------------------------------------------------------------------


def bedrock(rng: random.Random) -> str:
    if rng.random() < 0.6:
        raw = (
            f"BedrockAPIKey-{r(rng, LOWER + DIGITS, 4)}-at-{r(rng, DIGITS, 12)}:"
            f"{mixed(rng, 40, ALNUM + '+/')}"
        ).encode()
        return put(rng, "AWS_BEARER_TOKEN_BEDROCK", "ABSK" + b64(raw))
    region = rng.choice(["us-east-1", "us-west-2", "eu-central-1"])
    url = (
        f"bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential=ASIA{r(rng, UPPER + DIGITS, 16)}%2F20250801%2F{region}%2Fbedrock"
        f"%2Faws4_request&X-Amz-Date=20250801T120000Z&X-Amz-Expires=43200"
        f"&X-Amz-Security-Token={mixed(rng, 200, ALNUM)}&X-Amz-Signature={r(rng, HEX, 64)}"
        f"&X-Amz-SignedHeaders=host&Version=1"
    ).encode()
    return put(rng, "AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key-" + b64(url))


OP_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTVWXYZ"


def op_secret_key(rng: random.Random) -> str:
    k = f"A3-{r(rng, OP_ALPHABET, 6)}-{r(rng, OP_ALPHABET, 6)}-" + "-".join(
        r(rng, OP_ALPHABET, 5) for _ in range(4)
    )
    if rng.random() < 0.2:
        k = f"A3-{r(rng, OP_ALPHABET, 6)}-{r(rng, OP_ALPHABET, 11)}-" + "-".join(
            r(rng, OP_ALPHABET, 5) for _ in range(3)
        )
    return put(rng, rng.choice(["OP_SECRET_KEY", "secret_key", "OP_ACCOUNT_KEY"]), k)


def sourcegraph(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.5:
        t = f"sgp_{r(rng, HEX, 16)}_{r(rng, HEX, 40)}"
    elif kind < 0.75:
        t = f"sgp_local_{r(rng, HEX, 40)}"
    else:
        t = f"sgp_{r(rng, HEX, 40)}"
    return put(rng, "SRC_ACCESS_TOKEN", t)


def openshift(rng: random.Random) -> str:
    t = "sha256~" + mixed(rng, 43, URLSAFE)
    return rng.choice(
        [
            put(rng, "OPENSHIFT_TOKEN", t),
            f"oc login --token={t} --server=https://api.c1.acme.io:6443",
        ]
    )


def harness(rng: random.Random) -> str:
    t = f"{rng.choice(['pat', 'sat'])}.{mixed(rng, 22, URLSAFE)}.{r(rng, HEX, 24)}.{mixed(rng, 20)}"
    return put(rng, "HARNESS_PLATFORM_API_KEY", t)


def clickhouse(rng: random.Random) -> str:
    return put(rng, "CLICKHOUSE_CLOUD_SECRET", "4b1d" + mixed(rng, 38))


def adobe(rng: random.Random) -> str:
    return put(rng, "ADOBE_CLIENT_SECRET", "p8e-" + mixed(rng, 32, ALNUM + "-_"))


def gitlab_ffct(rng: random.Random) -> str:
    return put(rng, "UNLEASH_INSTANCE_ID", "glffct-" + mixed(rng, 20, URLSAFE))


def gitlab_soat(rng: random.Random) -> str:
    return put(rng, "SCIM_TOKEN", "glsoat-" + mixed(rng, 20, URLSAFE))


def gitlab_session(rng: random.Random) -> str:
    v = r(rng, HEX, 32)
    return rng.choice(
        [
            f"curl -H 'Cookie: _gitlab_session={v}' https://gitlab.acme.io/api/v4/projects",
            f"cookies = {{'_gitlab_session': '{v}'}}",
            f"Cookie: known_sign_in=x; _gitlab_session={v}; event_filter=all",
        ]
    )


def grafana_legacy(rng: random.Random) -> str:
    payload = {
        "k": mixed(rng, 32),
        "n": rng.choice(["ci", "deploy", "alerts"]),
        "id": rng.randint(1, 9999),
    }
    return put(rng, "GRAFANA_API_KEY", b64(json.dumps(payload, separators=(",", ":")).encode()))


def settlemint(rng: random.Random) -> str:
    return put(
        rng, "SETTLEMINT_ACCESS_TOKEN", f"sm_{rng.choice(['pat', 'aat', 'sat'])}_{mixed(rng, 16)}"
    )


def octopus(rng: random.Random) -> str:
    return put(rng, "OCTOPUS_API_KEY", "API-" + mixed(rng, 26, UPPER + DIGITS).upper())


def readme(rng: random.Random) -> str:
    return put(rng, "README_API_KEY", "rdme_" + r(rng, LOWER + DIGITS, 70))


def scalingo(rng: random.Random) -> str:
    return put(rng, "SCALINGO_API_TOKEN", "tk-us-" + mixed(rng, 48, URLSAFE))


def maxmind(rng: random.Random) -> str:
    t = f"{mixed(rng, 6)}_{mixed(rng, 29)}_mmk"
    return rng.choice([put(rng, "MAXMIND_LICENSE_KEY", t), f"LicenseKey {t}"])


def intra42(rng: random.Random) -> str:
    return put(rng, "FT_CLIENT_SECRET", f"s-s4t2{rng.choice(['ud', 'af'])}-{r(rng, HEX, 64)}")


def dnkey(rng: random.Random) -> str:
    a = LOWER + DIGITS + "_-"
    return put(rng, "DN_API_KEY", f"dnkey-{r(rng, a, 26)}-{r(rng, a, 52)}")


def authress(rng: random.Random) -> str:
    a = LOWER + DIGITS
    t = (
        f"{rng.choice(['sc', 'ext', 'scauth', 'authress'])}_{r(rng, a, rng.randint(6, 20))}."
        f"{r(rng, a, 4)}.acc_{r(rng, a, 16)}.{mixed(rng, 64, ALNUM + '+/')}"
    )
    return put(rng, "AUTHRESS_SERVICE_CLIENT_ACCESS_KEY", t)


def yandex_api_key(rng: random.Random) -> str:
    return put(rng, "YC_API_KEY", "AQVN" + mixed(rng, rng.choice([35, 36]), URLSAFE))


def yandex_iam(rng: random.Random) -> str:
    t = f"t1.9euelZ{mixed(rng, 60, URLSAFE)}.{mixed(rng, 86, URLSAFE)}"
    return rng.choice(
        [
            put(rng, "YC_IAM_TOKEN", t),
            f'curl -H "Authorization: Bearer {t}" https://compute.api.cloud.yandex.net',
        ]
    )


def lob(rng: random.Random) -> str:
    if rng.random() < 0.7:
        t = f"{rng.choice(['live', 'test'])}_{r(rng, HEX, 35)}"
    else:
        t = f"{rng.choice(['live', 'test'])}_pub_{r(rng, HEX, 31)}"
    return put(rng, rng.choice(["LOB_API_KEY", "lob_secret", "LobKey"]), t)


def gocardless(rng: random.Random) -> str:
    t = f"{rng.choice(['live', 'sandbox'])}_{mixed(rng, 40, URLSAFE)}"
    return put(rng, rng.choice(["GOCARDLESS_ACCESS_TOKEN", "gocardless_token"]), t)


def facebook_app(rng: random.Random) -> str:
    app = str(rng.randint(10**14, 10**16 - 1))
    sep = rng.choice(["|", "|", "%7C"])
    if rng.random() < 0.6:
        t = f"{app}{sep}{r(rng, HEX, 32)}"
    else:
        t = f"{app}{sep}{mixed(rng, 27, URLSAFE)}"
    return rng.choice(
        [
            put(rng, "FB_APP_TOKEN", t),
            f"https://graph.facebook.com/v19.0/debug_token?access_token={t}",
        ]
    )


def twitter_access(rng: random.Random) -> str:
    t = f"{rng.randint(10**15, 10**19)}-{mixed(rng, rng.choice([30, 40]))}"
    return put(
        rng, rng.choice(["TWITTER_ACCESS_TOKEN", "twitter_access_token", "TwitterAccessToken"]), t
    )


def sidekiq(rng: random.Random) -> str:
    cred = f"{r(rng, HEX, 8)}:{r(rng, HEX, 8)}"
    return rng.choice(
        [
            f'BUNDLE_ENTERPRISE__CONTRIBSYS__COM: "{cred}"',
            f"export BUNDLE_GEMS__CONTRIBSYS__COM={cred}",
            f'source "https://{cred}@gems.contribsys.com/" do',
            f"bundle config --local enterprise.contribsys.com {cred}",
        ]
    )


def freemius(rng: random.Random) -> str:
    t = "sk_" + mixed(rng, 29, ALNUM + "#$&*@!?;<>{}[]~")
    return rng.choice([f"    'secret_key' => '{t}',", f'        "secret_key" => "{t}",'])


def duffel_test(rng: random.Random) -> str:
    return put(rng, "DUFFEL_ACCESS_TOKEN", "duffel_test_" + mixed(rng, 43, URLSAFE))


def easypost_test(rng: random.Random) -> str:
    return put(rng, "EASYPOST_API_KEY", "EZTK" + mixed(rng, 54))


def flutterwave_enc(rng: random.Random) -> str:
    return put(rng, "FLW_ENCRYPTION_KEY", "FLWSECK_TEST" + r(rng, "abcdefgh0123456789", 12))


def snowflake_b64(rng: random.Random) -> str:
    return base64.b64encode(str(rng.randint(10**17, 2 * 10**18)).encode()).decode().rstrip("=")


def discord(rng: random.Random) -> str:
    t = f"{snowflake_b64(rng)}.{mixed(rng, 6, URLSAFE)}.{mixed(rng, 38, URLSAFE)}"
    return rng.choice(
        [
            put(rng, "BOT_TOKEN", t),
            f"client.run('{t}')",
            f"client.login('{t}');",
            put(rng, "DISCORD_TOKEN", t),
        ]
    )


def telegram(rng: random.Random) -> str:
    t = f"{rng.randint(10**8, 10**10 - 1)}:AA{mixed(rng, 33, URLSAFE)}"
    return rng.choice([put(rng, "TOKEN", t), f"updater = Updater('{t}')", put(rng, "TG_TOKEN", t)])


def ibm(rng: random.Random) -> str:
    return put(
        rng,
        rng.choice(["IBMCLOUD_API_KEY", "IC_API_KEY", "ibm_api_key", "IAM_APIKEY"]),
        mixed(rng, 44, URLSAFE),
    )


def jwt_b64(rng: random.Random) -> str:
    def part(obj: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    header = part({"alg": "RS256", "kid": mixed(rng, 8)})
    claims = part({"sub": mixed(rng, 12), "iat": rng.randint(1, 10**9)})
    jwt = f"{header}.{claims}.{mixed(rng, 43, URLSAFE)}"
    return rng.choice(
        ["  token: " + b64(jwt.encode()), put(rng, "SA_TOKEN_B64", b64(jwt.encode()))]
    )


# --- look-alikes -----------------------------------------------------------------------------


def prose(rng: random.Random, word: str) -> str:
    return rng.choice(
        [
            f"Tokens start with `{word}` followed by random characters.",
            f"# {word}... is the prefix of the key",
            f'PREFIX = "{word}"',
            f"if token.startswith('{word}'):",
        ]
    )


def placeholder(rng: random.Random, name: str, prefix: str, n: int) -> str:
    return put(
        rng,
        name,
        prefix + rng.choice(["x" * n, "X" * n, "your_token_here", "<token>", "${TOKEN}", "*" * n]),
    )


def neg(*makers: Callable[[random.Random], str]) -> Gen:
    return lambda rng: rng.choice(makers)(rng)


NEG: dict[str, Gen] = {}
POS: dict[str, Gen] = {}


def provider(rule: str, pos: Gen, *negs: Callable[[random.Random], str]) -> None:
    POS[rule] = pos
    NEG[rule] = neg(*negs)


provider(
    "secret.aws-bedrock-api-key",
    bedrock,
    lambda g: prose(g, "ABSK"),
    lambda g: prose(g, "bedrock-api-key-"),
    lambda g: put(g, "KEY", "ABSK" + mixed(g, 60, B64)),
    lambda g: put(g, "KEY", "ABSKQmVkcm9ja0FQSUtleS" + mixed(g, 20, B64)),
    lambda g: put(g, "AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key-" + mixed(g, 120, B64)),
    lambda g: placeholder(g, "AWS_BEARER_TOKEN_BEDROCK", "ABSKQmVkcm9ja0FQSUtleS", 80),
)
provider(
    "secret.1password-secret-key",
    op_secret_key,
    lambda g: put(g, "KEY", "A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX"),
    lambda g: put(g, "PART", f"A3-{r(g, OP_ALPHABET, 6)}-{r(g, OP_ALPHABET, 6)}"),
    lambda g: put(
        g,
        "KEY",
        f"A4-{r(g, OP_ALPHABET, 6)}-{r(g, OP_ALPHABET, 6)}-"
        + "-".join(r(g, OP_ALPHABET, 5) for _ in range(4)),
    ),
    lambda g: put(
        g,
        "KEY",
        f"a3-{r(g, LOWER, 6)}-{r(g, LOWER, 6)}-" + "-".join(r(g, LOWER, 5) for _ in range(4)),
    ),
    lambda g: f"Paper size A3-{g.randint(100, 999)} landscape",
    lambda g: put(
        g,
        "KEY",
        f"A3-{r(g, OP_ALPHABET, 6)}-{r(g, OP_ALPHABET, 6)}-"
        + "-".join(r(g, OP_ALPHABET, 4) for _ in range(4)),
    ),
)
provider(
    "secret.sourcegraph-access-token",
    sourcegraph,
    lambda g: prose(g, "sgp_"),
    lambda g: put(g, "T", f"sgp_{r(g, HEX, 39)}"),
    lambda g: put(g, "T", f"sgp_{r(g, HEX, 16)}_{r(g, HEX, 39)}"),
    lambda g: put(g, "T", f"sgp_{mixed(g, 40)}"),
    lambda g: placeholder(g, "SRC_ACCESS_TOKEN", "sgp_", 40),
    lambda g: f"def sgp_{r(g, LOWER, 8)}(x):",
)
provider(
    "secret.openshift-user-token",
    openshift,
    lambda g: prose(g, "sha256~"),
    lambda g: put(g, "IMAGE", f"quay.io/app@sha256:{r(g, HEX, 64)}"),
    lambda g: put(g, "T", "sha256~" + mixed(g, 40, URLSAFE)),
    lambda g: placeholder(g, "OPENSHIFT_TOKEN", "sha256~", 43),
    lambda g: f"digest = sha256~{r(g, HEX, 64)}",
)
provider(
    "secret.harness-access-token",
    harness,
    lambda g: prose(g, "pat."),
    lambda g: f"value = config.pat.{r(g, LOWER, 8)}.{r(g, LOWER, 6)}",
    lambda g: put(g, "T", f"pat.{mixed(g, 22, URLSAFE)}.{r(g, HEX, 20)}.{mixed(g, 20)}"),
    lambda g: put(g, "T", f"sat.{mixed(g, 10)}.{r(g, HEX, 24)}.{mixed(g, 20)}"),
    lambda g: placeholder(g, "HARNESS_PLATFORM_API_KEY", "pat.", 40),
)
provider(
    "secret.clickhouse-cloud-api-secret",
    clickhouse,
    lambda g: put(g, "SHA", "4b1d" + r(g, HEX, 38)),
    lambda g: put(g, "SHA", "4b1d" + r(g, HEX, 60)),
    lambda g: put(g, "T", "4b1d" + mixed(g, 30)),
    lambda g: prose(g, "4b1d"),
    lambda g: put(g, "UUID", f"4b1d{r(g, HEX, 4)}-{r(g, HEX, 4)}-{r(g, HEX, 4)}-{r(g, HEX, 12)}"),
)
provider(
    "secret.adobe-client-secret",
    adobe,
    lambda g: prose(g, "p8e-"),
    lambda g: put(g, "T", "p8e-" + mixed(g, 20)),
    lambda g: placeholder(g, "ADOBE_CLIENT_SECRET", "p8e-", 32),
    lambda g: put(g, "T", "p8e-" + mixed(g, 40)),
)
provider(
    "secret.gitlab-feature-flag-client-token",
    gitlab_ffct,
    lambda g: prose(g, "glffct-"),
    lambda g: put(g, "T", "glffct-" + mixed(g, 12)),
    lambda g: placeholder(g, "UNLEASH_INSTANCE_ID", "glffct-", 20),
    lambda g: put(g, "T", "glffct-" + mixed(g, 30)),
)
provider(
    "secret.gitlab-scim-oauth-token",
    gitlab_soat,
    lambda g: prose(g, "glsoat-"),
    lambda g: put(g, "T", "glsoat-" + mixed(g, 12)),
    lambda g: placeholder(g, "SCIM_TOKEN", "glsoat-", 20),
    lambda g: put(g, "T", "glsoat-" + mixed(g, 30)),
)
provider(
    "secret.gitlab-session-cookie",
    gitlab_session,
    lambda g: prose(g, "_gitlab_session"),
    lambda g: "session_cookie_name = '_gitlab_session'",
    lambda g: f"Cookie: _gitlab_session={r(g, HEX, 20)}",
    lambda g: "Cookie: _gitlab_session=" + "0" * 32,
    lambda g: "_gitlab_session=${GITLAB_SESSION}",
)
provider(
    "secret.grafana-api-key",
    grafana_legacy,
    lambda g: prose(g, "eyJrIjoi"),
    lambda g: put(g, "T", "eyJrIjoi" + mixed(g, 20, B64)),
    lambda g: put(g, "JWT_HEADER", "eyJhbGciOiJIUzI1NiJ9"),
    lambda g: placeholder(g, "GRAFANA_API_KEY", "eyJrIjoi", 60),
    lambda g: put(g, "T", "eyJrIjoi" + "A" * 60),
)
provider(
    "secret.settlemint-access-token",
    settlemint,
    lambda g: prose(g, "sm_pat_"),
    lambda g: put(g, "T", "sm_pat_" + mixed(g, 8)),
    lambda g: placeholder(g, "SETTLEMINT_ACCESS_TOKEN", "sm_aat_", 16),
    lambda g: put(g, "T", "sm_xat_" + mixed(g, 16)),
    lambda g: f"def sm_pat_{r(g, LOWER, 16)}(self):",
)
provider(
    "secret.octopus-deploy-api-key",
    octopus,
    lambda g: prose(g, "API-"),
    lambda g: put(g, "NAME", "API-GATEWAY-" + r(g, UPPER, 10)),
    lambda g: put(g, "T", "API-" + r(g, UPPER, 26)),
    lambda g: put(g, "T", "API-" + mixed(g, 20, UPPER + DIGITS)),
    lambda g: placeholder(g, "OCTOPUS_API_KEY", "API-", 26),
    lambda g: f"see API-{g.randint(100, 9999)} in the tracker",
)
provider(
    "secret.readme-api-key",
    readme,
    lambda g: prose(g, "rdme_"),
    lambda g: put(g, "T", "rdme_" + r(g, LOWER + DIGITS, 40)),
    lambda g: placeholder(g, "README_API_KEY", "rdme_", 70),
    lambda g: f"import rdme_{r(g, LOWER, 6)}",
)
provider(
    "secret.scalingo-api-token",
    scalingo,
    lambda g: prose(g, "tk-us-"),
    lambda g: put(g, "T", "tk-us-" + mixed(g, 20)),
    lambda g: placeholder(g, "SCALINGO_API_TOKEN", "tk-us-", 48),
    lambda g: "region: tk-us-east-1",
)
provider(
    "secret.maxmind-license-key",
    maxmind,
    lambda g: prose(g, "_mmk"),
    lambda g: put(g, "T", f"{mixed(g, 6)}_{mixed(g, 20)}_mmk"),
    lambda g: "def load_mmk(self): return self._mmk",
    lambda g: put(g, "MAXMIND_LICENSE_KEY", "XXXXXX_" + "X" * 29 + "_mmk"),
    lambda g: put(g, "MAXMIND_LICENSE_KEY", mixed(g, 16)),
)
provider(
    "secret.42-intra-client-secret",
    intra42,
    lambda g: prose(g, "s-s4t2ud-"),
    lambda g: put(g, "FT_CLIENT_ID", f"u-s4t2ud-{r(g, HEX, 64)}"),
    lambda g: put(g, "T", f"s-s4t2ud-{r(g, HEX, 40)}"),
    lambda g: placeholder(g, "FT_CLIENT_SECRET", "s-s4t2ud-", 64),
)
provider(
    "secret.defined-networking-api-key",
    dnkey,
    lambda g: prose(g, "dnkey-"),
    lambda g: put(g, "T", f"dnkey-{r(g, LOWER, 26)}"),
    lambda g: placeholder(g, "DN_API_KEY", "dnkey-", 70),
    lambda g: put(g, "T", f"dnkey-{r(g, LOWER, 10)}-{r(g, LOWER, 52)}"),
)
provider(
    "secret.authress-service-client-key",
    authress,
    lambda g: prose(g, ".acc_"),
    lambda g: f"total = self.acc_{r(g, LOWER, 6)}.sum()",
    lambda g: put(g, "T", f"sc_{r(g, LOWER, 8)}.{r(g, LOWER, 4)}.acc_{r(g, LOWER, 16)}.short"),
    lambda g: f"value = record.acc_{r(g, LOWER, 12)}.{r(g, LOWER, 30)}",
)
provider(
    "secret.yandex-cloud-api-key",
    yandex_api_key,
    lambda g: prose(g, "AQVN"),
    lambda g: put(g, "T", "AQVN" + mixed(g, 20, URLSAFE)),
    lambda g: placeholder(g, "YC_API_KEY", "AQVN", 36),
    lambda g: put(g, "T", "AQVN" + mixed(g, 60, URLSAFE)),
)
provider(
    "secret.yandex-cloud-iam-token",
    yandex_iam,
    lambda g: prose(g, "t1."),
    lambda g: f"elapsed = t1.{r(g, LOWER, 6)}() - t0.{r(g, LOWER, 6)}()",
    lambda g: put(g, "T", f"t1.{mixed(g, 20, URLSAFE)}.{mixed(g, 40, URLSAFE)}"),
    lambda g: f"x = t1.{r(g, LOWER, 12)}.{r(g, LOWER, 86)}",
)
provider(
    "secret.lob-api-key",
    lob,
    lambda g: put(g, "STRIPE", f"live_{r(g, HEX, 35)}"),
    lambda g: put(g, "LOB_API_KEY", f"test_{r(g, HEX, 20)}"),
    lambda g: "lob = Lob(api_key=os.environ['LOB_API_KEY'])",
    lambda g: put(g, "LOB_API_KEY", "test_" + "x" * 35),
    lambda g: put(g, "LOB_API_KEY", f"live_{mixed(g, 35)}"),
)
provider(
    "secret.gocardless-access-token",
    gocardless,
    lambda g: put(g, "TOKEN", f"live_{mixed(g, 40, URLSAFE)}"),
    lambda g: put(g, "GOCARDLESS_ACCESS_TOKEN", f"live_{mixed(g, 20)}"),
    lambda g: placeholder(g, "GOCARDLESS_ACCESS_TOKEN", "sandbox_", 40),
    lambda g: "gocardless_pro.Client(access_token=os.environ['GC_TOKEN'], environment='live')",
)
provider(
    "secret.facebook-app-access-token",
    facebook_app,
    lambda g: f"x = a || b | {r(g, HEX, 32)}",
    lambda g: f"| {g.randint(10**14, 10**15)} | {r(g, HEX, 32)} |",
    lambda g: put(g, "T", f"{g.randint(10**9, 10**10)}|{r(g, HEX, 32)}"),
    lambda g: put(g, "T", f"{g.randint(10**14, 10**15)}|{r(g, HEX, 20)}"),
    lambda g: put(g, "FB_APP_ID", str(g.randint(10**14, 10**15))),
)
provider(
    "secret.twitter-access-token",
    twitter_access,
    lambda g: put(g, "RANGE", f"{g.randint(10**15, 10**17)}-{g.randint(10**15, 10**17)}"),
    lambda g: put(g, "TWITTER_ACCESS_TOKEN", f"{g.randint(10**15, 10**17)}-{mixed(g, 10)}"),
    lambda g: put(g, "ORDER_ID", f"{g.randint(10**15, 10**17)}-{mixed(g, 40)}"),
    lambda g: "twitter_access_token = os.environ['TWITTER_ACCESS_TOKEN']",
    lambda g: put(g, "TWITTER_ACCESS_TOKEN", f"{g.randint(10**15, 10**17)}-" + "x" * 40),
)
provider(
    "secret.sidekiq-credentials",
    sidekiq,
    lambda g: 'source "https://gems.contribsys.com/" do',
    lambda g: "export BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${SIDEKIQ_CREDS}",
    lambda g: prose(g, "contribsys"),
    lambda g: f"BUNDLE_ENTERPRISE__CONTRIBSYS__COM: {r(g, HEX, 8)}",
    lambda g: "BUNDLE_GEMS__CONTRIBSYS__COM: xxxxxxxx:xxxxxxxx",
)
provider(
    "secret.freemius-secret-key",
    freemius,
    lambda g: "    'secret_key' => '',",
    lambda g: f"    'secret_key' => 'sk_{mixed(g, 10)}',",
    lambda g: f"    'public_key' => 'pk_{mixed(g, 29)}',",
    lambda g: "    'secret_key' => $_ENV['FS_SECRET_KEY'],",
    lambda g: "    'secret_key' => 'sk_" + "x" * 29 + "',",
)
provider(
    "secret.duffel-test-token",
    duffel_test,
    lambda g: prose(g, "duffel_test_"),
    lambda g: put(g, "T", "duffel_test_" + mixed(g, 20)),
    lambda g: placeholder(g, "DUFFEL_ACCESS_TOKEN", "duffel_test_", 43),
)
provider(
    "secret.easypost-test-api-key",
    easypost_test,
    lambda g: prose(g, "EZTK"),
    lambda g: put(g, "T", "EZTK" + mixed(g, 30)),
    lambda g: put(g, "T", "EZTK" + "X" * 54),
)
provider(
    "secret.flutterwave-encryption-key",
    flutterwave_enc,
    lambda g: prose(g, "FLWSECK_TEST"),
    lambda g: put(g, "T", "FLWSECK_TEST" + r(g, "ijklmnop", 12)),
    lambda g: put(g, "T", "FLWSECK_TEST" + r(g, HEX, 6)),
    lambda g: put(g, "FLW_ENCRYPTION_KEY", "FLWSECK_TESTxxxxxxxxxxxx"),
)
provider(
    "secret.discord-bot-token",
    discord,
    lambda g: put(
        g, "BOT_TOKEN", f"{mixed(g, 24, URLSAFE)}.{mixed(g, 6, URLSAFE)}.{mixed(g, 38, URLSAFE)}"
    ),
    lambda g: "client.run(os.environ['DISCORD_TOKEN'])",
    lambda g: put(
        g, "DISCORD_TOKEN", "MTAxxxxxxxxxxxxxxxxxxxxx.xxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    ),
    lambda g: f"client.login('{snowflake_b64(g)}.{mixed(g, 6)}');",
)
provider(
    "secret.telegram-bot-token",
    telegram,
    lambda g: put(g, "RATIO", f"{g.randint(10**8, 10**9)}:AB{mixed(g, 33, URLSAFE)}"),
    lambda g: put(g, "TOKEN", f"{g.randint(10**8, 10**9)}:AA{mixed(g, 20, URLSAFE)}"),
    lambda g: put(g, "TOKEN", f"{g.randint(10**8, 10**9)}:AA" + "x" * 33),
    lambda g: f"12:00:AA{mixed(g, 33, URLSAFE)}",
)
provider(
    "secret.ibm-cloud-api-key",
    ibm,
    lambda g: put(g, "API_KEY", mixed(g, 44, URLSAFE)),
    lambda g: "IBMCLOUD_API_KEY=${IBMCLOUD_API_KEY}",
    lambda g: put(g, "IBMCLOUD_API_KEY", mixed(g, 30, URLSAFE)),
    lambda g: put(g, "IC_API_KEY", "x" * 44),
)
provider(
    "secret.jwt-base64",
    jwt_b64,
    lambda g: put(g, "T", "ZXlK" + mixed(g, 80, B64)),
    lambda g: put(g, "T", b64(b"eyJ" + mixed(g, 60).encode())),
    lambda g: prose(g, "ZXlK"),
    lambda g: put(g, "DATA", b64(json.dumps({"user": mixed(g, 20)}).encode())),
)
