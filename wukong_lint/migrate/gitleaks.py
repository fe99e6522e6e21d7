"""`rules import-gitleaks`: a gitleaks config (.gitleaks.toml) -> one wukong-lint rule file per
rule, and a report of what could not be converted.

Converted: `id`, `description`, `regex`, `secretGroup`, `entropy`, `keywords`, `path` (a
regex on the path, as an allow entry that must *not* match... see below), `tags`, per-rule
`allowlist` / `[[rules.allowlists]]` (`regexes` with `regexTarget` secret|match|line, `paths`,
`stopwords`) and the global `[allowlist]` / `[[allowlists]]` (with `targetRules`).
Not convertible, and reported: rules without a regex (path-only rules), rules without keywords
(wukong-lint's prefilter needs them) unless their `path` has a glob form (they then run on
every file it names), allowlist `commits`, `condition = "AND"` over several
kinds of criteria, `[extend]` (gitleaks' own defaults: wukong-lint's built-in rules cover the
same providers), regexes the `regex` module rejects.

A rule's `path` (a regex on the path: the only files it applies to) becomes `paths` globs
when it has an exact glob form (migrate/gitleaks_paths.py), else an allow entry on the path
that lets through only the paths the regex finds a match in.

Every converted rule gets a generated example line, checked against the whole converted rule
(its regex, entropy, allowlists and path limit), and a no_match example, so `wukong-lint
rules test DIR` runs. When no generated line passes, the rule is written with a placeholder
example and the tag `todo-examples`: `rules test` lists it as an example to write, and fails
on it only with `--strict`. Python's warnings about a pattern become notes of the rule.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import warnings
from typing import Any, NamedTuple

from wukong_lint.util.errors import UsageError

ID_CLEAN = re.compile(r"[^a-z0-9_-]+")
TODO_EXAMPLE = "TODO: write a line that this rule must match"
TODO_TAG = "todo-examples"  # examples to write by hand: `rules test` fails only with --strict
NO_MATCH_CANDIDATES = ("value = nothing to see here", "# no credential on this line", "x = 1")
SEED_TRIES = 24


class Result(NamedTuple):
    written: list[str]
    skipped: list[tuple[str, str]]  # (rule id, reason)
    notes: list[tuple[str, str]]  # (rule id or "config", what was dropped or needs care)

    def messages(self) -> list[str]:
        lines = [f"{len(self.written)} rule(s) written."]
        if self.skipped:
            lines.append(f"{len(self.skipped)} rule(s) not converted:")
            lines += [f"  {rule}: {reason}" for rule, reason in self.skipped]
        if self.notes:
            lines.append("Notes:")
            lines += [f"  {rule}: {note}" for rule, note in self.notes]
        return lines


def rule_id(gitleaks_id: str) -> str:
    cleaned = ID_CLEAN.sub("-", gitleaks_id.lower()).strip("-_") or "rule"
    if not cleaned[0].isalnum():
        cleaned = "r" + cleaned
    return f"gitleaks.{cleaned}"


def _allowlists(table: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    single = table.get("allowlist")
    if isinstance(single, dict):
        found.append(single)
    many = table.get("allowlists")
    if isinstance(many, list):
        found += [a for a in many if isinstance(a, dict)]
    return found


def _allow_entries(allowlist: dict[str, Any], notes: list[str]) -> list[Any]:
    entries: list[Any] = []
    target = {"secret": "secret", "match": "match", "line": "line", "": "secret"}.get(
        str(allowlist.get("regexTarget", "")).lower()
    )
    if target is None:
        notes.append(f"allowlist regexTarget {allowlist.get('regexTarget')!r} unknown: used secret")
        target = "secret"
    kinds = [k for k in ("regexes", "paths", "stopwords", "commits") if allowlist.get(k)]
    if str(allowlist.get("condition", "OR")).upper() == "AND" and len(kinds) > 1:
        notes.append(
            f"allowlist condition AND over {', '.join(kinds)} cannot be expressed "
            "(wukong-lint allow entries are alternatives): dropped"
        )
        return []
    for pattern in allowlist.get("regexes", []) or []:
        if _usable(pattern, notes):
            entries.append(pattern if target == "secret" else {"regex": pattern, "target": target})
    for pattern in allowlist.get("paths", []) or []:
        if _usable(pattern, notes):
            entries.append({"regex": pattern, "target": "path"})
    for word in allowlist.get("stopwords", []) or []:
        entries.append("(?i)" + re.escape(str(word)))
    if allowlist.get("commits"):
        notes.append("allowlist commits cannot be converted (use a baseline): dropped")
    return entries


def _usable(pattern: Any, notes: list[str]) -> bool:
    """Whether an allowlist regex compiles (within the size limit): one that does not is
    dropped with a note, so that the pack written loads."""
    import regex

    from wukong_lint.engine.regex_budget import check

    try:
        check(str(pattern))
        regex.compile(str(pattern), regex.VERSION0)
    except (regex.error, ValueError, TypeError) as err:
        notes.append(f"allowlist regex {str(pattern)[:60]!r} dropped: {err}")
        return False
    return isinstance(pattern, str)


# --- example generation: a string that a (simple) regex matches ---------------------------

_ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def _sample(parsed: Any, rng: random.Random, depth: int = 0) -> str:
    import re._constants as c  # type: ignore[import-not-found]

    if depth > 40:
        raise ValueError("too deep")
    out = []
    for op, arg in parsed:
        if op is c.LITERAL:
            out.append(chr(arg))
        elif op is c.NOT_LITERAL:
            out.append("a" if chr(arg) != "a" else "b")
        elif op is c.ANY:
            out.append(rng.choice(_ALPHABET))
        elif op is c.IN:
            out.append(_sample_class(arg, rng))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, high, item = arg
            count = max(low, min(high, low if low else 1))
            if low == 0 and high > 0:
                count = 1
            count = max(count, min(high, 20)) if low >= 8 or high == c.MAXREPEAT else count
            count = min(count, 64) if high == c.MAXREPEAT else count
            count = max(low, min(count, high))
            out += [_sample(item, rng, depth + 1) for _ in range(count)]
        elif op is c.SUBPATTERN:
            out.append(_sample(arg[-1], rng, depth + 1))
        elif op is c.BRANCH:
            out.append(_sample(arg[1][0], rng, depth + 1))
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue
        elif op is getattr(c, "ATOMIC_GROUP", None):
            out.append(_sample(arg, rng, depth + 1))
        else:
            raise ValueError(f"unsupported {op}")
    return "".join(out)


def _sample_class(items: Any, rng: random.Random) -> str:
    import re._constants as c  # type: ignore[import-not-found]

    choices: list[str] = []
    for op, arg in items:
        if op is c.NEGATE:
            return "Q" if all(o is not c.LITERAL or arg != ord("Q") for o, arg in items) else "~"
        if op is c.LITERAL:
            choices.append(chr(arg))
        elif op is c.RANGE:
            low, high = arg
            choices += [chr(x) for x in range(low, min(high, low + 60) + 1)]
        elif op is c.CATEGORY:
            name = str(arg)
            if "DIGIT" in name and "NOT" not in name:
                choices += list("0123456789")
            elif "WORD" in name and "NOT" not in name:
                choices += list(_ALPHABET)
            elif "SPACE" in name and "NOT" not in name:
                choices.append(" ")
            else:
                choices.append("-")
    return rng.choice(choices) if choices else "a"


def example_lines(pattern: str, keywords: list[str], tries: int = SEED_TRIES) -> list[str]:
    """Distinct lines the regex matches (checked with the `regex` module), one per seed that
    gives a new one."""
    import warnings

    import regex

    try:
        import re._parser as parser  # type: ignore[import-not-found]
    except ImportError:  # Python 3.10
        import sre_parse as parser  # type: ignore[no-redef]
    with warnings.catch_warnings():  # reported once, as a note, by convert()
        warnings.simplefilter("ignore")
        try:
            compiled = regex.compile(pattern)
            parsed = parser.parse(pattern)
        except Exception:
            return []
    lines: list[str] = []
    for seed in range(tries):
        try:
            text = _sample(parsed, random.Random(seed))
        except (ValueError, TypeError, IndexError, RecursionError):
            return lines
        line = f"value = {text}"
        has_keyword = not keywords or any(k.lower() in line.lower() for k in keywords)
        if "\n" not in line and has_keyword and compiled.search(line) and line not in lines:
            lines.append(line)
    return lines


def make_example(pattern: str, keywords: list[str]) -> str | None:
    """A line the regex matches, or None."""
    lines = example_lines(pattern, keywords, tries=8)
    return lines[0] if lines else None


def _checked_examples(rule: dict[str, Any]) -> dict[str, list[str]] | None:
    """Examples that pass the whole rule (entropy, allowlists, path limit), or None."""
    from wukong_lint.engine.schema import RegexRule
    from wukong_lint.engine.validate import to_compiled
    from wukong_lint.runner.examples import example_problems

    no_match = None
    for line in example_lines(rule["regex"], rule["keywords"]):
        for candidate in [no_match] if no_match else NO_MATCH_CANDIDATES:
            examples = {"match": [line], "no_match": [candidate]}
            try:
                model = RegexRule.model_validate({**rule, "examples": examples})
            except Exception:
                return None
            problems = example_problems(to_compiled(model, "import"))
            if not problems:
                return examples
            if not any("should not match" in p for p in problems):
                no_match = candidate  # the no_match line is fine: only the match line failed
                break
    return None


def _exact_path_globs(pattern: Any) -> list[str] | None:
    if not pattern:
        return None
    from wukong_lint.migrate.gitleaks_paths import path_globs

    return path_globs(str(pattern))


def _path_limit(pattern: str, out: dict[str, Any], notes: list[str]) -> None:
    """Keep a gitleaks `path` limit: as globs when exact, else as an allow entry on the
    path that matches the paths where the regex finds nothing."""
    from wukong_lint.migrate.gitleaks_paths import path_globs

    globs = path_globs(pattern)
    if globs:
        out["paths"] = globs
        return
    flags = ""
    head = re.match(r"\(\?([aiLmsux]+)\)", pattern)
    if head:  # global inline flags must stay at the start
        flags, pattern = f"(?{head.group(1)})", pattern[head.end() :]
    out.setdefault("allow", []).append(
        {"regex": f"{flags}\\A(?!.*(?:{pattern}))", "target": "path"}
    )
    notes.append(
        f"`path = {pattern!r}` has no glob form: kept as an allow entry on the path "
        "(the rule reports only in paths the regex matches)"
    )


# --- conversion -----------------------------------------------------------------------------


def _parse_for_warnings(pattern: str) -> None:
    """Parse with Python's own parser too (the example generator uses it): its warnings
    (`possible nested set`, ...) are the ones worth a note."""
    try:
        import re._parser as parser  # type: ignore[import-not-found]
    except ImportError:  # Python 3.10
        import sre_parse as parser  # type: ignore[no-redef]
    with contextlib.suppress(Exception):  # the `regex` module's verdict is the one that counts
        parser.parse(pattern)


def convert(config: dict[str, Any]) -> tuple[list[dict[str, Any]], Result]:
    import regex

    from wukong_lint.engine.regex_budget import check as check_size

    skipped: list[tuple[str, str]] = []
    notes: list[tuple[str, str]] = []
    if config.get("extend"):
        notes.append(
            (
                "config",
                "[extend] (gitleaks' default rules or another file) is not imported: "
                "wukong-lint's built-in rules cover the common providers",
            )
        )
    global_lists = _allowlists(config)
    rules_out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, rule in enumerate(config.get("rules", []) or [], 1):
        if not isinstance(rule, dict):
            skipped.append((f"rules[{number}]", "not a table"))
            continue
        gid = str(rule.get("id") or f"rule-{number}")
        if not rule.get("regex"):
            why = "path-only rule (no regex)" if rule.get("path") else "no regex"
            skipped.append((gid, why))
            continue
        keywords = [str(k).lower() for k in rule.get("keywords", []) or [] if str(k).strip()]
        if not keywords and not _exact_path_globs(rule.get("path")):
            # a rule limited to some files (`path`) runs on all of them without keywords
            skipped.append((gid, "no keywords (wukong-lint runs a regex only where one occurs)"))
            continue
        pattern = str(rule["regex"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                check_size(pattern)  # (?:a{60000}){60000} must not reach the compiler
                compiled = regex.compile(pattern, regex.VERSION0)
                _parse_for_warnings(pattern)
            except (regex.error, ValueError) as err:
                skipped.append((gid, f"regex not supported: {err}"))
                continue
        pattern_notes = sorted({f"regex: {w.message}" for w in caught})
        rid = rule_id(gid)
        if rid in seen:
            skipped.append((gid, f"duplicate id {rid}"))
            continue
        seen.add(rid)
        rule_notes: list[str] = list(pattern_notes)
        allow: list[Any] = []
        for allowlist in _allowlists(rule):
            allow += _allow_entries(allowlist, rule_notes)
        for allowlist in global_lists:
            targets = allowlist.get("targetRules")
            if targets and gid not in targets:
                continue
            allow += _allow_entries(allowlist, rule_notes)
        out: dict[str, Any] = {
            "id": rid,
            "category": "secret",
            "severity": "high",
            "kind": "regex",
            "message": str(rule.get("description") or gid).strip().splitlines()[0][:200],
            "keywords": keywords,
            "regex": pattern,
        }
        group = rule.get("secretGroup")
        if isinstance(group, int) and 0 <= group <= compiled.groups:
            out["secret_group"] = group
        elif group:
            rule_notes.append(f"secretGroup {group!r} is not a group of the regex: dropped")
        if rule.get("entropy"):
            out["entropy"] = min(8.0, float(rule["entropy"]))
        if allow:
            out["allow"] = allow
        if rule.get("path"):
            _path_limit(str(rule["path"]), out, rule_notes)
        if rule.get("tags"):
            out["tags"] = [str(t) for t in rule["tags"]]
        docs = f"Imported from gitleaks rule `{gid}`."
        if rule.get("path"):
            docs += f" gitleaks limited it to paths matching `{rule['path']}`."
        out["docs"] = docs
        examples = _checked_examples(out)
        if examples is None:
            rule_notes.append(
                "no generated example passes the rule (entropy, allowlists, path): "
                f"write one (tagged {TODO_TAG}; `rules test --strict` fails on it)"
            )
            out["tags"] = [*out.get("tags", []), TODO_TAG]
            examples = {"match": [TODO_EXAMPLE], "no_match": [NO_MATCH_CANDIDATES[0]]}
        out["examples"] = examples
        notes += [(rid, n) for n in rule_notes]
        rules_out.append(out)
    return rules_out, Result([], skipped, notes)


def import_file(path: str, out_dir: str) -> Result:
    from wukong_lint.config.project import read_toml

    if not os.path.isfile(path):
        raise UsageError(f"gitleaks config not found: {path}")
    config = read_toml(path)
    if not isinstance(config.get("rules", []), list):
        raise UsageError(f"{path}: 'rules' must be an array of tables ([[rules]])")
    try:
        rules, result = convert(config)
    except (TypeError, ValueError, AttributeError, KeyError, RecursionError) as err:
        # a shape convert does not expect: the config's fault, said in one line
        raise UsageError(f"{path}: malformed gitleaks config: {err}") from None
    if not rules and not result.skipped:
        raise UsageError(f"{path}: no [[rules]] found")
    import yaml

    from wukong_lint.util.fsutil import atomic_write_text

    try:
        os.makedirs(out_dir, exist_ok=True)
        for rule in rules:
            target = os.path.join(out_dir, rule["id"].split(".", 1)[1] + ".yaml")
            text = yaml.safe_dump(rule, sort_keys=False, allow_unicode=True, width=1000)
            atomic_write_text(target, text)
            result.written.append(target)
    except OSError as err:
        raise UsageError(f"cannot write to {out_dir}: {err.strerror or err}") from None
    return result
