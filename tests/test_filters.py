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


def test_keyword_offsets_are_character_offsets_of_the_text():
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.rules import Prefilter

    ruleset = load_rules()
    text = "日本語 héllo ghp_ and token"
    prefilter = Prefilter(ruleset.rules, range(len(ruleset.rules)))
    for index, ends in prefilter.hits(text).items():
        assert ends is not None
        keywords = ruleset.rules[index].keywords
        for end in ends:  # each offset is the last character of one of the rule's keywords
            assert any(text.lower()[end - len(k) + 1 : end + 1] == k for k in keywords)
    assert prefilter.hits(text)


def test_lone_surrogates_do_not_stop_the_prefilter():
    from wukong_lint.engine.loader import load_rules

    ruleset = load_rules()
    text = 'tool said "\ud800" then token ghp_' + "a" * 36
    hits = ruleset._keyword_hits(text)
    assert hits and all(ends is None or ends[-1] < len(text) for ends in hits.values())


def test_prefilter_finds_the_same_after_switching_to_its_dfa(monkeypatch):
    from wukong_lint.engine import rules as rules_module
    from wukong_lint.engine.loader import load_rules

    text = "password = hunter2x; ghp_ token AKIA xoxb- mongodb:// 日本 sk-proj-\n" * 50
    before = load_rules()._keyword_hits(text)
    monkeypatch.setattr(rules_module, "DFA_AFTER", len(text) // 2)
    ruleset = load_rules()
    first = ruleset._keyword_hits(text)  # crosses the threshold: the DFA is built
    second = ruleset._keyword_hits(text)
    assert before == first == second and before


def _typed_sequences_reference(lowered: str) -> bool:
    """filters._typed_sequences without its shortcut for text with no four-letter run."""
    from itertools import pairwise

    if len(lowered) >= 6 and lowered.isdigit():
        return all(ord(b) - ord(a) == 1 for a, b in pairwise(lowered))
    longest = 6 if len(lowered) > filters.LONG_VALUE else 5
    runs4, run = 0, 1
    for previous, current in pairwise(lowered):
        if ord(current) - ord(previous) == 1 and current.isalpha() and previous.isalpha():
            run += 1
            if run == longest:
                return True
            if run == 4:
                runs4 += 1
                if runs4 == 2 and len(lowered) <= filters.LONG_VALUE:
                    return True
        else:
            run = 1
    return False


def test_typed_sequences_shortcut_changes_nothing():
    pieces = ["abc", "abcd", "bcde", "wxyz", "xyz", "123", "1234", "qr", "àáâã", "k", "-", "9"]
    rnd = random.Random(7)
    found = 0
    for _ in range(20000):
        value = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        for text in (value, value.lower(), value[: filters.LONG_VALUE + 5]):
            assert filters._typed_sequences(text) == _typed_sequences_reference(text), text
        found += _typed_sequences_reference(value)
    assert found > 1000  # both answers were exercised


def test_after_keyword_ends_the_window_on_its_own_line():
    from wukong_lint.engine.matchers import windows

    text = "a_token = 'x'\nnext line\nthird\n"
    # lines_after 1 reaches the next line, unless the after_keyword match ended on the first
    assert windows(text, [6], lines_after=1) == [(0, 23)]
    assert windows(text, [6], lines_after=1, ends=[9]) == [(0, 13)]
    # a match that ends on the next line (name: X, then value: on the next line) keeps it
    assert windows(text, [6], lines_after=1, ends=[16]) == [(0, 23)]


def test_base64_of_a_placeholder_is_a_placeholder():
    import base64

    assert filters.is_placeholder(base64.b64encode(b"changeme").decode())
    assert filters.is_placeholder(base64.b64encode(b"your-password-here").decode())
    assert not filters.is_placeholder(base64.b64encode(b"hunter22").decode())
    assert not filters.is_placeholder(base64.b64encode(bytes(range(40, 64))).decode())
