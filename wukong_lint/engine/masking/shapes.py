"""Masking secrets in the text that reports show."""

from __future__ import annotations

MASK = "****"
SNIPPET_WIDTH = 160


def public_prefix(secret: str, keywords: tuple[str, ...]) -> int:
    """Length of the provider prefix a secret starts with (`ghp_`, `xoxb-`): public, useful to
    recognise the token, and never more than a third of the secret."""
    lowered = secret.lower()
    best = max((len(k) for k in keywords if lowered.startswith(k)), default=0)
    return best if best <= len(secret) // 3 else 0


def mask_spans(line: str, spans: list[tuple[int, int, int]]) -> str:
    """Replace each (start, end, keep) span of `line` by its first `keep` characters and a
    mask. Spans may overlap and may reach outside the line (multi-line secrets)."""
    if not spans:
        return line
    if len(spans) == 1:  # (most snippets: the loop below with one span, without its lists)
        start, end, keep = spans[0]
        keep = max(0, keep - max(0, -start))
        start, end = max(0, start), min(len(line), end)
        if start >= end:
            return line
        return line[:start] + line[start : start + min(keep, end - start)] + MASK + line[end:]
    merged: list[list[int]] = []
    # at one start, the span showing a provider prefix wins (a generic rule's span of the
    # same secret keeps nothing)
    for start, end, keep in sorted(spans, key=lambda s: (s[0], -s[2], s[1])):
        keep = max(0, keep - max(0, -start))  # the prefix may lie on an earlier line
        start, end = max(0, start), min(len(line), end)
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, keep])
    out, pos = [], 0
    for start, end, keep in merged:
        out.append(line[pos:start])
        out.append(line[start : start + min(keep, end - start)] + MASK)
        pos = end
    out.append(line[pos:])
    return "".join(out)


def clip(line: str, column: int, width: int = SNIPPET_WIDTH) -> str:
    """At most `width` characters of `line` around the 0-based `column`, trimmed."""
    if len(line) <= width:
        return line.strip()
    start = max(0, min(column - width // 4, len(line) - width))
    text = line[start : start + width].strip()
    return ("…" if start > 0 else "") + text + ("…" if start + width < len(line) else "")


# --- credential shapes masked beyond the secret rules (masking.py) -------------------------
# Data here, in a module every scan imports anyway: the rule loader hands the joined pattern
# to the compiled-pattern cache (engine/patterns.py) on every run.

_NOT_VALUE = r"""\s'"`<>"""
# Credential shapes masked wherever they appear; the group named `v` is masked.
SHAPES = (
    # URL user info: scheme://user:password@host (the password), scheme://TOKEN@host
    r"\b[a-z][a-z0-9+.\-]{1,20}://[^\s/@:'\"`<>]{0,200}:(?P<v>[^\s/@'\"`<>]{1,300})@",
    r"\b[a-z][a-z0-9+.\-]{1,20}://(?P<v>[\w\-.~]{16,300})@",
    # curl/wget/httpie style: -u user:password, --user=user:password, --proxy-user …
    r"(?:^|[\s'\"])(?:-u|-U|--user|--proxy-user|--http-user|--auth|-a)(?:[ \t]*=?[ \t]*|)"
    r"['\"]?[^\s:'\"]{0,200}:(?P<v>[^\s'\"]{1,300})",
    # --password=X, --token X, --api-key X, mysql -pX
    r"(?i)(?:^|[\s'\"])--?(?:password|passwd|pass|pwd|token|secret|api[-_]?key|access[-_]token"
    r"|auth[-_]token|client[-_]secret|http-password|proxy-password)(?:[ \t]*=[ \t]*|[ \t]+)"
    r"['\"]?(?P<v>[^" + _NOT_VALUE + r"]{1,300})",
    r"\bmysql\w*\b[^\n|;&]{0,200}?[ \t]-p(?P<v>[^\s'\"-][^\s'\"]{0,300})",
    # headers: Authorization: Bearer X (the scheme stays), Cookie, API keys
    r"(?i)\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?:(?:bearer|basic|token|digest|negotiate|bot|apikey|sso-key|key)[ \t]+)?"
    r"(?P<v>[^" + _NOT_VALUE + r",;]{1,2000})",
    r"(?i)\b(?:x-api-key|api-key|apikey|x-auth-token|x-access-token|private-token|x-token"
    r"|x-amz-security-token|x-goog-api-key|ocp-apim-subscription-key)[\"']?[ \t]*[:=][ \t]*"
    r"[\"']?(?P<v>[^" + _NOT_VALUE + r",;]{1,2000})",
    r"(?i)\b(?:set-)?cookie[\"']?[ \t]*:[ \t]*(?P<v>[^'\"`\r\n]{1,4000})",
)
# One pass for all shapes; each alternative's only group is its value. Compiled by the
# regex module through the rules' compiled-pattern cache: the loader prepares it with the
# rules' patterns, so a run with findings does not recompile it.
SHAPES_PATTERN = "(?i)" + "|".join(f"(?:{s})" for s in SHAPES).replace("(?i)", "").replace(
    "(?P<v>", "("
)
