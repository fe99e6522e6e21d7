"""The decode stage (wukong_lint/decode/, engine/scan._derived) and wide text encodings:
unit tests of the decoders and joins, and the measure of issue 30 on the labelled corpus of
tests/fixtures/decode/corpus.py (≥ 95 % of planted secrets found at their line, ≤ 1 % of
look-alike files flagged)."""

from __future__ import annotations

import base64
import collections
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from wukong_lint.decode import EncodedKeywords, views
from wukong_lint.util.text import decode, is_binary

ROOT = Path(__file__).resolve().parent.parent
GATE = EncodedKeywords(["ghp_", "private key", "token"])
# assembled at run time: no token-shaped literal in the repository
TOKEN = "gh" + "p_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"


def _texts(text: str, path: str = "a.txt") -> list[tuple[str, tuple[str, ...], tuple[int, int]]]:
    near = [i for i in range(len(text)) if text.startswith("ghp_", i)]
    found = views(text, path, GATE, near)
    return [(v.text, v.chain, v.span(0, len(v.text))) for v in found]


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        (f"x = {base64.b64encode(('u:' + TOKEN).encode()).decode()}\n", ("base64",)),
        (f"x = {base64.urlsafe_b64encode(TOKEN.encode()).decode().rstrip('=')}\n", ("base64",)),
        (f"x = {TOKEN.encode().hex()}\n", ("hex",)),
        ("x = '" + "".join(f"\\x{ord(c):02x}" for c in TOKEN[:6]) + TOKEN[6:] + "'\n", ("escape",)),
        ('"' + "".join(f"\\u{ord(c):04x}" for c in TOKEN[:6]) + TOKEN[6:] + '"\n', ("escape",)),
        ("<b>" + "".join(f"&#{ord(c)};" for c in TOKEN[:6]) + TOKEN[6:] + "</b>\n", ("html",)),
        ("q=" + "".join(f"%{b:02X}" for b in TOKEN[:6].encode()) + TOKEN[6:] + "\n", ("url",)),
    ],
)
def test_each_decoder_finds_the_token_and_maps_it_to_the_encoded_span(
    text: str, chain: tuple
) -> None:
    found = [(t, c, s) for t, c, s in _texts(text) if TOKEN in t]
    assert found, _texts(text)
    _view_text, view_chain, (start, end) = found[0]
    assert view_chain == chain
    assert text[:start].count("\n") == 0 and end <= len(text)


def test_depth_two_a_docker_config_in_a_kubernetes_secret() -> None:
    auth = base64.b64encode(f"ci:{TOKEN}".encode()).decode()
    config = json.dumps({"auths": {"r.example.com": {"auth": auth}}})
    text = (
        "kind: Secret\ndata:\n  .dockerconfigjson: "
        + base64.b64encode(config.encode()).decode()
        + "\n"
    )
    chains = [c for t, c, _ in _texts(text, "s.yaml") if TOKEN in t]
    assert ("base64", "base64") in chains


@pytest.mark.parametrize(
    ("text", "path", "chain"),
    [
        (f'export T="{TOKEN[:9]}\\\n{TOKEN[9:]}"\n', "a.sh", "line continuation"),
        (f'T = ("{TOKEN[:9]}"\n     "{TOKEN[9:]}")\n', "a.py", "string concatenation"),
        (f'const t = "{TOKEN[:9]}" +\n  "{TOKEN[9:]}";\n', "a.js", "string concatenation"),
        (f"token: >-\n  {TOKEN[:12]}\n  {TOKEN[12:]}\n", "a.yaml", "yaml block"),
    ],
)
def test_joins_rebuild_a_split_token_reported_at_its_first_line(
    text: str, path: str, chain: str
) -> None:
    found = [(c, s) for t, c, s in _texts(text, path) if TOKEN in t]
    assert found and found[0][0] == (chain,)
    assert text[: found[0][1][0]].count("\n") == 0


def test_random_blobs_digests_and_words_give_no_view() -> None:
    import hashlib
    import random

    rng = random.Random(3)
    lines = [base64.b64encode(rng.randbytes(48)).decode() for _ in range(50)]
    lines += [hashlib.sha256(rng.randbytes(8)).hexdigest() for _ in range(50)]
    lines += ["someLongIdentifierName_with_parts = getElementById(x)"] * 5
    assert views("\n".join(lines) + "\n", "a.txt", GATE, None) == []


@pytest.mark.parametrize(
    "encoding", ["utf-16-le", "utf-16-be", "utf-16", "utf-32", "utf-32-le", "utf-32-be"]
)
def test_wide_encodings_are_text_with_or_without_a_bom(encoding: str) -> None:
    text = f"TOKEN={TOKEN}\nnaïve line\n"
    data = text.encode(encoding)
    assert not is_binary(data[:8192])
    assert decode(data) == text


def test_binary_stays_binary() -> None:
    import random

    data = random.Random(1).randbytes(4096) + b"\0" * 64
    assert is_binary(data) and decode(data) is None
    assert decode(b"\0" * 100) is None


def _corpus() -> object:
    spec = importlib.util.spec_from_file_location(
        "decode_corpus", ROOT / "tests/fixtures/decode/corpus.py"
    )
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _scan(folder: Path, *extra: str) -> dict:
    out = folder.parent / "report.json"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "wukong_lint",
            "check",
            ".",
            "--jobs",
            "1",
            "--format",
            "json",
            "-o",
            str(out),
            *extra,
        ],
        cwd=folder,
        capture_output=True,
        env={
            "PYTHONPATH": str(ROOT),
            "NO_COLOR": "1",
            "GIT_CEILING_DIRECTORIES": str(folder.parent),
            "PATH": "/usr/bin:/bin",
        },
    )
    assert proc.returncode in (0, 1), proc.stderr.decode()[-2000:]
    return json.loads(out.read_text())


def _measure(labels: dict, report: dict) -> tuple[int, int, list, list]:
    found = collections.defaultdict(set)
    for f in report["findings"]:
        if f["category"] == "secret":
            found[f["path"]].add(f["line"])
    missed = [p for p in labels["planted"] if p["line"] not in found.get(p["path"], ())]
    flagged = [x for x in labels["lookalikes"] if x["path"] in found]
    return len(labels["planted"]), len(labels["lookalikes"]), missed, flagged


def test_the_labelled_corpus_meets_the_targets(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    labels = _corpus().write(folder, 1)  # type: ignore[attr-defined]
    planted, lookalikes, missed, flagged = _measure(labels, _scan(folder))
    assert planted >= 300 and lookalikes >= 300
    assert (planted - len(missed)) / planted >= 0.95, collections.Counter(m["form"] for m in missed)
    assert len(flagged) / lookalikes <= 0.01, flagged
    # the stage is what finds them: without it most are missed
    _, _, missed_plain, _ = _measure(labels, _scan(folder, "--no-decode"))
    assert len(missed_plain) > planted // 2
