"""Line patterns for Python text that does not parse (a diff fragment, Python 2 code): a
narrower stand-in for the syntax-tree checks of code_python.py, one pattern per check."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wukong_lint.engine.matchers import Hit

_FORMATTED = r"""(?:[rbu]?f["']|["'][^"'\n]*["']\s*(?:%|\+|\.format\())"""
PATTERNS: dict[str, re.Pattern[str]] = {
    "sql": re.compile(
        r"\.(?:execute|executemany|raw|extra)\(\s*" + _FORMATTED + r"""|\btext\(\s*[rbu]?f["']"""
    ),
    "shell": re.compile(
        r"\b(?:os\.system|os\.popen|commands\.getoutput|subprocess\.getoutput)\(\s*(?![\"'][^\"'\n]*[\"']\s*\))[^)\s]"
        r"|\bsubprocess\.\w+\((?![\"'][^\"'\n]*[\"']\s*,)[^\n]*shell\s*=\s*True"
    ),
    "shell-constant": re.compile(
        r"\b(?:os\.system|os\.popen)\(\s*[\"'][^\"'\n]*[\"']\s*\)"
        r"|\bsubprocess\.\w+\(\s*[\"'][^\"'\n]*[\"']\s*,[^\n]*shell\s*=\s*True"
    ),
    "eval": re.compile(r"(?<![\w.])(?:eval|exec)\(\s*(?![\"'][^\"'\n]*[\"']\s*\))[^)\s]"),
    "mark-safe": re.compile(r"\b(?:mark_safe|Markup)\(\s*(?![\"'][^\"'\n]*[\"']\s*\))[^)\s]"),
    "jinja2-autoescape": re.compile(r"\bEnvironment\([^\n]*autoescape\s*=\s*False"),
    "template-string": re.compile(r"\brender_template_string\(\s*" + _FORMATTED),
    "exception-text": re.compile(
        r"(?:jsonify|HttpResponse|JsonResponse|HTTPException)\([^\n]*\b(?:str|repr)\(e(?:rr|xc)?\)"
    ),
    "traceback": re.compile(
        r"(?:return|jsonify|HttpResponse|JsonResponse|HTTPException)\b[^\n]*traceback\.format_exc\("
    ),
    "environment": re.compile(
        r"(?:jsonify|HttpResponse|JsonResponse)\(\s*(?:dict\()?os\.environ\b(?![\[.])"
    ),
    "file-contents": re.compile(r"(?!x)x"),
    "debug-setting": re.compile(r"^DEBUG\s*=\s*True\b", re.MULTILINE),
    "debug-server": re.compile(r"\.run\([^\n]*\bdebug\s*=\s*True"),
}


def fallback_hits(check: str, text: str) -> Iterator[Hit]:
    pattern = PATTERNS.get(check)
    if pattern is None:
        return
    for match in pattern.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if text[line_start : match.start()].lstrip().startswith("#"):
            continue
        end = text.find("\n", match.start())
        end = len(text) if end < 0 else end
        yield Hit(match.start(), end, match.start(), end)
