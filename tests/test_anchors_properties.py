"""Property tests of `anchors fmt` on generated anchors files (random anchors in both forms,
sections, comments with example anchors, code fences, user blocks, unicode): fmt is
idempotent, USER_BLOCK bytes are unchanged, and no word outside machine blocks is lost."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_anchors import user_blocks, words_outside_machine_blocks
from wukong_lint.anchors.fmt import SECTION_HEADINGS, fmt_text
from wukong_lint.anchors.parse import parse

WORD_CHARS = "abcxyzABCXYZ0123456789中文决策锚点脱敏éßΩ_-"
word = st.text(alphabet=WORD_CHARS, min_size=1, max_size=8)
# free text may hold markdown punctuation, brackets and IDs, emoji and wide characters
phrase = st.lists(
    st.one_of(word, st.sampled_from(["[D001]", "[C002]", "**", "`x`", "|", "✅", "：", "*", "#"])),
    min_size=1,
    max_size=8,
).map(" ".join)
anchor_id = st.builds(
    lambda p, n: f"{p}{n:03d}",
    st.sampled_from(["D", "C", "I", "P", "M", "U", "CK", "DN"]),
    st.integers(0, 30),
)
status = st.sampled_from(["✅ 生效", "生效", "active", "⚠️ 待验证", "Deprecated", "maybe", "已废弃"])
date = st.sampled_from(["2024-01-15", "2024/1/5", "2024.12.31", "2024年1月5日", "2024-02-30", "x"])
label = st.sampled_from(
    ["Decision (决策)", "decision（决策）", "决策", "Why", "理由", "Alternatives (备选方案)",
     "Impact", "影响范围", "Verification (验证方式)", "Rollback", "回滚方式", "Notes"]
)  # fmt: skip
blank = st.sampled_from(["", "\n", "\n\n", "   \n"])


@st.composite
def full_anchor(draw) -> str:
    level = draw(st.sampled_from(["#", "##", "###"]))  # level-1 anchors too (issue 15)
    lines = [f"{level} [{draw(anchor_id)}] {draw(phrase)}", draw(blank)]
    if draw(st.booleans()):
        lines.append(f"**状态**: {draw(status)}")
    if draw(st.booleans()):
        lines.append(f"**日期**：{draw(date)}")
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            lines += [f"{level}# {draw(label)}", draw(phrase)]
        else:
            lines.append(f"**{draw(label)}**: {draw(phrase)}")
        lines.append(draw(blank))
    if draw(st.booleans()):
        lines.append("---")
    return "\n".join(lines)


@st.composite
def compact_anchor(draw) -> str:
    lines = [f"[{draw(anchor_id)}] {draw(phrase)}"]
    for _ in range(draw(st.integers(1, 3))):
        lines.append(
            f"- {draw(st.sampled_from(['Why', 'Impact', 'Rollback', 'why']))}: {draw(phrase)}"
        )
    return "\n".join(lines) + "\n"


user_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="<>"),
    max_size=40,
)
user_block = st.lists(
    st.one_of(user_text, blank, st.just("## [D005] in a user block")), max_size=4
).map(
    lambda parts: "<!-- USER_BLOCK_START -->\n" + "\n".join(parts) + "\n<!-- USER_BLOCK_END -->\n"
)
comment = st.one_of(
    phrase.map(lambda p: f"<!-- {p} -->"),
    st.builds(lambda a: f"<!--\n## [D999] example\n{a}\n-->", phrase),
)
fence = st.builds(lambda a: f"```\n{a}\n\n\n## [D001] not an anchor\n```", phrase)
section = st.sampled_from(["## 决策 (Decisions)", "## Constraints", "## 问题", "### Patterns"])
piece = st.one_of(
    full_anchor(), compact_anchor(), user_block, comment, fence, section, phrase, blank
)


@st.composite
def document(draw) -> str:
    parts = []
    if draw(st.booleans()):
        parts.append(f"# {draw(phrase)}\n")
    parts += draw(st.lists(piece, max_size=12))
    if draw(st.booleans()):
        parts.append("<!-- MACHINE_BLOCK_START -->\n<!-- MACHINE_BLOCK_END -->")
    return "\n".join(parts)


pytestmark = pytest.mark.slow  # 600 generated files

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(document())
def test_fmt_idempotent_lossless_user_blocks(text):
    once = fmt_text(text)
    if not once.ok:  # only broken markers make fmt refuse; the generator never breaks them
        raise AssertionError(once.refused)
    twice = fmt_text(once.text)
    assert twice.ok and twice.text == once.text
    assert user_blocks(once.text) == user_blocks(text)
    before, after = parse(text), parse(once.text)
    # the only words fmt may add are the canonical headings of the sections it creates for
    # misfiled anchors whose type had no section
    created = Counter(s.title for s in after.sections) - Counter(s.title for s in before.sections)
    canonical = {title for pair in SECTION_HEADINGS.values() for title in pair}
    assert set(created) <= canonical
    assert words_outside_machine_blocks(once.text) == words_outside_machine_blocks(
        text
    ) + words_outside_machine_blocks(" ".join(created.elements()))
    assert sorted(a.id for a in after.anchors) == sorted(a.id for a in before.anchors)
    # moves never file an anchor under the wrong section
    assert misfiled(after) <= misfiled(before)


def misfiled(doc) -> int:
    return sum(1 for a in doc.anchors if a.type and a.section and a.type != a.section)


SECTION_TITLES = {
    "D": ["## 决策 (Decisions)", "## Decisions"],
    "C": ["## 约束 (Constraints)", "## Constraints"],
    "I": ["## 接口", "## Interfaces"],
    "P": ["## 问题 (Problems)", "## Anti-patterns"],
    "M": ["## 模式", "## Patterns"],
    "U": ["## 偏好 (Preferences)", "## Preferences"],
    "CK": ["## 检查清单", "## Checklists"],
    "DN": ["## 领域笔记", "## Domain notes"],
}
between = st.sampled_from(["", "*暂无锚点*\n", "<!-- 待整理 -->\n", "some text [D001]\n", "---\n"])


@st.composite
def sectioned_document(draw) -> str:
    """A tidy anchors file whose compact anchors are filed under random sections."""
    kinds = draw(st.lists(st.sampled_from(sorted(SECTION_TITLES)), min_size=1, max_size=5,
                          unique=True))  # fmt: skip
    parts = ["# 锚点 (Anchors)\n"]
    for kind in kinds:
        parts.append(draw(st.sampled_from(SECTION_TITLES[kind])) + "\n")
        parts.append(draw(between))
        parts += draw(st.lists(compact_anchor(), max_size=4))
        parts.append(draw(between))
    if draw(st.booleans()):
        parts.append("<!-- USER_BLOCK_START -->\nnotes [C009]\n<!-- USER_BLOCK_END -->\n")
    return "\n".join(parts)


@PROPERTY
@given(sectioned_document())
def test_fmt_files_every_compact_anchor_under_its_type(text):
    once = fmt_text(text)
    assert once.ok, once.refused
    assert fmt_text(once.text).text == once.text
    before, after = parse(text), parse(once.text)
    assert misfiled(after) == 0  # each anchor now sits under the section of its type
    assert sorted(a.id for a in after.anchors) == sorted(a.id for a in before.anchors)
    assert user_blocks(once.text) == user_blocks(text)
    created = Counter(s.title for s in after.sections) - Counter(s.title for s in before.sections)
    assert words_outside_machine_blocks(once.text) == words_outside_machine_blocks(
        text
    ) + words_outside_machine_blocks(" ".join(created.elements()))
