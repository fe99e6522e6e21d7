"""Why a rule's example did not behave (`rules test`): the step of the scan that dropped a
`match` example (the rule's paths, its keywords, its pattern, the length or entropy
threshold, a named filter, an allow pattern, an inline ignore, or a later stage), the rules
that fired on it instead, and where a `no_match` example fired. Run only for an example
that failed: the scan itself is not instrumented.

What the explanation names is the rule's own settings and positions in the example, never
the candidate's text (an example is fake, but the same words reach reports of real rules).
"""

from __future__ import annotations

from typing import Any

from wukong_lint.engine.filters import FILTERS, shannon_entropy

MAX_CANDIDATES = 3  # pattern matches explained per example


def why_not_matched(rule: Any, text: str, path: str, findings: list[Any],
                    others: Any = None) -> str:  # fmt: skip
    """Why a `match` example gave no finding of `rule`."""
    reasons = [_first_drop(rule, text, path, findings)]
    instead = _instead(rule, text, path, others)
    if instead:
        reasons.append(f"fired instead: {instead}")
    return "; ".join(reasons)


def _first_drop(rule: Any, text: str, path: str, findings: list[Any]) -> str:
    if any(f.suppressed for f in findings):
        by = next(f.suppressed_by for f in findings if f.suppressed) or "a suppression"
        return f"found, then suppressed ({by}: the example carries an ignore comment?)"
    if not rule.applies_to_path(path):
        return f"the rule's paths ({', '.join(rule.paths)}) do not take the example path {path!r}"
    lowered = text.lower()
    if rule.keywords and not any(k.lower() in lowered for k in rule.keywords):
        return f"none of its keywords ({', '.join(rule.keywords)}) occurs in the example"
    if rule.kind != "regex":
        return f"its keywords occur, but the `{rule.kind}` check found nothing to report"
    try:
        matches = list(rule.pattern().finditer(text))
    except Exception as err:  # (a pattern that cannot run says so)
        return f"its pattern cannot run ({type(err).__name__})"
    matches = [m for m in matches if m.end() > m.start()]
    if not matches:
        return "its pattern matches nothing in the example"
    drops = [_drop(rule, m, text, path) for m in matches[:MAX_CANDIDATES]]
    kept = [d for d in drops if d]
    if len(kept) == len(drops):
        return "; ".join(kept)
    return ("the pattern matches and no filter drops it, so a later stage did: the "
            "documentation context, a more specific rule's overlap or a decoding gate")  # fmt: skip


def _drop(rule: Any, match: Any, text: str, path: str) -> str:
    """What drops one pattern match ('' when nothing of the rule's own does)."""
    from wukong_lint.engine.matchers import _allowed, _secret_span
    from wukong_lint.model import Source, Unit

    start, end = _secret_span(rule, match)
    secret = text[start:end]
    line = text.count("\n", 0, match.start()) + 1
    where = f"the candidate on line {line}"
    if len(secret) < rule.min_length:
        return f"{where} is {len(secret)} characters, under min_length {rule.min_length}"
    if rule.entropy is not None:
        entropy = shannon_entropy(secret)
        if entropy < rule.entropy:
            return f"{where} has entropy {abs(entropy):.2f}, under the rule's {rule.entropy}"
    for name in rule.filters:
        if FILTERS[name](secret):
            return f"filter `{name}` drops {where}"
    if rule.allow:
        unit = Unit(path, text, Source(kind="file"))
        for target, pattern in rule.allow:
            if _allowed(rule._replace(allow=((target, pattern),)), match, secret, unit):
                return f"allow pattern on the {target} ({pattern[:60]}) drops {where}"
    return ""


def _instead(rule: Any, text: str, path: str, others: Any) -> str:
    """The other rules that report the example (a more specific rule that won the overlap,
    or a rule the example was meant for)."""
    if others is None:
        return ""
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model import Source, Unit

    try:
        found, _ = scan_unit(others, Unit(path, text, Source(kind=rule.applies_to[0])))
    except Exception:
        return ""
    ids = sorted({f.rule_id for f in found if f.rule_id != rule.id and not f.suppressed})
    return ", ".join(ids[:5])


def why_matched(findings: list[Any]) -> str:
    """Where a `no_match` example fired."""
    shown = []
    for f in findings[:MAX_CANDIDATES]:
        shown.append(f"line {f.line}, column {f.column}: {f.snippet.strip()[:80]}")
    return "it fired at " + "; ".join(shown)
