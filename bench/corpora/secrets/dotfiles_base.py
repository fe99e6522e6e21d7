# ruff: noqa: E501  (file templates read better unwrapped)
"""Shared pieces of the leaked-dotfiles corpus (dotfiles.py): the random helper, the
labels, crypt(3) hash shapes."""

from __future__ import annotations

import base64
import random
import string

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
CRYPT64 = "./" + string.digits + string.ascii_uppercase + string.ascii_lowercase
BCRYPT64 = "./" + string.ascii_uppercase + string.ascii_lowercase + string.digits

# (text, label): label is None, ("risky", kind) or ("lookalike", kind)
Line = tuple[str, "tuple[str, str] | None"]


class R(random.Random):
    def s(self, alphabet: str, n: int) -> str:
        return "".join(self.choice(alphabet) for _ in range(n))

    def weak(self) -> str:
        """A password a person picks: low entropy, but a credential all the same."""
        word = self.choice(
            ["hunter", "admin", "summer", "dragon", "monkey", "letmein", "sunshine",
             "shadow", "master", "qwerty", "football", "welcome", "trustno", "iloveyou"]
        )  # fmt: skip
        tail = self.choice(["22", "123", "2019", "!", "99", "_01", "#1", "2024!", "77"])
        if self.random() < 0.4:
            word = word.capitalize()
        return word + tail

    def strong(self, n: int = 16) -> str:
        while True:
            v = self.s(ALNUM + "!#%*+-_.", n)
            if any(c.isdigit() for c in v) and any(c.isupper() for c in v) and v[0].isalnum():
                return v

    def user(self) -> str:
        return self.choice(["alice", "bob", "deploy", "ci-bot", "jenkins", "webadmin", "root",
                            "dev", "marta", "kenji", "ops", "backup"])  # fmt: skip

    def host(self) -> str:
        return self.choice(
            ["db.internal.acme-corp.net", "10.0.3.17", "ftp.kessler-hosting.de", "mail.northwind.io",
             "pg-prod-2.cluster.local", "sftp.shoplift.co.uk", "nexus.build.lan", "192.168.1.20"]
        )  # fmt: skip

    def email(self) -> str:
        return f"{self.user()}@{self.choice(['gmail.com', 'acme-corp.net', 'posteo.de', 'outlook.com'])}"

    def uuid(self) -> str:
        h = self.s(HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def b64(self, n: int) -> str:
        return base64.b64encode(bytes(self.getrandbits(8) for _ in range(n))).decode()


RISKY = "risky"
LOOK = "lookalike"


def risky(kind: str) -> tuple[str, str]:
    return (RISKY, kind)


def look(kind: str) -> tuple[str, str]:
    return (LOOK, kind)


# --------------------------------------------------------------------------------------------
# crypt(3) hashes with their exact shapes
# --------------------------------------------------------------------------------------------


def crypt_hash(r: R, scheme: str) -> str:
    if scheme == "md5":
        return f"$1${r.s(CRYPT64, 8)}${r.s(CRYPT64, 22)}"
    if scheme == "apr1":
        return f"$apr1${r.s(CRYPT64, 8)}${r.s(CRYPT64, 22)}"
    if scheme == "sha256":
        return f"$5${r.s(CRYPT64, 16)}${r.s(CRYPT64, 43)}"
    if scheme == "sha512":
        return f"$6${r.s(CRYPT64, r.choice([8, 16]))}${r.s(CRYPT64, 86)}"
    if scheme == "sha512r":
        return f"$6$rounds=656000${r.s(CRYPT64, 16)}${r.s(CRYPT64, 86)}"
    if scheme == "bcrypt":
        return f"${r.choice(['2a', '2b', '2y'])}${r.choice(['05', '10', '12'])}${r.s(BCRYPT64, 53)}"
    if scheme == "yescrypt":
        return f"$y$j9T${r.s(CRYPT64, 22)}${r.s(CRYPT64, 43)}"
    if scheme == "argon2":
        salt = base64.b64encode(bytes(r.getrandbits(8) for _ in range(16))).decode().rstrip("=")
        digest = base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode().rstrip("=")
        return f"${r.choice(['argon2i', 'argon2id'])}$v=19$m=65536,t=3,p=4${salt}${digest}"
    if scheme == "ssha":
        raw = bytes(r.getrandbits(8) for _ in range(24))
        return "{SSHA}" + base64.b64encode(raw).decode()
    if scheme == "phpass":
        return f"$P$B{r.s(CRYPT64, 30)}"
    raise ValueError(scheme)
