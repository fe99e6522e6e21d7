"""The cheap test of whether a text holds a keyword in base64 or hex: the keywords' encoded
forms, searched with one Aho-Corasick automaton (the same kind as the engine's prefilter).

A keyword `k` in base64 starts at one of three byte alignments; at each, the characters
fully determined by `k`'s bits are the same whatever surrounds it, so a base64 run holding
`k` holds one of those three strings (in the standard or URL-safe alphabet). Keywords are
matched case-insensitively in plain text, so their lower, upper and title forms are encoded.
A run of base64 or hex is decoded only around such a hit: real code has some 4,500 runs of
16 base64 characters per MB (identifiers, paths), and none of them is decoded for nothing.
"""

from __future__ import annotations

import base64
from typing import Any

DFA_AFTER = 16 << 20  # bytes searched before the faster automaton is built
MIN_ENCODED = 4  # characters: shorter encoded forms hit random base64 too often
# What makes the other decoders worth running, found in the same pass: the escaped forms
# of printable ASCII (`%2F`, `\u0067`, `\x67`, `&#103;`), a Kubernetes Secret, a docker
# config's `auth` (`%s` and `\u4e2d` are not triggers: they never spell a secret).
TRIGGERS = (
    *((f"%{d}", "url") for d in "234567"),
    ("\\u00", "escape"),
    *((f"\\x{d}", "escape") for d in "234567"),
    ("&#", "html"),
    ("Secret", "structured"),
    ('"auth"', "structured"),
)
_URL_SAFE = str.maketrans("+/", "-_")


def _base64_forms(word: bytes) -> set[str]:
    forms = set()
    for align in range(3):
        encoded = base64.b64encode(b"\0" * align + word).decode()
        first = -(-8 * align // 6)  # the first character whose six bits all lie in `word`
        last = (8 * (align + len(word))) // 6  # (exclusive)
        stable = encoded[first:last]
        if len(stable) >= MIN_ENCODED:
            forms |= {stable, stable.translate(_URL_SAFE)}
    return forms


SNAPSHOT_NAME = "_decode_gate.bin"
_LAYOUT = f"1\0{MIN_ENCODED}\0{TRIGGERS!r}"


def _forms(keywords: tuple[str, ...] | list[str]) -> tuple[list[str], list[str]]:
    """(encoded forms, the kind of each) of `keywords` and the other decoders' triggers."""
    forms: dict[str, str] = {}
    for keyword in keywords:
        for variant in {keyword.lower(), keyword.upper(), keyword.title()}:
            raw = variant.encode("utf-8")
            for form in _base64_forms(raw):
                forms.setdefault(form, "base64")
            if len(raw) >= 3:
                forms.setdefault(raw.hex(), "hex")
                forms.setdefault(raw.hex().upper(), "hex")
    for trigger, kind in TRIGGERS:
        forms.setdefault(trigger, kind)
    patterns = list(forms)
    return patterns, [forms[p] for p in patterns]


class EncodedKeywords:
    """Where a text holds a keyword in base64 or hex (`hits`)."""

    def __init__(self, keywords: tuple[str, ...] | list[str]) -> None:
        # (the encoded forms of ~1,000 keywords cost a staged check or a hook call ~5 ms:
        # computed once per installation and kept in the package's snapshot)
        from wukong_lint.util import package_snapshot

        key = (_LAYOUT, tuple(keywords))
        stored = package_snapshot.load(SNAPSHOT_NAME, key)
        if isinstance(stored, tuple) and len(stored) == 2:
            self.patterns, self.kinds = list(stored[0]), list(stored[1])
        else:
            self.patterns, self.kinds = _forms(keywords)
            package_snapshot.store(SNAPSHOT_NAME, key, (self.patterns, self.kinds))
        self._find: Any = None
        self._searched = 0  # bytes searched with the automaton built so far
        self._fast = False  # whether that automaton is the DFA

    def hits(self, text: str) -> list[tuple[int, str]]:
        """(offset, kind) of each encoded keyword ("base64", "hex") and of each trigger of
        another decoder (TRIGGERS) in `text`, in text order. One pass of a DFA over the
        text as bytes, one byte a character (any character past Latin-1 is one `?`: no
        encoded form holds one), so that offsets are the text's."""
        data = text.encode("latin-1", "replace") if not text.isascii() else text.encode()
        self._searched += len(data)
        if self._find is None or (not self._fast and self._searched > DFA_AFTER):
            # A contiguous NFA first (built in ~8 ms for the built-in keywords), the DFA
            # (~50 ms to build, ~3x faster to search) once a run has searched enough text
            # to repay it: a hook call or a staged check of a few files never builds it.
            import ahocorasick_rs

            self._fast = self._searched > DFA_AFTER
            kind = ahocorasick_rs.Implementation
            automaton = ahocorasick_rs.BytesAhoCorasick(
                [p.encode("latin-1") for p in self.patterns],
                implementation=kind.DFA if self._fast else kind.ContiguousNFA,
            )
            self._find = automaton.find_matches_as_indexes
        kinds = self.kinds
        return [(start, kinds[number]) for number, start, _ in self._find(data)]
