"""Slow, salted hashes of found secrets: what the baseline and the fingerprints store.

A bare SHA-256 of a weak password (`hunter22`) is reversed by trying a dictionary in seconds,
so neither a committed baseline nor a report's fingerprints may hold one (issues 13 and 15).
Both use scrypt (memory-hard: a GPU gains little) of the secret's SHA-256 (which the scan
already computed: the secret itself is not kept after the scan). Guessing then costs one
scrypt per guess and per salt:

- the baseline has a random salt of its own, stored in the file (no table computed in advance
  helps), with the cost parameters, so that they can be raised later;
- a fingerprint, which must stay the same across runs and machines (code scanning matches
  alerts by it) without a file to hold a salt, is salted with its rule id and path, plus
  `WUKONG_LINT_FINGERPRINT_KEY` when set (a CI secret: then nobody without it can test a
  guess at all). Only guessable values (under ~128 bits: passwords, short keys) need this;
  a generated token's SHA-256 cannot be reversed, and keeps the fast form.

Each distinct value is hashed once per run and salt (a memo), so a baseline check costs one
hash per distinct secret found, not per entry. hashlib is imported only when a secret is
hashed: a clean pre-commit run never pays for it.
"""

from __future__ import annotations

import os

# scrypt cost of the baseline: 4 MiB and a few milliseconds per hash (N=2^12, r=8, p=1)
BASELINE_PARAMS = {"n": 4096, "r": 8, "p": 1}
# fingerprints are computed for every secret finding of every report: 1 MiB (N=2^10)
FINGERPRINT_PARAMS = {"n": 1024, "r": 8, "p": 1}
KEY_ENV = "WUKONG_LINT_FINGERPRINT_KEY"

_MEMO: dict[tuple[str, bytes, int, int, int], str] = {}


def scrypt_hex(value_hash: str, salt: bytes, n: int, r: int, p: int) -> str:
    """scrypt of a value's SHA-256 (hex) under `salt`, as 32 hex digits; memoized."""
    key = (value_hash, salt, n, r, p)
    found = _MEMO.get(key)
    if found is None:
        import hashlib

        if len(_MEMO) >= 100_000:
            _MEMO.clear()
        found = _MEMO[key] = hashlib.scrypt(
            value_hash.encode("ascii", "surrogatepass"),
            salt=salt,
            n=n,
            r=r,
            p=p,
            maxmem=64 * 1024 * 1024,
            dklen=16,
        ).hex()
    return found


# A value whose estimated strength (Shannon entropy x length) reaches this many bits cannot be
# recovered from a plain SHA-256 by guessing: generated tokens (`ghp_` + 36 random characters
# is ~200 bits). Only weaker values get the slow hash in fingerprints, so a report of many
# provider tokens costs no scrypt at all.
GUESSABLE_BITS = 128


def guessable(value: str) -> bool:
    """Whether a dictionary or brute-force search could find `value` from a fast hash."""
    from wukong_lint.engine.filters import shannon_entropy

    return len(value) < GUESSABLE_BITS and shannon_entropy(value) * len(value) < GUESSABLE_BITS


def new_salt() -> str:
    return os.urandom(16).hex()


def fingerprint_secret(rule_id: str, path: str, value_hash: str) -> str:
    """What a secret finding's fingerprint holds instead of the bare hash of the secret."""
    salt = f"wukong-lint/fingerprint/2\0{rule_id}\0{path}\0{os.environ.get(KEY_ENV, '')}"
    return scrypt_hex(value_hash, salt.encode("utf-8", "surrogatepass"), **FINGERPRINT_PARAMS)
