"""Bounded decoders: the encoded spans of a text and what each decodes to.

Each decoder finds its runs with one compiled regex (C speed over the text), decodes only
runs long enough to hold a secret, and keeps a decoded value only when it reads as text
(mostly printable) or is a known binary key format (a DER private key): random base64 blobs,
digests, images and identifiers decode to bytes that are neither, and are dropped before any
rule sees them.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from wukong_lint.decode.gate import EncodedKeywords

# (start, end, decoded text, decoder name) of an encoded span
Decoded = tuple[int, int, str, str]

_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-")
_HEX_CHARS = frozenset("0123456789abcdefABCDEF")
_B64_RUN = re.compile(r"[A-Za-z0-9+/_\-]*+={0,2}")
_HEX_RUN = re.compile(r"[0-9A-Fa-f]*+")
# a Kubernetes Secret (YAML or JSON) and its `data` values (`key: base64` lines)
_K8S_SECRET = re.compile(r"""^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?Secret\b""", re.M)
_K8S_VALUE = re.compile(
    r"""^[ \t]+["']?[\w.\-]+["']?[ \t]*:[ \t]*["']?([A-Za-z0-9+/]{4,}={0,2})["']?,?[ \t]*\r?$""",
    re.M,
)
_DOCKER_AUTH = re.compile(r'"auth"[ \t]*:[ \t]*"([A-Za-z0-9+/]{8,}={0,2})"')
# The escaped forms: an anchor (one escape), the run of text around it (delimited by
# whitespace, quotes, tags), and how many anchors a run needs before it is decoded (one
# `%20` or `\\n` in a string says nothing; a value spelt in escapes has many).
_URL_ANCHOR = re.compile(r"%[0-9A-Fa-f]{2}")
_URL_RUN = re.compile(r"[^\s\"'<>`]*+")
_ESCAPE_ANCHOR = re.compile(r"\\(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2})")
_ESCAPE_RUN = re.compile(r"(?:[^\s\"'`\\]|\\.)*+")
_ONE_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|([nrt\"'\\/]))")
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t"}
_ENTITY_ANCHOR = re.compile(r"&#(?:[0-9]{1,7}|[xX][0-9A-Fa-f]{1,6});")
_ENTITY_RUN = re.compile(r"[^\s\"'<>]*+")
MIN_ANCHORS = 3
MIN_DECODED = 6  # characters: shorter decoded values hold no secret
MAX_RUN = 1 << 16  # characters of one encoded run decoded at most (a notebook's image is more)
_NOT_PRINTABLE = re.compile(r"[^\t\n\r\x20-\x7e\u00a0-\uffff]")


def printable(text: str) -> bool:
    """Mostly printable: at most one character in twenty a control or replacement character."""
    if len(text) < MIN_DECODED:
        return False
    bad = len(_NOT_PRINTABLE.findall(text)) + text.count("\ufffd")
    return bad * 20 <= len(text)


def _der_private_key(raw: bytes) -> bool:
    """A DER private key (PKCS#1 or PKCS#8): a long SEQUENCE whose first field is version 0.
    Public keys and certificates start with another SEQUENCE, not `02 01 00`."""
    return raw[:2] == b"0\x82" and raw[4:7] == b"\x02\x01\x00" and len(raw) > 100


def _base64(run: str) -> str | None:
    body = run.rstrip("=")
    if len(body) % 4 == 1:
        return None
    url = "-" in body or "_" in body
    if url and ("+" in body or "/" in body):
        return None  # two alphabets: no base64 at all
    padded = body + "=" * (-len(body) % 4)
    try:
        raw = base64.b64decode(padded, altchars=b"-_" if url else None, validate=True)
    except (binascii.Error, ValueError):
        return None
    if _der_private_key(raw):
        # PEM armour around the very run: the private-key rule then finds it
        return f"-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----\n"
    text = raw.decode("utf-8", "replace")
    return text if printable(text) else None


def _unescape(run: str) -> str:
    def one(match: re.Match[str]) -> str:
        u, x, simple = match.groups()
        if u or x:
            return chr(int(u or x, 16))
        return _SIMPLE.get(simple, simple)

    return _ONE_ESCAPE.sub(one, run)


def decoded_spans(text: str, gate: EncodedKeywords) -> Iterator[Decoded]:
    """The encoded spans of `text` that decode to text worth searching, in no set order:
    base64 and hex runs that hold an encoded keyword (`gate`), every value of a Kubernetes
    Secret's `data` and of a docker config's `auth`, and runs of URL-encoding, string
    escapes or numeric HTML entities (where `gate` finds one of them)."""
    end = -1
    triggers: set[str] = set()
    for at, kind in _gate_hits(text, gate):
        if kind != "base64" and kind != "hex":
            triggers.add(kind)
            continue
        if at < end:
            continue  # (inside the run just decoded)
        chars = _B64_CHARS if kind == "base64" else _HEX_CHARS
        start = at
        while start > 0 and text[start - 1] in chars and at - start < MAX_RUN:
            start -= 1
        run_re = _B64_RUN if kind == "base64" else _HEX_RUN
        end = run_re.match(text, at).end()  # type: ignore[union-attr]
        found = _decode_run(text[start:end], kind)
        if found is not None:
            yield start, end, found, kind
    if not triggers:
        return
    if "structured" in triggers:
        yield from _structured(text)
    if "url" in triggers:
        for start, end in _runs(text, _URL_ANCHOR, _URL_RUN, " \t\n\"'<>`"):
            from urllib.parse import unquote  # (only when a %XX run is met)

            found = unquote(text[start:end])
            if printable(found):
                yield start, end, found, "url"
    if "escape" in triggers:
        for start, end in _runs(text, _ESCAPE_ANCHOR, _ESCAPE_RUN, " \t\n\"'`"):
            found = _unescape(text[start:end])
            if printable(found):
                yield start, end, found, "escape"
    if "html" in triggers:
        for start, end in _runs(text, _ENTITY_ANCHOR, _ENTITY_RUN, " \t\n\"'<>"):
            import html  # (only when an entity is met: html.entities is 2 ms to import)

            found = html.unescape(text[start:end])
            if printable(found):
                yield start, end, found, "html"


def _gate_hits(text: str, gate: EncodedKeywords) -> list[tuple[int, str]]:
    return gate.hits(text)


def _decode_run(run: str, kind: str) -> str | None:
    if len(run) > MAX_RUN:
        return None
    if kind == "hex":
        if len(run) % 2:
            run = run[:-1]
        found = bytes.fromhex(run).decode("utf-8", "replace")
        return found if printable(found) else None
    found = _base64(run)
    return None if found == run else found


def _structured(text: str) -> Iterator[Decoded]:
    """The values a file's structure says are base64, whatever they hold (a password
    without any keyword): a Kubernetes Secret's `data`, a docker config's `auth`."""
    if _K8S_SECRET.search(text):
        for match in _K8S_VALUE.finditer(text):
            found = _base64(match.group(1))
            if found is not None:
                yield match.start(1), match.end(1), found, "base64"
    if '"auth"' in text:
        for match in _DOCKER_AUTH.finditer(text):
            found = _base64(match.group(1))
            if found is not None:
                yield match.start(1), match.end(1), found, "base64"


def _runs(
    text: str, anchor: re.Pattern[str], run: re.Pattern[str], stops: str
) -> Iterator[tuple[int, int]]:
    """The runs of `text` (between `stops`, to the end of `run`) that hold MIN_ANCHORS
    anchors or more: found from the anchors, so text without one costs one search."""
    end = -1
    for match in anchor.finditer(text):
        at = match.start()
        if at < end:
            continue  # (inside the run just seen)
        start = max(text.rfind(c, 0, at) for c in stops) + 1
        end = run.match(text, at).end()  # type: ignore[union-attr]
        if end - start <= MAX_RUN and len(anchor.findall(text, start, end)) >= MIN_ANCHORS:
            yield start, end
