"""Line patterns for JS/TS texts not parsed as a tree (huge or minified: js_syntax.too_big): a
narrower stand-in for the checks of code_js.py, one pattern per check, each requiring a value
built at run time (a template literal with `${`, a string joined with `+`) right in the sink's
arguments."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wukong_lint.engine.matchers import Hit

# a string literal joined with +, or a template literal with a substitution
_BUILT = (
    r"""(?:`[^`]{0,2000}?\$\{|(?:"[^"\n]{0,500}"|'[^'\n]{0,500}')\s*\+\s*[\w$(]"""
    r"""|[\w$.]{1,80}\s*\+\s*(?:"|'))"""
)
PATTERNS: dict[str, re.Pattern[str]] = {
    "sql": re.compile(
        r"""\.(?:query|execute|raw|whereRaw|orderByRaw|joinRaw|\$queryRawUnsafe|\$executeRawUnsafe)\(\s*"""
        r"""(?:`\s*(?:select|insert|update|delete|with)\b[^`]{0,2000}?\$\{|["'](?:select|insert|update|delete|with)\b[^"'\n]{0,500}["']\s*\+)""",
        re.IGNORECASE,
    ),
    "shell": re.compile(
        r"""(?:(?<![\w.$])|\b(?:child_process|childProcess|cp)\.)exec(?:Sync)?\(\s*""" + _BUILT
    ),
    "html": re.compile(
        r"""\.(?:innerHTML|outerHTML)\s*\+?=(?!=)\s*"""
        + _BUILT
        + r"""|\bdocument\.write(?:ln)?\(\s*"""
        + _BUILT
        + r"""|\.insertAdjacentHTML\(\s*["'][\w-]+["']\s*,\s*"""
        + _BUILT
    ),
    "eval": re.compile(r"""(?<![\w.$])(?:eval|Function)\(\s*""" + _BUILT),
    "stack-trace": re.compile(
        r"""\bres(?:\.status\([^)]{0,20}\))?\.(?:send|json|end|write)\([^;\n]{0,200}?\b(?:err|error|e)\.stack\b"""
    ),
    "error-text": re.compile(
        r"""\bres(?:\.status\([^)]{0,20}\))?\.(?:send|json|end)\(\s*(?:err|error)(?:\.message)?\s*\)"""
    ),
    "environment": re.compile(
        r"""\bres(?:\.status\([^)]{0,20}\))?\.(?:send|json)\(\s*process\.env\s*\)"""
    ),
}


# words one of which a pattern's match holds: a text without them is not searched
WORDS: dict[str, tuple[str, ...]] = {
    "sql": ("query(", "execute(", "aw(", "RawUnsafe("),
    "shell": ("exec(", "execSync("),
    "html": ("innerHTML", "outerHTML", "document.write", "insertAdjacentHTML"),
    "eval": ("eval(", "Function("),
    "stack-trace": (".stack",),
    "error-text": ("res.",),
    "environment": ("process.env",),
}


def fallback_hits(check: str, text: str) -> Iterator[Hit]:
    pattern = PATTERNS.get(check)
    if pattern is None or not any(word in text for word in WORDS.get(check, ("",))):
        return
    for match in pattern.finditer(text):
        end = text.find("\n", match.start())
        end = len(text) if end < 0 else end
        # one finding per line, at most a few hundred characters of it in the report
        stop = min(end, match.end() + 80)
        yield Hit(match.start(), stop, match.start(), stop)
