"""The shared false-positive filters rules switch on."""

from __future__ import annotations

import random
import string

import pytest

from wukong_lint.engine import filters


@pytest.mark.parametrize(
    "value",
    ["your-api-key-here", "xxxxxxxxxxxx", "AKIAIOSFODNN7EXAMPLE", "changeme", "<REDACTED>",
     "00000000", "12345678", "sk_live_...", "insert_token_here"],
)  # fmt: skip
def test_placeholders(value):
    assert filters.is_placeholder(value)


def test_long_random_tokens_are_not_placeholders_by_chance():
    token = "ops_" + "a1B2" * 40 + "todo" + "c3D4" * 40  # a word buried in a long token
    assert not filters.is_placeholder(token)
    assert filters.is_placeholder("your_" + "a1B2" * 40)


@pytest.mark.parametrize("value", ["${DB_PASSWORD}", "{{ secret }}", "$(cat key)", "%(pw)s",
                                   "$TOKEN", "%TOKEN%", "<password>", "{api_key!r}"])  # fmt: skip
def test_templates(value):
    assert filters.is_template(value)


@pytest.mark.parametrize("value", ["os.environ['X']", "process.env.TOKEN", "self.password",
                                   "get_token(session)", "None", "settings.SECRET"])  # fmt: skip
def test_code(value):
    assert filters.is_code(value)


def test_identifier_vs_random_strings():
    for name in (
        "PKCS7PrivateKeyTypes",
        "OAuth2Token",
        "max_retry_count",
        "DefaultAzureCredential",
    ):
        assert filters.is_identifier(name), name
    rng = random.Random(0)
    alphabet = string.ascii_letters + string.digits
    samples = ["".join(rng.choice(alphabet) for _ in range(16)) for _ in range(20000)]
    assert sum(map(filters.is_identifier, samples)) / len(samples) < 0.005


def test_entropy():
    assert filters.shannon_entropy("") == 0.0
    assert filters.shannon_entropy("aaaa") == 0.0
    assert filters.shannon_entropy("abcd") == pytest.approx(2.0)


def test_jwt_header_check():
    assert not filters.is_not_jwt("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig")
    assert filters.is_not_jwt("eyJub3QiOiJhIGp3dCJ9.eyJzdWIiOiIxIn0.sig")
    assert filters.is_not_jwt("eyJ!!!.x.y")


def test_keyword_prefilter_slices_big_texts_without_losing_hits(monkeypatch):
    from wukong_lint.engine import rules as rules_module
    from wukong_lint.engine.loader import load_rules

    ruleset = load_rules()
    text = "".join(
        f"line {i} password = x{i}; ghp_ token {i} secret_key AKIA mongodb:// xoxb-\n"
        for i in range(3000)
    )
    whole = ruleset._keyword_hits(text)
    for size in (7, 64, 1000):  # slices smaller than, near and above the keyword lengths
        monkeypatch.setattr(rules_module, "SLICE", size)
        assert ruleset._keyword_hits(text) == whole
    assert whole


def test_keyword_prefilter_fast_automaton_finds_the_same_hits(monkeypatch):
    """After FAST_AFTER characters a prefilter switches to ahocorasick_rs: same offsets,
    including non-ASCII text (character offsets, not bytes) and sliced big texts."""
    from wukong_lint.engine import rules as rules_module
    from wukong_lint.engine.loader import load_rules

    text = "".join(
        f"é{i} password = x{i}; ghp_ token ✓ {i} secret_key AKIA mongodb:// xoxb-\n"
        for i in range(3000)
    )
    slow = load_rules()._keyword_hits(text)
    assert slow
    monkeypatch.setattr(rules_module, "FAST_AFTER", 0)
    ruleset = load_rules()
    fast = ruleset._keyword_hits(text)
    assert ruleset.prefilter().fast
    assert fast == slow
    for size in (7, 64, 1000):
        monkeypatch.setattr(rules_module, "SLICE", size)
        assert ruleset._keyword_hits(text) == slow
