"""Per-rule true and false examples of the provider-token rules (issue 30), written from the
providers' documented token formats: each spec names the variables a provider's token is
usually kept in and the token's shape; the true examples put a fresh fake token of that shape
in the ways people commit one (env files, code, YAML, JSON, shell, Dockerfiles), the false
ones are its look-alikes: the variable read from the environment or settings, templates,
placeholders of the right shape, the documented prefix in prose, a token one character short
or with a misspelt prefix, digests, UUIDs, the variable's name as a string, code names.

Shape templates: `{A36}` 36 characters of [A-Za-z0-9] (holding each class), `{a25}`
[a-z0-9], `{U16}` [A-Z0-9], `{h32}` lower-case hex, `{H8}` upper-case hex, `{d10}` digits,
`{L34}` letters, `{l8}` lower-case letters, `{u43}` [A-Za-z0-9_-], `{b40}` [A-Za-z0-9+/],
`{z16}` base32 [A-Z2-7], `{c58}` bech32, `{uuid}`, and `{fn:NAME}` a shape computed by
`SPECIAL[NAME]` (base64 of JSON, a JWT). Standard library only.
"""

# ruff: noqa: E501  (whole-line templates of real-shaped lines)

from __future__ import annotations

import base64
import json
import random
import re
import string
from collections.abc import Callable

from corpora.secrets.provider_shapes import CONTEXTS as PROVIDER_CONTEXTS

UPPER, LOWER, DIGITS = string.ascii_uppercase, string.ascii_lowercase, string.digits
ALPHABETS = {
    "A": UPPER + LOWER + DIGITS,
    "a": LOWER + DIGITS,
    "U": UPPER + DIGITS,
    "h": "0123456789abcdef",
    "H": "0123456789ABCDEF",
    "d": DIGITS,
    "L": UPPER + LOWER,
    "l": LOWER,
    "u": UPPER + LOWER + DIGITS + "_-",
    "b": UPPER + LOWER + DIGITS + "+/",
    "z": UPPER + "234567",
    "c": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",  # bech32, upper case (age)
    "y": LOWER + "234567",  # base32, lower case (Azure DevOps)
}


def mixed(rng: random.Random, n: int, alphabet: str) -> str:
    """n characters of the alphabet holding each of its classes (upper, lower, digit)."""
    tests = [t for t in (str.isupper, str.islower, str.isdigit) if any(map(t, alphabet))]
    while True:
        s = "".join(rng.choice(alphabet) for _ in range(n))
        if n < 8 or all(any(t(c) for c in s) for t in tests):
            return s


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _json(obj: object) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def jwt(rng: random.Random) -> str:
    header = {"alg": rng.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    payload = {
        "sub": str(rng.randint(1000, 99999)),
        "iat": rng.randint(1_600_000_000, 1_760_000_000),
        "role": rng.choice(["admin", "service", "reader"]),
    }
    return f"{b64u(_json(header))}.{b64u(_json(payload))}.{mixed(rng, 43, ALPHABETS['u'])}"


def ops(rng: random.Random) -> str:
    body = {
        "signInAddress": "my.1password.com",
        "userAuth": {
            "method": "SRPg-4096",
            "alg": "PBES2g-HS256",
            "iterations": 650000,
            "salt": mixed(rng, 22, ALPHABETS["u"]),
        },
        "email": f"{mixed(rng, 13, ALPHABETS['a'])}@1passwordserviceaccounts.com",
        "srpX": mixed(rng, 64, ALPHABETS["h"]),
        "muk": {
            "alg": "A256GCM",
            "ext": True,
            "k": mixed(rng, 43, ALPHABETS["u"]),
            "key_ops": ["encrypt", "decrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": f"A3-{mixed(rng, 6, ALPHABETS['U'])}-{mixed(rng, 11, ALPHABETS['U'])}",
        "deviceUuid": mixed(rng, 26, ALPHABETS["a"]),
    }
    return "ops_" + b64u(_json(body))


def glc(rng: random.Random) -> str:
    body = {
        "o": str(rng.randint(100000, 999999)),
        "n": f"stack-{rng.randint(100000, 999999)}-hm-read-{mixed(rng, 6, ALPHABETS['a'])}",
        "k": mixed(rng, 24, ALPHABETS["A"]),
        "m": {"r": rng.choice(["us", "eu", "au"])},
    }
    return "glc_" + b64(_json(body)).rstrip("=")


def sntrys(rng: random.Random) -> str:
    body = {
        "iat": rng.randint(1_700_000_000, 1_760_000_000),
        "url": "https://sentry.io",
        "region_url": "https://us.sentry.io",
        "org": rng.choice(["acme", "orders", "shop"]),
    }
    return "sntrys_" + b64(_json(body)).rstrip("=") + "_" + mixed(rng, 43, ALPHABETS["b"])


def mapbox(rng: random.Random) -> str:
    body = {
        "u": rng.choice(["acme-maps", "fleetco", "geo-team"]),
        "a": mixed(rng, 25, ALPHABETS["a"]),
    }
    return f"sk.{b64u(_json(body))}.{mixed(rng, 22, ALPHABETS['u'])}"


def intercom(rng: random.Random) -> str:
    raw = (
        f"tok:{mixed(rng, 8, ALPHABETS['h'])}_{mixed(rng, 4, ALPHABETS['h'])}_"
        f"{mixed(rng, 4, ALPHABETS['h'])}_{mixed(rng, 4, ALPHABETS['h'])}_"
        f"{mixed(rng, 12, ALPHABETS['h'])}:1:0"
    )
    return b64(raw.encode())


def pypi(rng: random.Random) -> str:
    # a macaroon: a location record ("pypi.org"), an identifier, signatures
    raw = b"\x02\x01\x08pypi.org\x02\x25\x00\x02" + rng.randbytes(120)
    return "pypi-" + b64u(raw)


def ab64_key(rng: random.Random) -> str:  # a 64-byte key in base64 (Azure storage keys)
    return b64(rng.randbytes(64))


def ab32_key(rng: random.Random) -> str:  # a 32-byte key in base64 (Azure SAS policies)
    return b64(rng.randbytes(32))


def pem(rng: random.Random) -> str:
    body = b64(b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + rng.randbytes(700))
    return "\n".join(body[i : i + 64] for i in range(0, len(body), 64))


def sas_sig(rng: random.Random) -> str:
    return b64(rng.randbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def bcrypt(rng: random.Random) -> str:
    return f"$2b$12${mixed(rng, 53, ALPHABETS['A'] + './')}"


def twitter_bearer(rng: random.Random) -> str:
    return (
        "A" * 22
        + mixed(rng, 22, ALPHABETS["A"])
        + "%2F"
        + mixed(rng, 20, ALPHABETS["A"])
        + "%3D"
        + mixed(rng, 50, ALPHABETS["A"])
    )


def laravel(rng: random.Random) -> str:
    return "base64:" + b64(rng.randbytes(32))


def aws_session(rng: random.Random) -> str:
    return "IQoJb3JpZ2luX2Vj" + mixed(rng, 300, ALPHABETS["b"])


def adyen(rng: random.Random) -> str:
    return (
        f"AQE{mixed(rng, 90, ALPHABETS['b'])}-{mixed(rng, 43, ALPHABETS['b'])}=-"
        f"{mixed(rng, 16, ALPHABETS['A'] + '!#*?.,;')}"
    )


def flyv1(rng: random.Random) -> str:
    return (
        "FlyV1 fm2_" + mixed(rng, 300, ALPHABETS["b"]) + ",fm2_" + mixed(rng, 120, ALPHABETS["b"])
    )


def heroku(rng: random.Random) -> str:
    return "HRKU-AA" + mixed(rng, 58, ALPHABETS["u"])


def basic(rng: random.Random) -> str:
    return b64(f"{rng.choice(['deploy', 'ci', 'admin'])}:{mixed(rng, 16, ALPHABETS['A'])}".encode())


SPECIAL: dict[str, Callable[[random.Random], str]] = {
    "jwt": jwt,
    "ops": ops,
    "glc": glc,
    "sntrys": sntrys,
    "mapbox": mapbox,
    "intercom": intercom,
    "pypi": pypi,
    "ab64": ab64_key,
    "ab32": ab32_key,
    "pem": pem,
    "sas": sas_sig,
    "bcrypt": bcrypt,
    "twitter": twitter_bearer,
    "laravel": laravel,
    "aws_session": aws_session,
    "basic": basic,
    "adyen": adyen,
    "flyv1": flyv1,
    "heroku": heroku,
}

FIELD = re.compile(r"\{(?:fn:(\w+)|uuid|([AaUhHdLlubzcy])(\d+))\}")


def fill(rng: random.Random, template: str) -> str:
    def one(m: re.Match[str]) -> str:
        if m[1]:
            return SPECIAL[m[1]](rng)
        if m[2] is None:
            h = mixed(rng, 32, ALPHABETS["h"])
            return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"
        return mixed(rng, int(m[3]), ALPHABETS[m[2]])

    # `{{` and `}}` stand for literal braces (code and JSON around a field)
    return FIELD.sub(one, template).replace("{{", "{").replace("}}", "}")


# rule (without `secret.`) -> (variable names, token shape) or (None, whole-line templates);
# an optional third item lists look-alike lines of the rule's own (templates too)
Spec = tuple
SPECS: dict[str, Spec] = {
    "1password-service-account-token": ("OP_SERVICE_ACCOUNT_TOKEN", "{fn:ops}"),
    "age-secret-key": ("AGE_SECRET_KEY SOPS_AGE_KEY", "AGE-SECRET-KEY-1{c58}"),
    "airtable-personal-access-token": ("AIRTABLE_API_KEY AIRTABLE_TOKEN", "pat{A14}.{h64}"),
    "algolia-admin-api-key": (
        "ALGOLIA_ADMIN_KEY ALGOLIA_ADMIN_API_KEY ALGOLIA_WRITE_API_KEY",
        "{h32}",
    ),
    "alibaba-access-key-id": ("ALIBABA_CLOUD_ACCESS_KEY_ID ALICLOUD_ACCESS_KEY", "LTAI5t{A18}"),
    "alibaba-access-key-secret": ("ALIBABA_CLOUD_ACCESS_KEY_SECRET ALICLOUD_SECRET_KEY", "{A30}"),
    "anthropic-admin-key": ("ANTHROPIC_ADMIN_KEY", "sk-ant-admin01-{u93}AA"),
    "anthropic-api-key": ("ANTHROPIC_API_KEY", "sk-ant-api03-{u93}AA"),
    "asana-personal-access-token": ("ASANA_ACCESS_TOKEN ASANA_PAT", "2/{d16}/{d16}:{h32}"),
    "atlassian-api-token": (
        "JIRA_API_TOKEN CONFLUENCE_API_TOKEN ATLASSIAN_TOKEN",
        "ATATT3xFfGF0{u170}={H8}",
    ),
    "auth0-client-secret": ("AUTH0_CLIENT_SECRET", "{u64}"),
    "aws-access-key-id": ("AWS_ACCESS_KEY_ID aws_access_key_id", "AKIA{z16}"),
    "aws-mws-auth-token": ("MWS_AUTH_TOKEN", "amzn.mws.{uuid}"),
    "aws-secret-access-key": ("AWS_SECRET_ACCESS_KEY aws_secret_access_key", "{b40}"),
    "aws-session-token": ("AWS_SESSION_TOKEN aws_session_token", "{fn:aws_session}"),
    "azure-ad-client-secret": ("AZURE_CLIENT_SECRET", "{u3}8Q~{u34}"),
    "azure-devops-pat": ("AZURE_DEVOPS_EXT_PAT AZURE_DEVOPS_TOKEN", "{y52}"),
    "bitbucket-app-password": ("BITBUCKET_APP_PASSWORD", "ATBB{A24}{H8}"),
    "braintree-access-token": ("BRAINTREE_ACCESS_TOKEN", "access_token$production${a16}${h32}"),
    "brevo-api-key": ("BREVO_API_KEY SENDINBLUE_API_KEY", "xkeysib-{h64}-{A16}"),
    "buildkite-api-token": ("BUILDKITE_API_TOKEN", "bkua_{h40}"),
    "circleci-token": ("CIRCLECI_TOKEN CIRCLE_TOKEN", "CCIPAT_{A22}_{h40}"),
    "clojars-deploy-token": ("CLOJARS_PASSWORD CLOJARS_TOKEN", "CLOJARS_{a60}"),
    "cloudflare-api-token": ("CLOUDFLARE_API_TOKEN CF_API_TOKEN", "{u40}"),
    "cloudflare-global-api-key": ("CLOUDFLARE_API_KEY CF_API_KEY", "{h37}"),
    "cloudflare-origin-ca-key": ("CLOUDFLARE_ORIGIN_CA_KEY", "v1.0-{h24}-{h146}"),
    "cohere-api-key": ("COHERE_API_KEY CO_API_KEY", "{A40}"),
    "contentful-personal-access-token": ("CONTENTFUL_MANAGEMENT_TOKEN", "CFPAT-{u43}"),
    "crates-io-token": ("CARGO_REGISTRY_TOKEN", "cio{A32}"),
    "databricks-api-token": ("DATABRICKS_TOKEN", "dapi{h32}"),
    "datadog-api-key": ("DD_API_KEY DATADOG_API_KEY", "{h32}"),
    "datadog-app-key": ("DD_APP_KEY DATADOG_APP_KEY", "{h40}"),
    "deepseek-api-key": ("DEEPSEEK_API_KEY", "sk-{h32}"),
    "digitalocean-oauth-token": ("DIGITALOCEAN_TOKEN DO_OAUTH_TOKEN", "doo_v1_{h64}"),
    "digitalocean-pat": ("DIGITALOCEAN_ACCESS_TOKEN", "dop_v1_{h64}"),
    "docker-hub-pat": ("DOCKERHUB_TOKEN DOCKER_PASSWORD", "dckr_pat_{u27}"),
    "doppler-token": ("DOPPLER_TOKEN", "dp.st.prd.{A43}"),
    "dropbox-long-lived-token": ("DROPBOX_TOKEN DROPBOX_ACCESS_TOKEN", "{A11}AAAAAAAAAA{u43}"),
    "dropbox-short-lived-token": ("DROPBOX_ACCESS_TOKEN", "sl.{u140}"),
    "duffel-live-token": ("DUFFEL_ACCESS_TOKEN", "duffel_live_{u43}"),
    "dynatrace-api-token": ("DT_API_TOKEN DYNATRACE_API_TOKEN", "dt0c01.{U24}.{U64}"),
    "easypost-production-api-key": ("EASYPOST_API_KEY", "EZAK{A54}"),
    "facebook-access-token": ("FACEBOOK_ACCESS_TOKEN FB_PAGE_TOKEN", "EAAB{A180}"),
    "figma-personal-access-token": ("FIGMA_TOKEN", "figd_{u40}"),
    "flutterwave-secret-key": ("FLW_SECRET_KEY", "FLWSECK-{h32}-X"),
    "flutterwave-test-secret-key": ("FLW_SECRET_KEY", "FLWSECK_TEST-{h32}-X"),
    "flyio-access-token": ("FLY_API_TOKEN", "{fn:flyv1}"),
    "frameio-developer-token": ("FRAMEIO_TOKEN", "fio-u-{u64}"),
    "gcp-api-key": ("GOOGLE_API_KEY GOOGLE_MAPS_API_KEY", "AIza{u35}"),
    "gcp-oauth-client-secret": ("GOOGLE_CLIENT_SECRET client_secret", "GOCSPX-{u28}"),
    "github-fine-grained-pat": ("GITHUB_TOKEN GH_TOKEN", "github_pat_11{A20}_{A59}"),
    "github-oauth-token": ("GITHUB_OAUTH_TOKEN GITHUB_TOKEN", "gho_{A36}"),
    "github-pat": ("GITHUB_TOKEN GH_TOKEN GITHUB_PAT", "ghp_{A36}"),
    "github-refresh-token": ("GITHUB_REFRESH_TOKEN", "ghr_{A76}"),
    "github-server-to-server-token": ("GITHUB_APP_TOKEN GITHUB_TOKEN", "ghs_{A36}"),
    "github-user-to-server-token": ("GITHUB_USER_TOKEN", "ghu_{A36}"),
    "gitlab-agent-token": ("AGENT_TOKEN GITLAB_AGENT_TOKEN", "glagent-{u50}"),
    "gitlab-ci-build-token": ("CI_JOB_TOKEN", "glcbt-{h2}_{u20}"),
    "gitlab-deploy-token": ("CI_DEPLOY_PASSWORD GITLAB_DEPLOY_TOKEN", "gldt-{u20}"),
    "gitlab-feed-token": ("GITLAB_FEED_TOKEN", "glft-{u20}"),
    "gitlab-incoming-mail-token": ("INCOMING_EMAIL_TOKEN", "glimt-{a25}"),
    "gitlab-oauth-app-secret": ("GITLAB_OAUTH_SECRET", "gloas-{h64}"),
    "gitlab-pat": ("GITLAB_TOKEN GITLAB_PRIVATE_TOKEN", "glpat-{u20}"),
    "gitlab-pipeline-trigger-token": ("TRIGGER_TOKEN GITLAB_TRIGGER_TOKEN", "glptt-{h40}"),
    "gitlab-runner-token": ("RUNNER_TOKEN CI_SERVER_TOKEN", "glrt-{u20}"),
    "grafana-cloud-api-token": ("GRAFANA_CLOUD_TOKEN", "{fn:glc}"),
    "grafana-service-account-token": ("GRAFANA_TOKEN GRAFANA_SA_TOKEN", "glsa_{A32}_{h8}"),
    "groq-api-key": ("GROQ_API_KEY", "gsk_{A52}"),
    "hashicorp-vault-batch-token": ("VAULT_TOKEN", "hvb.AAAAAQ{u100}"),
    "hashicorp-vault-token": ("VAULT_TOKEN", "hvs.{u24}"),
    "heroku-api-key": ("HEROKU_API_KEY", "{fn:heroku}"),
    "honeycomb-api-key": ("HONEYCOMB_API_KEY HONEYCOMB_WRITEKEY", "{h32}"),
    "honeycomb-ingest-key": ("HONEYCOMB_API_KEY", "hcaik_{a58}"),
    "hubspot-private-app-token": ("HUBSPOT_ACCESS_TOKEN", "pat-na1-{uuid}"),
    "huggingface-org-token": ("HF_ORG_TOKEN", "api_org_{L34}"),
    "huggingface-token": ("HF_TOKEN HUGGING_FACE_HUB_TOKEN", "hf_{L34}"),
    "infracost-api-key": ("INFRACOST_API_KEY", "ico-{A32}"),
    "intercom-access-token": ("INTERCOM_ACCESS_TOKEN", "{fn:intercom}"),
    "jfrog-api-key": ("ARTIFACTORY_API_KEY", "AKCp8{A68}"),
    "jfrog-reference-token": ("JFROG_ACCESS_TOKEN", "cmVmdGtuOjAxOj{A50}"),
    "langsmith-api-key": ("LANGSMITH_API_KEY LANGCHAIN_API_KEY", "lsv2_pt_{h32}_{h10}"),
    "launchdarkly-access-token": ("LAUNCHDARKLY_ACCESS_TOKEN LD_API_KEY", "api-{uuid}"),
    "launchdarkly-sdk-key": ("LAUNCHDARKLY_SDK_KEY LD_SDK_KEY", "sdk-{uuid}"),
    "linear-api-key": ("LINEAR_API_KEY", "lin_api_{A40}"),
    "linode-pat": ("LINODE_TOKEN LINODE_API_TOKEN", "{h64}"),
    "mailchimp-api-key": ("MAILCHIMP_API_KEY", "{h32}-us{d2}"),
    "mailgun-api-key": ("MAILGUN_API_KEY", "{h32}-{h8}-{h8}"),
    "mailgun-private-key": ("MAILGUN_API_KEY MAILGUN_PRIVATE_KEY", "key-{h32}"),
    "mapbox-secret-token": ("MAPBOX_SECRET_TOKEN MAPBOX_DOWNLOADS_TOKEN", "{fn:mapbox}"),
    "mistral-api-key": ("MISTRAL_API_KEY", "{A32}"),
    "netlify-access-token": ("NETLIFY_AUTH_TOKEN", "nfp_{A36}"),
    "newrelic-insights-key": ("NEW_RELIC_INSERT_KEY", "NRII-{u32}"),
    "newrelic-license-key": ("NEW_RELIC_LICENSE_KEY", "{h36}NRAL"),
    "newrelic-user-api-key": ("NEW_RELIC_API_KEY", "NRAK-{U27}"),
    "notion-integration-token": ("NOTION_TOKEN NOTION_API_KEY", "ntn_{d11}{A35}"),
    "notion-legacy-integration-token": ("NOTION_API_KEY", "secret_{A43}"),
    "npm-access-token": ("NPM_TOKEN NODE_AUTH_TOKEN", "npm_{A36}"),
    "okta-api-token": ("OKTA_API_TOKEN OKTA_TOKEN", "00{u40}"),
    "openai-admin-key": ("OPENAI_ADMIN_KEY", "sk-admin-{u58}T3BlbkFJ{u58}"),
    "openai-legacy-key": ("OPENAI_API_KEY", "sk-{A20}T3BlbkFJ{A20}"),
    "openai-project-key": ("OPENAI_API_KEY", "sk-proj-{u74}T3BlbkFJ{u74}"),
    "openai-service-account-key": ("OPENAI_API_KEY", "sk-svcacct-{u74}T3BlbkFJ{u74}"),
    "pagerduty-api-key": ("PAGERDUTY_API_KEY PAGERDUTY_TOKEN", "{u20}"),
    "pagerduty-integration-key": ("PAGERDUTY_INTEGRATION_KEY PAGERDUTY_ROUTING_KEY", "{h32}"),
    "paypal-client-secret": ("PAYPAL_CLIENT_SECRET PAYPAL_SECRET", "E{u79}"),
    "perplexity-api-key": ("PERPLEXITY_API_KEY PPLX_API_KEY", "pplx-{A48}"),
    "pinecone-api-key": ("PINECONE_API_KEY", "pcsk_{A6}_{A63}"),
    "plaid-access-token": ("PLAID_ACCESS_TOKEN", "access-production-{uuid}"),
    "plaid-secret": ("PLAID_SECRET", "{h30}"),
    "planetscale-api-token": ("PLANETSCALE_SERVICE_TOKEN", "pscale_tkn_{u43}"),
    "planetscale-password": ("PLANETSCALE_PASSWORD DATABASE_PASSWORD", "pscale_pw_{u43}"),
    "plivo-auth-token": ("PLIVO_AUTH_TOKEN", "{A40}"),
    "postman-api-key": ("POSTMAN_API_KEY", "PMAK-{h24}-{h34}"),
    "postmark-api-token": ("POSTMARK_SERVER_TOKEN POSTMARK_API_TOKEN", "{uuid}"),
    "prefect-api-key": ("PREFECT_API_KEY", "pnu_{A36}"),
    "pulumi-access-token": ("PULUMI_ACCESS_TOKEN", "pul-{h40}"),
    "pypi-upload-token": ("TWINE_PASSWORD PYPI_API_TOKEN", "{fn:pypi}"),
    "razorpay-key-secret": ("RAZORPAY_KEY_SECRET RAZORPAY_SECRET", "{A24}"),
    "replicate-api-token": ("REPLICATE_API_TOKEN", "r8_{A37}"),
    "rubygems-api-key": ("GEM_HOST_API_KEY RUBYGEMS_API_KEY", "rubygems_{h48}"),
    "scaleway-secret-key": ("SCW_SECRET_KEY SCALEWAY_SECRET_KEY", "{uuid}"),
    "sendgrid-api-key": ("SENDGRID_API_KEY", "SG.{u22}.{u43}"),
    "sentry-org-auth-token": ("SENTRY_AUTH_TOKEN", "{fn:sntrys}"),
    "sentry-user-auth-token": ("SENTRY_AUTH_TOKEN", "sntryu_{h64}"),
    "shippo-live-token": ("SHIPPO_API_KEY SHIPPO_TOKEN", "shippo_live_{h40}"),
    "shopify-access-token": ("SHOPIFY_ACCESS_TOKEN", "shpat_{h32}"),
    "shopify-custom-app-token": ("SHOPIFY_ACCESS_TOKEN", "shpca_{h32}"),
    "shopify-private-app-token": ("SHOPIFY_PASSWORD", "shppa_{h32}"),
    "shopify-shared-secret": ("SHOPIFY_API_SECRET", "shpss_{h32}"),
    "slack-app-token": ("SLACK_APP_TOKEN", "xapp-1-A{U10}-{d13}-{h64}"),
    "slack-bot-token": ("SLACK_BOT_TOKEN", "xoxb-{d12}-{d13}-{A24}"),
    "slack-config-refresh-token": ("SLACK_CONFIG_REFRESH_TOKEN", "xoxe-1-{A146}"),
    "slack-config-token": ("SLACK_CONFIG_TOKEN", "xoxe.xoxp-1-{A166}"),
    "slack-legacy-token": ("SLACK_LEGACY_TOKEN", "xoxs-{d11}-{d11}-{d12}-{h64}"),
    "slack-user-token": ("SLACK_USER_TOKEN", "xoxp-{d12}-{d12}-{d13}-{h32}"),
    "snyk-api-token": ("SNYK_TOKEN", "{uuid}"),
    "sonarqube-token": ("SONAR_TOKEN", "sqp_{h40}"),
    "square-access-token": ("SQUARE_ACCESS_TOKEN", "EAAA{u60}"),
    "square-oauth-secret": ("SQUARE_APP_SECRET", "sq0csp-{u43}"),
    "stripe-restricted-key": ("STRIPE_RESTRICTED_KEY", "rk_live_{A99}"),
    "stripe-secret-key": ("STRIPE_SECRET_KEY", "sk_live_{A99}"),
    "stripe-test-secret-key": ("STRIPE_SECRET_KEY", "sk_test_{A99}"),
    "stripe-webhook-secret": ("STRIPE_WEBHOOK_SECRET", "whsec_{A32}"),
    "sumologic-access-key": ("SUMO_ACCESS_KEY SUMOLOGIC_ACCESS_KEY", "{A64}"),
    "supabase-access-token": ("SUPABASE_ACCESS_TOKEN", "sbp_{h40}"),
    "telnyx-api-key": ("TELNYX_API_KEY", "KEY0{H31}_{u22}"),
    "tencent-cloud-secret-id": ("TENCENTCLOUD_SECRET_ID", "AKID{A32}"),
    "terraform-cloud-token": ("TF_TOKEN_app_terraform_io TFE_TOKEN", "{A14}.atlasv1.{u67}"),
    "twilio-api-key-secret": ("TWILIO_API_SECRET", "{A32}"),
    "twilio-api-key-sid": ("TWILIO_API_KEY TWILIO_API_KEY_SID", "SK{h32}"),
    "twilio-auth-token": ("TWILIO_AUTH_TOKEN", "{h32}"),
    "twitch-oauth-token": ("TWITCH_OAUTH_TOKEN TWITCH_TOKEN", "oauth:{a30}"),
    "twitter-bearer-token": ("TWITTER_BEARER_TOKEN", "{fn:twitter}"),
    "typeform-personal-access-token": ("TYPEFORM_TOKEN", "tfp_{u59}"),
    "vercel-access-token": ("VERCEL_TOKEN", "{A24}"),
    "vonage-api-secret": ("VONAGE_API_SECRET NEXMO_API_SECRET", "{A16}"),
    "xai-api-key": ("XAI_API_KEY", "xai-{A80}"),
    "zendesk-api-token": ("ZENDESK_API_TOKEN", "{A40}"),
    "adyen-api-key": ("ADYEN_API_KEY", "{fn:adyen}"),
    "azure-storage-account-key": ("AZURE_STORAGE_KEY AZURE_STORAGE_ACCOUNT_KEY", "{fn:ab64}"),
    "gcp-service-account-key": (
        None,
        [
            '{"type": "service_account", "project_id": "orders-prod-{d6}", "private_key_id": "{h40}", '
            '"private_key": "-----BEGIN PRIVATE KEY-----\\n{b64}\\n{b64}\\n{b60}==\\n-----END PRIVATE '
            'KEY-----\\n", "client_email": "ci@orders-prod.iam.gserviceaccount.com"}',
        ],
    ),
    "jwt": (
        None,
        [
            "Authorization: Bearer {fn:jwt}",
            'SESSION_TOKEN = "{fn:jwt}"',
            'headers = {{"Authorization": f"Bearer {fn:jwt}"}}',
            "export API_JWT={fn:jwt}",
            'curl -H "Authorization: Bearer {fn:jwt}" https://api.acme.io/v1/orders',
            '  "access_token": "{fn:jwt}",',
            "const token = '{fn:jwt}';",
            "  token: {fn:jwt}",
        ],
    ),
    "sentry-dsn": (
        None,
        [
            'sentry_sdk.init(dsn="https://{h32}@o{d7}.ingest.sentry.io/{d7}")',
            "SENTRY_DSN=https://{h32}@o{d6}.ingest.us.sentry.io/{d7}",
            "  dsn: https://{h32}@o{d7}.ingest.sentry.io/{d6}",
            'Sentry.init({{ dsn: "https://{h32}@o{d6}.ingest.sentry.io/{d7}" }});',
            "export SENTRY_DSN='https://{h32}:{h32}@o{d7}.ingest.sentry.io/{d7}'",
            '    "dsn": "https://{h32}@o{d7}.ingest.de.sentry.io/{d7}",',
        ],
    ),
    "discord-webhook-url": (
        None,
        [
            "DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/{d19}/{u68}",
            'WEBHOOK = "https://discordapp.com/api/webhooks/{d18}/{u68}"',
            "  webhook: https://ptb.discord.com/api/v10/webhooks/{d19}/{u68}",
            "curl -X POST -d @msg.json https://discord.com/api/webhooks/{d19}/{u68}",
        ],
    ),
    "slack-webhook-url": (
        None,
        [
            "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{U10}/B{U10}/{A24}",
            'webhook = "https://hooks.slack.com/services/T{U8}/B{U11}/{A24}"',
            "  slack_url: https://hooks.slack.com/services/T{U9}/B{U9}/{A24}",
            "curl -X POST --data @payload.json https://hooks.slack.com/services/T{U10}/B{U10}/{A24}",
        ],
    ),
    "slack-workflow-webhook-url": (
        None,
        [
            "SLACK_WORKFLOW_URL=https://hooks.slack.com/workflows/T{U10}/A{U10}/{d18}/{A24}",
            'trigger = "https://hooks.slack.com/triggers/T{U10}/{d13}/{h32}"',
            "  url: https://hooks.slack.com/workflows/T{U9}/A{U11}/{d17}/{A24}",
        ],
    ),
    "microsoft-teams-webhook-url": (
        None,
        [
            "TEAMS_WEBHOOK_URL=https://acme.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/"
            "{h32}/{uuid}",
            'url = "https://outlook.office.com/webhook/{uuid}@{uuid}/IncomingWebhook/{h32}/{uuid}"',
            "  teams: https://contoso.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/"
            "{h32}/{uuid}/{u43}",
        ],
    ),
    "mattermost-webhook-url": (
        None,
        [
            "MATTERMOST_WEBHOOK_URL=https://chat.acme.io/hooks/{a26}",
            'mattermost_url = "https://mattermost.example.org/hooks/{a26}"',
            "  mattermost: https://mm.acme.dev/hooks/{a26}",
        ],
    ),
    "newrelic-browser-key": (
        None,
        [
            ';NREUM.loader_config={{accountID:"{d7}",trustKey:"{d7}",agentID:"{d10}",'
            'licenseKey:"NRJS-{h19}",applicationID:"{d10}"}};',
            "NEW_RELIC_BROWSER_KEY=NRJS-{h19}",
            '  "licenseKey": "NRJS-{h19}",',
        ],
    ),
    "nuget-api-key": (
        None,
        [
            "dotnet nuget push pkg.nupkg --api-key oy2{a43} --source https://api.nuget.org/v3/index.json",
            "NUGET_API_KEY=oy2{a43}",
            "nuget setapikey oy2{a43} -source https://www.nuget.org",
            '  <add key="NuGetApiKey" value="oy2{a43}" />',
        ],
    ),
    "azure-sas-token": (
        None,
        [
            'BLOB_SAS_URL="https://acmeassets.blob.core.windows.net/exports/r.csv?sp=r&st=2024-05-01T08:00:00Z'
            '&se=2024-05-02T08:00:00Z&spr=https&sv=2022-11-02&sr=b&sig={fn:sas}"',
            "AZURE_STORAGE_SAS_TOKEN=sv=2021-06-08&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2025-01-01T00:00:00Z"
            "&st=2024-01-01T00:00:00Z&spr=https&sig={fn:sas}",
            '  sas_url: "https://logs{a6}.blob.core.windows.net/raw?sv=2020-08-04&si=read&sr=c&sig={fn:sas}"',
            'container_url = "https://data.blob.core.windows.net/in?sp=racwdl&st=2024-02-01T00:00:00Z'
            '&se=2024-09-01T00:00:00Z&sv=2022-11-02&sr=c&sig={fn:sas}"',
        ],
    ),
    "azure-shared-access-key": (
        None,
        [
            'SERVICEBUS_CONN="Endpoint=sb://acme-{l6}.servicebus.windows.net/;SharedAccessKeyName='
            'RootManageSharedAccessKey;SharedAccessKey={fn:ab32}"',
            "EVENTHUB_CONNECTION=Endpoint=sb://telemetry.servicebus.windows.net/;SharedAccessKeyName=send;"
            "SharedAccessKey={fn:ab32};EntityPath=events",
            '  "IoTHub": "HostName=acme.azure-devices.net;SharedAccessKeyName=iothubowner;'
            'SharedAccessKey={fn:ab32}",',
        ],
    ),
    "cli-password": (
        None,
        [
            "curl -u deploy:{A16} https://api.acme.io/v1/status",
            "mysql -u root -p{A14} -h db.internal orders",
            "sshpass -p '{A14}' ssh deploy@10.0.4.12",
            "curl --user admin:{A18} -X POST https://ci.acme.io/job/build",
            "mysqldump -uroot --password={A16} orders > dump.sql",
            "sshpass -p {A12} scp dump.sql backup@10.1.2.3:/srv",
            "mariadb --user=app --password='{A15}' shop",
        ],
    ),
    "connection-string": (
        None,
        [
            "DATABASE_URL=postgresql://app_user:{A16}@db.internal.acme.io:5432/orders",
            'MONGO_URI = "mongodb+srv://svc:{A18}@cluster0.{a5}.mongodb.net/prod"',
            "  url: mysql://shop:{A14}@10.0.3.7:3306/shop",
            "REDIS_URL=rediss://default:{A24}@cache.acme.io:6380/0",
            'broker_url = "amqp://worker:{A16}@rabbit.internal:5672/jobs"',
            "SQLALCHEMY_DATABASE_URI='mssql+pyodbc://sa:{A15}@sql01/erp?driver=ODBC+Driver+18'",
        ],
    ),
    "url-basic-auth": (
        None,
        [
            "PIP_INDEX_URL=https://deploy:{A16}@pypi.internal.acme.io/simple",
            "git clone https://ci-bot:{A20}@git.acme.io/platform/api.git",
            '  registry: "https://builder:{A18}@registry.acme.io/v2/"',
            "ftp://backup:{A14}@files.acme.io/nightly/",
            'proxy = "http://proxyuser:{A12}@proxy.corp.acme.io:3128"',
        ],
    ),
    "http-auth-header": (
        None,
        [
            'requests.get(url, headers={{"Authorization": "Bearer {A32}"}})',
            "curl -H 'X-Api-Key: {A32}' https://api.acme.io/v2/items",
            "Authorization: Basic {fn:basic}",
            "  Authorization: Token {h40}",
            'fetch(url, {{ headers: {{ "x-api-key": "{A36}" }} }})',
            'client.headers["Authorization"] = "Bearer {u40}"',
        ],
    ),
    "private-key": (
        None,
        [
            "-----BEGIN RSA PRIVATE KEY-----\n{fn:pem}\n-----END RSA PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\n{fn:pem}\n-----END PRIVATE KEY-----",
            "-----BEGIN OPENSSH PRIVATE KEY-----\n{fn:pem}\n-----END OPENSSH PRIVATE KEY-----",
            "-----BEGIN EC PRIVATE KEY-----\n{fn:pem}\n-----END EC PRIVATE KEY-----",
            "deploy_key: |\n  -----BEGIN OPENSSH PRIVATE KEY-----\n  {b64}\n  {b64}\n  {b64}\n"
            "  -----END OPENSSH PRIVATE KEY-----",
        ],
    ),
    "password-hash": (
        None,
        [
            "admin:{fn:bcrypt}",
            "deploy:$6$rounds=5000${A16}${A86}:19000:0:99999:7:::",
            "backup:$apr1${A8}${A22}",
            "root:$5${A16}${A43}:19000:0:99999:7:::",
        ],
    ),
    "password-hash-sql": (
        None,
        [
            "INSERT INTO users (email, password) VALUES ('ops@acme.io', '{fn:bcrypt}');",
            "UPDATE users SET password_hash = '{fn:bcrypt}' WHERE id = 1;",
            "INSERT INTO accounts VALUES (1, 'admin', '{fn:bcrypt}', NOW());",
        ],
    ),
    "django-secret-key": (
        None,
        [
            "SECRET_KEY = 'django-insecure-{a50}'",
            'SECRET_KEY = "{A50}"',
            "SECRET_KEY: str = '{A50}'",
        ],
    ),
    "laravel-app-key": (None, ["APP_KEY={fn:laravel}", 'APP_KEY="{fn:laravel}"']),
    "rails-secret-key-base": (
        None,
        [
            "SECRET_KEY_BASE={h128}",
            "  secret_key_base: {h128}",
            'config.secret_key_base = "{h128}"',
        ],
    ),
    "wordpress-salt": (
        None,
        [
            "define( 'AUTH_KEY', '{A64}' );",
            "define('SECURE_AUTH_SALT', '{A64}');",
            "define( 'NONCE_KEY',        '{A64}' );",
        ],
    ),
    "php-array-password": (
        None,
        [
            "    'password' => '{A16}',",
            "$config['db']['password'] = '{A14}';",
            "        'db_password' => \"{A24}\",",
        ],
    ),
    "php-config-variable": (
        None,
        [
            "$db_password = '{A16}';",
            '$smtp_pass = "{A14}";',
            "$mail_pass = '{A24}';",
        ],
    ),
    "php-define-password": (
        None,
        [
            "define('DB_PASSWORD', '{A16}');",
            'define("SMTP_PASS", "{A14}");',
            "define( 'API_SECRET', '{A24}' );",
        ],
    ),
}

# the ways a token is written down (provider_shapes.py's), and more of them
CONTEXTS = [
    *PROVIDER_CONTEXTS,
    '{low} = "{t}"',
    '- name: {n}\n  value: "{t}"',
    '{{"env": {{"{n}": "{t}"}}}}',
    '$env:{n} = "{t}"',
    "env:\n  {n}: {t}",
    'config = {{"{low}": "{t}"}}',
    "set {n}={t}",
    '<add key="{n}" value="{t}" />',
]

# look-alikes written around each rule's variable and shape; `{n}` the variable, `{p}` the
# shape's literal prefix, `{x}` a placeholder body of the token's length, `{s}` the token
# cut to a third, `{q}` the token with a misspelt prefix, `{low}` the variable in lower case
LOOKALIKES = [
    '{n} = os.environ["{n}"]',
    "{n}: ${{{{ secrets.{n} }}}}",
    "{n}={p}{x}",
    'export {n}="<{low}>"',
    "{n} = settings.{n}",
    "# Set {n} in your shell before running the worker; see docs/setup.md",
    'assert not looks_like_token("{s}")',
    '{n}_ENV_VAR = "{n}"',
    'request_id = "{uuid}"',
    "image: registry.acme.io/api@sha256:{h64}",
    "{low} = self.{low}_provider.ApiKey",
    '{n}: "${{{n}}}"',
]
PREFIXED = ['fixture_ref = "{q}"', "# {p} is the prefix of these tokens"]


def _prefix(shape: str) -> str:
    return shape.split("{", 1)[0]


def true_examples(rule: str, rng: random.Random, n: int = 10) -> list[str]:
    names, shape = SPECS[rule][0], SPECS[rule][1]
    offset = rng.randrange(len(CONTEXTS))
    out = []
    for i in range(n):
        if names is None:
            out.append(fill(rng, shape[i % len(shape)]))
        else:
            name = names.split()[i % len(names.split())]
            # ten of the contexts, starting where the rule's draw says: every context is
            # exercised across the rules
            context = CONTEXTS[(i + offset) % len(CONTEXTS)]
            out.append(context.format(n=name, low=name.lower(), t=fill(rng, shape)))
    return out


def false_examples(rule: str, rng: random.Random) -> list[str]:
    spec = SPECS[rule]
    names, shape = spec[0], spec[1]
    name = names.split()[0] if names else rule.upper().replace("-", "_")
    prefix = _prefix(shape) if names else ""
    token = fill(rng, shape) if names else ""
    body = token[len(prefix) :]
    misspelt = ""
    if prefix:
        first = prefix[0]
        swap = "q" if first.lower() != "q" else "z"
        misspelt = (swap.upper() if first.isupper() else swap) + prefix[1:] + body
    values = {
        "n": name,
        "low": name.lower(),
        "p": prefix,
        "x": "x" * max(8, len(body)),
        "s": token[: len(prefix) + 6] or "abcd1234",
        "q": misspelt,
    }
    out = []
    for template in LOOKALIKES + (PREFIXED if prefix else []):
        line = template
        for key, value in values.items():
            line = line.replace("{" + key + "}", value)
        out.append(fill(rng, line))
    out += [fill(rng, t) for t in (spec[2] if len(spec) > 2 else [])]
    return out
