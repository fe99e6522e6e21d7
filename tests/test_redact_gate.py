"""The redactor's raw-line gate (engine/masking/redactor.py `_no_keyword_in`): a JSONL line
in whose raw text no secret rule's keyword occurs is copied without being decoded; a line
whose keyword an escape hides (`\\u0067hp_`, `\\/`) is still decoded and masked. Every line
gives what the redactor gives without the gate."""

from __future__ import annotations

import json
import random
import string

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.masking.redactor import Redactor


def _token(seed: int) -> str:
    rng = random.Random(seed)  # a fake GitHub token, made here (no secret in the source)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def _lines() -> list[bytes]:
    token = _token(7)
    hidden = "\\u0067" + token[1:]  # the keyword `ghp_` only in the decoded string
    record = {"type": "user", "message": {"role": "user", "content": "ls -la"}, "uuid": "u1"}
    nested = json.dumps({"type": "x", "output": json.dumps({"env": f"TOKEN={token}"})})
    return [
        (json.dumps(record) + "\n").encode(),
        ('{"type":"user","message":{"content":"export GH=' + hidden + '"}}\n').encode(),
        ('{"url":"https:\\/\\/example.com\\/' + token + '"}\n').encode(),
        (json.dumps({"content": f"export GH={token}"}) + "\n").encode(),
        (nested + "\n").encode(),
        b"not json at all, plain words\n",
        ("plain text with " + token + "\n").encode(),
    ]


def test_gate_gives_what_the_full_walk_gives():
    rules = load_rules()
    gated, full = Redactor(rules), Redactor(rules)
    full._raw_gate = False
    assert gated._raw_gate  # the built-in rules allow it
    for raw in _lines():
        assert gated.line(raw) == full.line(raw), raw
    assert gated.count == full.count >= 4


def test_escaped_keyword_is_still_masked():
    redactor = Redactor(load_rules())
    token = _token(11)
    raw = ('{"content":"export GH=\\u0067' + token[1:] + '"}\n').encode()
    assert not redactor._no_keyword_in(raw.decode().rstrip("\n"))
    out = redactor.line(raw)
    assert token[4:] not in out.decode() and "[REDACTED:" in out.decode()
    plain = b'{"type":"progress","data":{"status":"running"}}\n'
    assert redactor.line(plain) is plain  # copied as it is, not re-encoded
