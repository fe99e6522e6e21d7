"""A generated anchors file for the `anchors fmt` benchmark (bench/anchors.py, bench/all.py).

It mixes what real anchors files hold: full-form anchors (Chinese and English field headings,
tables, code fences), compact anchors, type sections, comments with example anchors, user
blocks, shuffled so fmt has to reorder. `generate(size)` returns the text; same seed, same
text.
"""

from __future__ import annotations

import random

TYPES = ["D", "C", "I", "P", "M", "U", "CK", "DN"]
SECTIONS = {"D": "决策 (Decisions)", "C": "约束 (Constraints)", "I": "接口 (Interfaces)",
            "P": "问题 (Problems)", "M": "模式 (Patterns)", "U": "偏好 (Preferences)",
            "CK": "检查清单 (Checklists)", "DN": "领域笔记 (Domain notes)"}  # fmt: skip
WORDS = [
    *[
        "使用",
        "Ollama",
        "作为本地",
        "LLM",
        "数据",
        "本地化",
        "成本",
        "合规",
        "缓存",
        "队列",
        "重试",
        "幂等",
        "脱敏",
    ],
    *[
        "cache",
        "queue",
        "retry",
        "idempotent",
        "sanitizer",
        "gateway",
        "postgres",
        "redis",
        "kafka",
    ],
    *["webhook", "latency", "budget", "rollout", "canary", "migration", "schema"],
]


def phrase(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def full_anchor(rng: random.Random, anchor_id: str) -> str:
    status = rng.choice(["✅ 生效", "生效", "⚠️ 待验证", "active", "❌ 已废弃"])
    date = f"2024/{rng.randint(1, 12)}/{rng.randint(1, 28)}"
    return f"""## [{anchor_id}] {phrase(rng, 6)}

**ID**: {anchor_id}
**日期**: {date}
**状态**: {status}

### Decision (决策)
{phrase(rng, 20)}

### alternatives（备选方案）
| 方案 | 优点 | 缺点 |
|------|------|------|
| {phrase(rng, 2)} | {phrase(rng, 3)} | {phrase(rng, 3)} |
| {phrase(rng, 2)} | {phrase(rng, 3)} | {phrase(rng, 3)} |

### Why (理由)
1. {phrase(rng, 10)}
2. {phrase(rng, 10)}

### Impact (影响范围)
- `src/{rng.choice(WORDS)}/`: {phrase(rng, 5)}

### Verification (验证方式)
```bash
pytest tests/test_{rng.randint(1, 999)}.py -v


```

### Rollback (回滚方式)
{phrase(rng, 12)}


---
"""


def compact_anchor(rng: random.Random, anchor_id: str) -> str:
    return (
        f"[{anchor_id}] {phrase(rng, 5)}\n- why: {phrase(rng, 8)}\n"
        f"- Impact: {phrase(rng, 4)}\n- Rollback: {phrase(rng, 5)}\n"
    )


def generate(size: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    per_type: dict[str, list[str]] = {t: [] for t in TYPES}
    numbers = {t: 0 for t in TYPES}
    total = 0
    while total < size:
        kind = rng.choice(TYPES)
        numbers[kind] += 1
        anchor_id = f"{kind}{numbers[kind]:03d}"
        full = rng.random() < 0.7
        text = full_anchor(rng, anchor_id) if full else compact_anchor(rng, anchor_id)
        if rng.random() < 0.05:
            text += f"\n<!-- 示例:\n## [{kind}999] example\n-->\n"
        per_type[kind].append(text)
        total += len(text.encode())
    parts = ["# 锚点 (Anchors)\n\n> generated for the benchmark\n"]
    for kind in TYPES:
        anchors = per_type[kind]
        rng.shuffle(anchors)  # fmt has to sort them
        parts.append(f"\n## {SECTIONS[kind]}\n\n")
        # full and compact anchors in separate runs, as a real file keeps them
        parts += [a for a in anchors if a.startswith("##")]
        parts.append("\n")
        parts += ["\n" + a for a in anchors if not a.startswith("##")]
    parts.append("\n<!-- USER_BLOCK_START -->\n## 用户笔记\n  keep   these   bytes  \n"
                 "<!-- USER_BLOCK_END -->\n")  # fmt: skip
    return "".join(parts)
