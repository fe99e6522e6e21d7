"""Derived texts: what a text says once its encoded spans are decoded and its split values
joined, so that the secret rules can search it as well as the text itself.

Owns the bounded decoders (base64/base64url, hex, URL-encoding, JSON/Python/JS string escapes,
HTML entities: `codecs.py`, decoding base64 and hex only where an encoded keyword is:
`gate.py`), the structure-aware joins (notebook string lines, shell and YAML
line continuations, implicit or `+` string concatenation, YAML block scalars: `joins.py`) and
the driver that applies them recursively to a small depth and maps every offset of a derived
text back to the span of the text it came from (`derive.py`). Pure functions of a text (and
its path); knows nothing of rules or findings (the engine's scan runs the rules on the views).
May import only `util`.
"""

from wukong_lint.decode.derive import MAX_DEPTH, EncodedKeywords, Piece, View, views

__all__ = ["MAX_DEPTH", "EncodedKeywords", "Piece", "View", "views"]
