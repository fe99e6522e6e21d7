"""Masking secrets in free text the tool prints that is not a finding's snippet: error
messages that quote git (a ref or path named like a token) or a revision the user typed."""

from __future__ import annotations

import re

# When the rules cannot be loaded: every long run of token characters that is not a
# hexadecimal object id (error messages name commits; a secret has more than hex digits).
_TOKENISH = re.compile(r"[A-Za-z0-9_\-+/=.]{20,}")
_HEX = re.compile(r"[0-9a-fA-F]{7,64}")


def mask_secrets(text: str) -> str:
    """`text` with each secret the built-in secret rules find replaced by
    `[REDACTED:rule-id]`; if they cannot be loaded, with every long token masked (fail
    closed: better a masked word too many than a printed secret)."""
    try:
        from wukong_lint.engine.loader import load_rules
        from wukong_lint.engine.masking.redactor import Redactor

        # patterns only (docs and examples would parse every rule file: seconds)
        return Redactor(load_rules((), details=False)).text(text)
    except Exception:  # the rules themselves are broken: mask blindly
        return _TOKENISH.sub(lambda m: m[0] if _HEX.fullmatch(m[0]) else "****", text)


def mask_output(text: str) -> str:
    """`text` for a command that prints what files hold (`anchors hints`, `anchors compact`),
    masked with the built-in secret rules."""
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.masking.masker import masker_for

    return masker_for(load_rules(details=False)).mask(text)
