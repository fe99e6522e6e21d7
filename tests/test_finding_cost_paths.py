"""The cheap ways findings are made, moved and written give what the plain ways give.

- The JSON report writes each finding without a dict or an encoder call
  (report/json_report.py `finding_line`): the bytes must be those of the standard encoder
  followed by `json_text`, for every string (quotes, controls, C1, bidi overrides, lone
  surrogates, astral characters) and every odd value type (a bool where an int goes).
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from wukong_lint.engine.masking.printable import json_text
from wukong_lint.model import Finding, Severity, Source
from wukong_lint.report import json_report

# every kind of character the report must escape or keep: controls, quotes, C1, bidi,
# surrogates (undecodable file names), astral, plain
_ODD = '\x00\x01\x08\t\n\r\x1b"\\/\x7f\x85\x9f\u2028\u202e\u2066\ud800\udcff\U0001f600é戒 a'
TEXT = st.text(alphabet=st.sampled_from(_ODD) | st.characters(), max_size=40)
MAYBE = st.none() | TEXT
INT = st.integers(min_value=-(2**70), max_value=2**70)


def reference(finding: Finding) -> str:
    return json_text(json_report._FINDING_ENCODER.encode(json_report.finding_to_dict(finding)))


@st.composite
def findings(draw) -> Finding:
    return Finding(
        rule_id=draw(TEXT),
        category=draw(TEXT),
        severity=draw(st.sampled_from(list(Severity))),
        message=draw(TEXT),
        path=draw(TEXT),
        line=draw(INT | st.booleans()),
        column=draw(INT),
        end_line=draw(INT),
        snippet=draw(TEXT),
        fingerprint=draw(st.sampled_from(["0123abcd" * 4, "\udcff\x00"])),
        source=Source(
            kind=draw(TEXT),
            tool=draw(MAYBE),
            agent=draw(MAYBE),
            record=draw(st.none() | INT | st.booleans()),
            commit=draw(MAYBE),
        ),
    )


@given(findings())
def test_finding_line_is_the_encoders_bytes(finding: Finding) -> None:
    line = json_report.finding_line(finding)
    assert line == reference(finding)
    assert line.encode("utf-8")  # no raw surrogate left: the report encodes as UTF-8
    assert json.loads(line)["rule_id"] == finding.rule_id  # (a lone surrogate reads back)


def test_repeated_strings_are_encoded_once_and_stay_exact() -> None:
    base = Finding("secret.x", "secret", Severity.HIGH, 'say "hi"\x1b', "a\udcffb", 3, 4, 3,
                   "tok=****\u202e", "f" * 32, Source("transcript", "Bash", "main", 7))  # fmt: skip
    for n in range(1, 50):  # the second time on, the strings come from the memo
        moved = base._replace(line=n, end_line=n)
        assert json_report.finding_line(moved) == reference(moved)
    assert '"path": "a\\udcffb"' in json_report.finding_line(base)
    assert "\\u202e" in json_report.finding_line(base)


def test_odd_types_take_the_encoders_way() -> None:
    base = Finding("r", "secret", Severity.LOW, "m", "p", 1, 1, 1, "s", "f", Source())
    assert json_report.finding_line(base._replace(line=True)) == reference(base._replace(line=True))
    assert '"line": true' in json_report.finding_line(base._replace(line=True))
    odd = base._replace(source=Source(record=False))
    assert '"record": false' in json_report.finding_line(odd)


def test_chunks_join_to_one_finding_a_line() -> None:
    from wukong_lint.model import Report, Stats

    many = tuple(
        Finding("r", "secret", Severity.LOW, "m", "p", n, 1, n, "s", f"{n:032x}", Source())
        for n in range(1, 600)  # more than one piece of `chunks`
    )
    text = json_report.render(Report(many, Stats()))
    document = json.loads(text)
    assert [f["line"] for f in document["findings"]] == list(range(1, 600))
    lines = text.splitlines()
    assert lines[:4] == ["{", '  "version": 1,', '  "tool": "wukong-lint",', '  "findings": [']
    body = [line for line in lines if line.startswith('    {"rule_id"')]
    assert len(body) == 599 and all(line.endswith("},") for line in body[:-1])
    empty = json.loads(json_report.render(Report((), Stats())))
    assert empty["findings"] == []


def test_encoded_chunks_are_the_chunks_in_utf8() -> None:
    from wukong_lint.model import Report, ScanError, Stats

    many = tuple(
        Finding("r", "secret", Severity.LOW, "跳过 CHECKPOINT" if n % 3 else "m", "p/é\udcff",
                n, 1, n, "s", f"{n:032x}", Source("transcript", "Bash", "main", n))
        for n in range(1, 600)
    )  # fmt: skip
    for findings in (many, many[:1], ()):
        report = Report(findings, Stats(files=1), (ScanError("é", "x"),))
        text = "".join(json_report.chunks(report))
        assert b"".join(json_report.encoded_chunks(report)) == text.encode("utf-8")


def test_a_tally_crosses_processes_unchanged(tmp_path) -> None:
    """A worker's Tally is pickled in columns (engine/findings.py `pack`): what the parent
    gets back is equal, of the same classes, the severities the enum's own members."""
    import multiprocessing
    import pickle

    from wukong_lint.engine.scan import Tally
    from wukong_lint.model import ScanError

    where = Source("transcript", "Bash", "main", 1)
    base = Finding("secret.x", "secret", Severity.CRITICAL, "m", "a.jsonl", 1, 2, 1, "s",
                   "f" * 32, where, "h" * 64, True, "inline")  # fmt: skip
    found = [base._replace(line=n, source=base.source._replace(record=n)) for n in range(40)]
    found.append(base._replace(severity=Severity.LOW, source=Source()))
    tally = Tally(found, [ScanError("a.jsonl", "boom")], 1, 1234, 2, 40)
    for back in (pickle.loads(pickle.dumps(tally)), _through_a_process(tally, multiprocessing)):
        assert back == tally and type(back) is Tally
        assert all(type(f) is Finding and type(f.source) is Source for f in back.findings)
        assert back.findings[-1].severity is Severity.LOW
        assert back.findings[3].source.record == 3
    empty = Tally([], [], 0, 0, 0)
    assert pickle.loads(pickle.dumps(empty)) == empty


def _echo(tally):
    return tally


def _through_a_process(tally, multiprocessing):
    with multiprocessing.get_context("fork").Pool(1) as pool:
        return pool.apply(_echo, (tally,))


# --- the credential shapes' prefilter (masking.may_hold_shape) -----------------------------
# The SHAPES it was read from (redact.py): a changed or new shape must be read again into
# masking.may_hold_shape, then this digest updated.
SHAPES_READ = "b78c0217e1398309c1aabb164836edab6fafcb0ab99c4d55347a588044f4a7c6"
_PIECES = ["://", "-u", "-U", "--user", "-a", "--auth", ":", "=", " ", "\t", "'", '"', "@",
           "-", "--", "password", "PassWd", "pwd", "TOKEN", "secret", "api", "-key", "_key",
           "apikey", "access", "auth", "client", "http-password", "proxy-", "mysql", "-p",
           "authorization", "Bearer ", "x-", "private", "amz-security", "goog", "ocp-apim",
           "-subscription-key", "cookie", "set-", "s3cr3tV4lue", "user", "host", "é", "ſ",
           "\u212a", "https", "a", "Z", "0", "/"]  # fmt: skip


# a text of each shape, each keyword of each shape
SHAPE_TEXTS = [
    "git clone https://bob:hunter22@git.acme.io/x", "https://abcdefghijklmnop1234@h.io",
    "curl -u bob:hunter22 https://x", "wget --user=bob:hunter22", "mysql -uroot -phunter22",
    "x --proxy-user bob:hunter22", "x --http-user=bob:hunter22", "x --auth bob:hunter22",
    "x -a bob:hunter22", "x -U bob:hunter22",
    "tool --password hunter22", "tool --passwd=hunter22", "tool --pass hunter22",
    "tool --pwd=hunter22", "tool -Token=hunter22", "tool --secret hunter22",
    "app --API_KEY hunter22", "app --apikey hunter22", "app --access_token=hunter22",
    "app --auth_token hunter22", "app --client_secret=hunter22", "app --http-password x",
    "app --proxy-password=x",
    "Authorization: Bearer abc.def", "PROXY-AUTHORIZATION=abc", "X-Api-Key: hunter22",
    "api-key=hunter22", "apikey: hunter22", "X-Auth-Token: hunter22", "x-access-token=h",
    "Ocp-Apim-Subscription-Key: hunter22", "private-token=hunter22", "x-token: hunter22",
    "X-Amz-Security-Token: hunter22", "X-Goog-Api-Key=hunter22",
    "Cookie: sid=hunter22", "Set-Cookie: sid=hunter22",
]  # fmt: skip


def test_near_misses_of_each_shape() -> None:
    """Each shape's text with a piece cut out (a keyword's letter, a separator): whatever
    the prefilter passes over, the pattern does not match."""
    from wukong_lint.engine.masking.masker import _shape_pattern, may_hold_shape

    pattern = _shape_pattern()
    for text in SHAPE_TEXTS:
        for size in (1, 2, 3):
            for at in range(len(text) - size + 1):
                cut = text[:at] + text[at + size :]
                for variant in (cut, cut.upper()):
                    if not may_hold_shape(variant):
                        assert pattern.search(variant) is None, variant


def test_the_shapes_are_those_the_prefilter_was_read_from() -> None:
    import hashlib

    from wukong_lint.engine.masking.shapes import SHAPES

    digest = hashlib.sha256("\n".join(SHAPES).encode()).hexdigest()
    assert digest == SHAPES_READ, "redact.SHAPES changed: read it again into may_hold_shape"


@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
def test_a_text_the_prefilter_passes_over_holds_no_shape(text: str) -> None:
    from wukong_lint.engine.masking.masker import _shape_pattern, may_hold_shape

    if not may_hold_shape(text):
        assert _shape_pattern().search(text) is None, text


def test_the_prefilter_lets_each_shape_through() -> None:
    from wukong_lint.engine.masking.masker import may_hold_shape, shape_spans

    for text in SHAPE_TEXTS:
        assert may_hold_shape(text) and shape_spans(text), text
    for text in ["/nonexistent/proj/src/m1.py", "GITHUB_TOKEN=ghp_x", "rm -rf build", "ls -la"]:
        assert not may_hold_shape(text) and shape_spans(text) == []
    assert may_hold_shape("paſsword")  # not ASCII: the pattern decides


@given(findings())
def test_the_reports_sort_key_is_findings_own(finding: Finding) -> None:
    from wukong_lint.engine.scan import _SORT_KEY

    assert _SORT_KEY(finding) == finding.sort_key()


SPAN = st.tuples(st.integers(-5, 30), st.integers(-5, 30), st.integers(0, 8))


@given(st.text(alphabet="ab\u00e9\U0001f600 ", max_size=25), SPAN)
def test_one_span_masks_as_the_general_way(line: str, span: tuple[int, int, int]) -> None:
    """redact.mask_spans' single-span path gives what its loop gives (two copies of the span:
    the loop merges them into the same one)."""
    from wukong_lint.engine.masking.shapes import mask_spans

    assert mask_spans(line, [span]) == mask_spans(line, [span, span])


# --- SARIF through orjson (report/sarif.py `dumps`) ----------------------------------------
KEY = st.text(alphabet=st.sampled_from(_ODD) | st.characters(), max_size=8)
LEAF = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | TEXT
DOCUMENT = st.recursive(
    LEAF,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(KEY | st.integers(0, 3), inner, max_size=4)
    ),
    max_leaves=25,
)


@given(DOCUMENT)
def test_sarif_dumps_is_the_standard_librarys(document) -> None:
    from wukong_lint.report.sarif import dumps

    assert dumps(document) == json.dumps(document, ensure_ascii=False, indent=2)


def test_a_sarif_document_holds_no_float(tmp_path, monkeypatch) -> None:
    """What makes orjson's indented text the standard library's: no float anywhere in a
    real document (a transcript with every kind of finding, a secret among them)."""
    from wukong_lint.cli import main
    from wukong_lint.report.sarif import dumps

    session = tmp_path / "s.jsonl"
    session.write_text(
        json.dumps({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash",
             "input": {"command": "export GITHUB_TOKEN=ghp_" + "a1B2" * 9 + "; rm -rf /"}}]}})
        + "\n"
    )  # fmt: skip
    out = tmp_path / "r.sarif"
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--format", "sarif", "-q", "-o", str(out), str(session)]) == 1
    text = out.read_text(encoding="utf-8")
    document = json.loads(text)
    assert document["runs"][0]["results"]

    def walk(value) -> None:
        assert not isinstance(value, float), value
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(document)
    assert text == dumps(document) + "\n"
    assert text == json.dumps(document, ensure_ascii=False, indent=2) + "\n"
