"""Vague anchor titles (seed 000 最佳实践 锚点命名): `[D001] 框架决策` or `[C003] 规则` say
which drawer the anchor is in, not what it decided. A title is vague when, once its generic
words (decision, rule, 决策, 规则 ...) are taken out, what is left is too little to name a
choice: fewer than `min_cjk` CJK characters and fewer than `min_words` other words."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+#-]*")


def vague(title: str, generic: list[str], min_cjk: int, min_words: int) -> bool:
    text = title.casefold()
    for word in sorted(generic, key=len, reverse=True):  # longest first: 决策 before 决
        word = word.casefold()
        if word.isascii():
            text = re.sub(rf"\b{re.escape(word)}s?\b", " ", text)
        else:
            text = text.replace(word, " ")
    cjk = len(_CJK.findall(text))
    words = len(_WORD.findall(text))
    return cjk < min_cjk and words < min_words
