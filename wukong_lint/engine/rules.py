"""Compiled rules: the runtime form of validated YAML rules, plus the keyword prefilter.

These records hold only plain data so that the whole rule set can be cached with `marshal`
(no pickle, so a cache file can never run code) and loaded without pydantic or YAML.
Regexes are compiled lazily: a rule whose keywords never occur costs nothing.
"""

import fnmatch
import os
import re
from collections.abc import Iterable, Iterator
from itertools import compress
from operator import gt
from typing import Any, NamedTuple, cast

from wukong_lint.engine.patterns import compile_pattern
from wukong_lint.util.star_globs import star_match, star_only


class CompiledRule(NamedTuple):
    id: str
    category: str
    severity: int
    message: str
    kind: str
    applies_to: tuple[str, ...]
    source_file: str
    docs: str = ""
    keywords: tuple[str, ...] = ()
    regex: str = ""
    secret_group: int | str | None = None
    entropy: float | None = None
    min_length: int = 0
    filters: tuple[str, ...] = ()
    # (target, pattern) pairs
    allow: tuple[tuple[str, str], ...] = ()
    redact: bool = False
    multiline: bool = False
    lines_after: int = 0
    reach: int | None = None
    locate: str = "secret"
    paths: tuple[str, ...] = ()
    exclude_paths: tuple[str, ...] = ()
    enabled: bool = True
    tags: tuple[str, ...] = ()
    examples_match: tuple[str, ...] = ()
    examples_no_match: tuple[str, ...] = ()
    # the settings of a structured kind (validated by its model), plain data only
    params: dict[str, Any] | None = None
    after_keyword: str = ""  # a regex matched just after each keyword hit (regex rules)

    def pattern(self) -> Any:
        return compile_pattern(self.regex)

    def allow_patterns(self) -> tuple[tuple[str, Any], ...]:
        return tuple((target, compile_pattern(p)) for target, p in self.allow)

    def applies_to_path(self, path: str) -> bool:
        if not (self.paths or self.exclude_paths):
            return True
        if self.paths and not any(_glob(path, g) for g in self.paths):
            return False
        return not any(_glob(path, g) for g in self.exclude_paths)

    def to_data(self) -> tuple[Any, ...]:
        """Plain data for the marshal cache (marshal keeps tuples, strings and numbers)."""
        return tuple(self)

    @classmethod
    def from_data(cls, data: tuple[Any, ...]) -> "CompiledRule":
        return cls(*data)


def shell_file_type(path: str) -> str | None:
    """Which kind of file holding shell commands `path` names (see shell/files.py):
    "sh", "docker", "make", "github", "gitlab", "npm", or None. From the name alone, so that
    `command` rules skip every other file or diff without importing their matcher."""
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith((".sh", ".bash")):
        return "sh"
    if name == "dockerfile" or name.startswith("dockerfile.") or name.endswith(".dockerfile"):
        return "docker"
    if name in ("makefile", "gnumakefile") or name.endswith(".mk"):
        return "make"
    if name in (".gitlab-ci.yml", ".gitlab-ci.yaml"):
        return "gitlab"
    if name.endswith((".yml", ".yaml")) and "/.github/workflows/" in "/" + path:
        return "github"
    return "npm" if name == "package.json" else None


def _glob(path: str, pattern: str) -> bool:
    """A glob on the path and on its basename (so `*.pem` matches `a/b/c.pem`)."""
    shape = _GLOB_SHAPES.get(pattern)
    if shape is None:
        shape = _GLOB_SHAPES[pattern] = _glob_shape(pattern)
    form, text = shape
    # the usual shapes without fnmatch, which compiles a regex per pattern in every run
    if form == "literal":
        return path == text or ("/" not in text and path.rsplit("/", 1)[-1] == text)
    if form == "suffix":  # `*.pem`: `*` matches `/` too, so the basename needs no test
        return path.endswith(text)
    if form == "prefix":
        return path.startswith(text) or (
            "/" not in text and path.rsplit("/", 1)[-1].startswith(text)
        )
    if form == "star":  # `a*b`, `*a*`: ordered finds (star_globs.py), no regex either
        return star_match(text, path) or (
            "/" not in pattern and star_match(text, path.rsplit("/", 1)[-1])
        )
    if fnmatch.fnmatchcase(path, pattern):
        return True
    if "/" not in pattern:
        return fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], pattern)
    return False


_GLOB_SHAPES: dict[str, tuple[str, Any]] = {}


def _glob_shape(pattern: str) -> tuple[str, Any]:
    def plain(text: str) -> bool:
        return not any(c in text for c in "*?[")

    if plain(pattern):
        return "literal", pattern
    if pattern.startswith("*") and plain(pattern[1:]):
        return "suffix", pattern[1:]
    if pattern.endswith("*") and plain(pattern[:-1]):
        return "prefix", pattern[:-1]
    if star_only(pattern):
        return "star", tuple(pattern.split("*"))
    return "glob", pattern


SLICE = 1 << 16  # characters given to the keyword automaton at a time
DFA_AFTER = 1 << 20  # characters searched before the prefilter builds its faster automaton
_SURROGATE = r"[\ud800-\udfff]"  # compiled on first use: rare
# Keyword hits in one slice above which they are collapsed with C-level passes (real code
# has some 2,500 hits per MB, at most ~700 in a slice; a run of one character, one a slice).
DENSE = 4096
START_AFTER = 4 << 20  # characters scanned before the Hyperscan database (multimatch.py) is read


def _by_keyword(matches: list[tuple[int, int, int]]) -> dict[int, list[int] | None]:
    """Keyword number -> end offsets (of their last character) of an automaton's matches,
    every hit kept (a text of one slice: at most a slice's worth is stored)."""
    by_keyword: dict[int, list[int] | None] = {}
    for number, _, end in matches:
        ends = by_keyword.get(number)
        if ends is None:
            by_keyword[number] = [end - 1]
        else:
            ends.append(end - 1)
    return by_keyword


def _collapse_dense(
    matches: list[tuple[int, int, int]], first: int, out: dict[int, list[int]]
) -> set[int]:
    """`_collapse` for one slice with very many hits (a run of `a`s, `[[[[`): for each
    keyword, the first and last hit of each run of hits that overlap or touch, found with
    `compress`/`map` over the slice's hits instead of a Python step per hit. Returns the
    keywords that hit more than DENSE // 4 times in the slice."""
    numbers, begins, ends = zip(*matches, strict=True)
    heavy = set()
    for number in sorted(set(numbers)):
        pick = list(map(number.__eq__, numbers))
        b = list(compress(begins, pick))
        e = list(compress(ends, pick))
        if len(b) > DENSE // 4:
            heavy.add(number)
        # a hit that begins after the previous one ended starts a new run
        heads = [0, *compress(range(1, len(b)), map(gt, b[1:], e))]
        kept = out.setdefault(number, [])
        for head, tail in zip(heads, [*heads[1:], len(b)], strict=True):
            kept.append(first + e[head] - 1)
            if tail - 1 > head:
                kept.append(first + e[tail - 1] - 1)
    return heavy


def _collapse(matches: list[tuple[int, int, int]], first: int, out: dict[int, list[int]]) -> None:
    """Add the end offsets (of their last character) of one slice's keyword hits to `out`,
    by keyword, keeping the first and last hit of each run of hits that overlap or touch."""
    last: dict[int, list[int]] = {}  # keyword -> [end of its last hit, hits in its run]
    for number, begin, end in matches:
        ends = out.get(number)
        state = last.get(number)
        if state is None:
            last[number] = [end, 1]
            if ends is None:
                out[number] = [first + end - 1]
            else:
                ends.append(first + end - 1)
        elif begin <= state[0]:  # overlaps or touches the previous hit: one run
            assert ends is not None  # (its first hit made the list)
            if state[1] >= 2:
                ends[-1] = first + end - 1
            else:
                ends.append(first + end - 1)
            state[0] = end
            state[1] += 1
        else:
            assert ends is not None
            ends.append(first + end - 1)
            state[0], state[1] = end, 1


class Prefilter:
    """One Aho-Corasick pass over a lower-cased text finds which rules' keywords occur.

    The automaton is ahocorasick_rs's (the Rust aho-corasick crate); its DFA is some 8x
    faster than pyahocorasick's trie on real code, where this pass was the largest cost of a
    folder scan."""

    def __init__(self, rules: list[CompiledRule], indexes: Iterable[int]) -> None:
        # Keyword number -> the rules that declared it; the automaton yields keyword numbers.
        table: dict[str, list[int]] = {}
        for index in indexes:
            for keyword in rules[index].keywords:
                table.setdefault(keyword, []).append(index)
        self.keyword_rules = list(table.values())
        self.longest = max((len(k) for k in table), default=1)
        self.keywords = list(table)
        # the automata of str texts (False) and of ASCII texts as bytes (True), built on
        # first use: a contiguous NFA builds in 0.2 ms; the DFA (2.4x faster to search, 1.2 ms
        # to build) pays off once a scan has read a megabyte, so a pre-commit run skips it
        self._finders: dict[bool, Any] = {}
        self.dfa = False
        self.scanned = 0  # characters searched so far

    def _finder(self, ascii: bool, numbers: list[int] | None = None, dfa: bool = False) -> Any:
        """The search of an automaton of the keywords (or of those `numbers`) over lower-cased
        str texts or, `ascii`, over lower-cased ASCII texts as bytes: the bytes automaton
        searches some 40% faster, and on ASCII `bytes.lower()` is `str.lower()` and a byte
        offset a character offset."""
        import ahocorasick_rs

        words = self.keywords if numbers is None else [self.keywords[k] for k in numbers]
        kind = ahocorasick_rs.Implementation
        implementation = kind.DFA if dfa else kind.ContiguousNFA
        if ascii:
            automaton: Any = ahocorasick_rs.BytesAhoCorasick(
                [w.encode() for w in words], implementation=implementation
            )
        else:
            automaton = ahocorasick_rs.AhoCorasick(words, implementation=implementation)
        return automaton.find_matches_as_indexes

    def _ends(self, lowered: str | bytes, ascii: bool = False) -> dict[int, list[int] | None]:
        """Keyword number -> end offsets (of their last character), ascending, of the keyword
        hits in `lowered`; overlapping hits of different keywords all count.

        A run of hits of one keyword that overlap or touch (`aaaa…` against a keyword of
        `a`s, `[[[[`) keeps only its first and last hit: a window the matchers search as a
        whole. So the hits stored stay a fraction of the text, however repetitive (one hit
        per character of a 10 MB run cost 2 GB). A text longer than a slice is fed to the
        automaton in slices, each overlapping the previous by a keyword's length, so that its
        list of raw matches stays small too; a shorter one keeps all its hits."""
        self.scanned += len(lowered)
        if self.scanned > DFA_AFTER and not self.dfa:
            self.dfa = True
            self._finders.clear()
        find = self._finders.get(ascii)
        if find is None:
            find = self._finders[ascii] = self._finder(ascii, dfa=self.dfa)
        if len(lowered) <= SLICE:
            # one slice (most texts): every hit kept, as at most a slice's worth is stored
            return _by_keyword(find(lowered, overlapping=True))
        by_keyword: dict[int, list[int]] = {}
        # Repetitive text (`aaaa…`, `pass[pass[…`) hits keywords densely: a keyword with more
        # than one hit per 64 characters (real code: one per 400 for all keywords together),
        # or one that hits all over a slice, has its hits dropped and its rules search the
        # whole text, under their time limit.
        saturated: set[int] = set()
        cap = max(DENSE, len(lowered) // 64)
        overlap = self.longest - 1
        numbers: list[int] | None = None  # keyword numbers of a reduced automaton's keywords
        for start in range(0, len(lowered), SLICE):
            first = max(0, start - overlap)
            piece = lowered[first : start + SLICE]
            matches = find(piece, overlapping=True)
            if numbers is not None:
                matches = [(numbers[n], b, e) for n, b, e in matches]
            skip = 0  # keywords ending in the overlap were seen before (matches come by end)
            while skip < len(matches) and first + matches[skip][2] <= start:
                skip += 1
            if len(matches) - skip > DENSE:
                heavy = _collapse_dense(matches[skip:], first, by_keyword) - saturated
                if heavy:
                    # A keyword that hits all over a slice (a run of it) searches the
                    # whole text; the rest of the text is searched without it, so that a
                    # 10 MB run does not make ten million hits to throw away.
                    saturated |= heavy
                    numbers = [k for k in range(len(self.keywords)) if k not in saturated]
                    if not numbers:
                        break
                    find = self._finder(ascii, numbers)
            else:
                _collapse(matches[skip:] if skip else matches, first, by_keyword)
            for number, ends in by_keyword.items():
                if len(ends) > cap:  # too many to keep: the rule searches everywhere
                    saturated.add(number)
                    ends.clear()
        # (the same dict, its saturated keywords' offsets now unknown)
        out = cast("dict[int, list[int] | None]", by_keyword)
        for number in saturated:
            out[number] = None
        return out

    def hits(self, text: str) -> dict[int, list[int] | None]:
        """Rule index -> keyword end offsets (of their last character), ascending, for the
        rules whose keywords occur in `text` (None: offsets unknown, scan the whole text)."""
        found: dict[int, list[int] | None] = {}
        if not self.keywords:
            return found
        if text.isascii():  # (known without reading the text)
            find = self._finders.get(True) if len(text) <= SLICE else None
            if find is not None and self.dfa:
                # Most texts: `_ends`' one-slice case without its call (a unit a record of a
                # long transcript). Its count of characters searched only decides when to
                # build the DFA, which is built already.
                matches = find(text.encode().lower(), overlapping=True)
                if not matches:
                    return found
                by_keyword = _by_keyword(matches)
            else:
                by_keyword = self._ends(text.encode().lower(), True)
            exact = True
        else:
            lowered = text.lower()
            try:
                by_keyword = self._ends(lowered)
            except UnicodeEncodeError:  # lone surrogates (a JSON "\\ud800"): one character each
                by_keyword = self._ends(re.sub(_SURROGATE, "\ufffd", lowered))
            # Lower-casing may change the length of some characters (e.g. "İ"); offsets into
            # `lowered` are then not offsets into `text`, so such a text is scanned whole.
            exact = len(lowered) == len(text)
        for number, ends in by_keyword.items():
            for index in self.keyword_rules[number]:
                if not exact or ends is None:
                    found[index] = None
                elif index not in found:
                    found[index] = ends
                else:
                    known = found[index]
                    if known is not None:
                        # a rule with several keywords: merge their hits in text order
                        found[index] = sorted(known + ends)
        return found


def _replay(rule: CompiledRule, unit: Any, hits: Any) -> Any:
    """The matcher of a rule whose hits on a unit are already known (`_GroupMemo`)."""
    return hits


class _GroupMemo:
    """The hits of a matcher's rules on a transcript event, when they depend only on
    `memo_key(unit)` and on the event signature of the plan (a transcript runs the same
    commands, git status or the test suite, many times): remembered per key for the group
    of rules as a whole, and only the rules that hit are handed on. Most events hit no rule
    of the group, so they cost one key and one look-up instead of a step per rule."""

    LIMIT = 4096  # keys kept (then the memo starts over): bounded memory on any session

    def __init__(self, matcher: Any, memo_key: Any, rules: list[CompiledRule]) -> None:
        self.matcher = matcher
        self.memo_key = memo_key
        self.rules = rules
        self.prepare = getattr(matcher, "prepare", None)
        self.memo: dict[Any, tuple[tuple[CompiledRule, tuple[Any, ...]], ...]] = {}

    def runs(self, unit: Any) -> Iterator[tuple[CompiledRule, Any, Any]]:
        """(rule, matcher, offsets) of the group's rules that hit `unit` (each rule's hits
        replayed); every rule with its own matcher when the hits cannot be remembered."""
        key = self.memo_key(unit)
        found = self.memo.get(key) if key is not None else None
        if found is None:
            matcher, rules = self.matcher, self.rules
            if self.prepare is not None:
                # a kind that analyses a text once for all its rules sees them all first
                self.prepare(unit, [(rule, None) for rule in rules])
            try:
                found = tuple(
                    (rule, hits) for rule in rules if (hits := tuple(matcher(rule, unit, None)))
                )
            except Exception:
                # (a rule's time-out, say): each rule runs where the scan records its error
                for rule in rules:
                    yield rule, matcher, None
                return
            if key is not None:
                if len(self.memo) >= self.LIMIT:
                    self.memo.clear()
                self.memo[key] = found
        for rule, hits in found:
            yield rule, _replay, hits


_DECODE_GATES: dict[tuple[str, ...], Any] = {}


class RuleSet:
    """The enabled rules and keyword prefilters over them (one per unit kind, so that the
    keywords of, say, memory-bank rules cost nothing on source files)."""

    def __init__(self, rules: list[CompiledRule]) -> None:
        self.rules = rules
        self.by_id = {r.id: r for r in rules}
        self._no_keyword = tuple(i for i, rule in enumerate(rules) if not rule.keywords)
        self._prefilters: dict[str | None, Prefilter] = {}
        self._plans: dict[str, Any] = {}
        # the transcript plan and its prefilter (`unit_hits`: asked of every unit)
        self._transcript: tuple[Any, Any, Any] | None = None
        self._event_plans: dict[
            tuple[Any, ...], list[tuple[Any, Any, list[CompiledRule], Any]]
        ] = {}
        self._matchers: dict[str, tuple[Any, Any]] = {}
        # Other scanners' inline allow comments to honour (config `allow-comments`).
        self.allow_comments: tuple[str, ...] = ()
        # The secret rules that mask what a report prints (engine/masking/masker.py),
        # whichever rules run: those of the rule set a selection was made from (None: this
        # set's own).
        self.mask_rules: list[CompiledRule] | None = None
        self._masker: Any = None
        # Whether the secret rules also search the unit's decoded and joined views
        # (decode/; `check --no-decode` turns it off).
        self.decode = True
        # (the text and keyword hits `runnable` found last: the decode stage asks where the
        # secret rules' keywords are without a second pass of the prefilter)
        self.last_hits: tuple[str, dict[int, list[int] | None]] | None = None
        self._decode_gate: Any = None
        # The Hyperscan database of the regex rules (engine/multimatch.py): None until a scan
        # has read multimatch.START_AFTER characters, False when off or unavailable.
        self._multimatch: Any = None
        self._chars = 0
        self._start_after = 0 if os.environ.get("WUKONG_LINT_HYPERSCAN") == "1" else START_AFTER

    def select(self, keep: Any) -> "RuleSet":
        selected = RuleSet([r for r in self.rules if keep(r)])
        selected.allow_comments = self.allow_comments
        selected.decode = self.decode
        selected.mask_rules = self.secret_rules()
        return selected

    def multimatch(self) -> Any:
        """The Hyperscan database of this set's regex rules (multimatch.Database), or None:
        off, unavailable, or no rule it can hold. Built (or read from its cache) once."""
        found = self._multimatch
        if found is None:
            from wukong_lint.engine import multimatch
            from wukong_lint.engine.patterns import cache_dir

            patterns = [r.regex if r.kind == "regex" and r.keywords else "" for r in self.rules]
            found = self._multimatch = multimatch.build(patterns, cache_dir()) or False
        return found or None

    def confirmed(self, text: str, found: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
        """`found` ((rule index, offsets) of the rules the keyword prefilter passed) without
        the regex rules that cannot match anywhere in `text` (multimatch.py): the same
        findings, fewer regex runs. Only once a scan has read enough text to pay for the
        database, and only on ASCII texts."""
        database = self._multimatch
        if database is None:
            self._chars += len(text)
            if self._chars < self._start_after:
                return found
            database = self.multimatch()
        if not database or not text.isascii():
            return found
        covered = database.covered
        if not any(index in covered for index, _ in found):
            return found
        can = database.matching(text.encode())
        return [(index, o) for index, o in found if index not in covered or index in can]

    def secret_rules(self) -> list[CompiledRule]:
        """The rules that mask this set's output: every secret rule, on or off."""
        if self.mask_rules is not None:
            return self.mask_rules
        return [r for r in self.rules if r.category == "secret"]

    def secret_keyword_offsets(self, text: str) -> list[int] | None:
        """Where the keywords of the secret regex rules end in `text`, ascending (None:
        anywhere), from the hits `runnable` found on it (the prefilter's again otherwise)."""
        last = self.last_hits
        hits = last[1] if last is not None and last[0] is text else self._keyword_hits(text)
        offsets: list[int] = []
        for index, ends in hits.items():
            rule = self.rules[index]
            if rule.category == "secret" and rule.kind == "regex":
                if ends is None:
                    return None
                offsets += ends
        offsets.sort()
        return offsets

    def decode_gate(self) -> Any:
        """The encoded forms of the secret regex rules' keywords (decode/gate.py)."""
        if self._decode_gate is None:
            from wukong_lint.decode import EncodedKeywords

            words = {
                k
                for r in self.rules
                if r.category == "secret" and r.kind == "regex"
                for k in r.keywords
            }
            key = tuple(sorted(words))
            gate = _DECODE_GATES.get(key)
            if gate is None:  # (one per keyword set in a process: rule sets share it)
                if len(_DECODE_GATES) >= 8:
                    _DECODE_GATES.clear()
                gate = _DECODE_GATES[key] = EncodedKeywords(key)
            self._decode_gate = gate
        return self._decode_gate

    def prefilter(self, kind: str | None = None) -> Prefilter:
        """The prefilter of the rules that apply to units of `kind` (None: every rule)."""
        found = self._prefilters.get(kind)
        if found is None:
            indexes = (
                i
                for i, rule in enumerate(self.rules)
                if rule.keywords and (kind is None or kind in rule.applies_to)
            )
            found = self._prefilters[kind] = Prefilter(self.rules, indexes)
        return found

    def _hits(self, text: str) -> dict[int, list[int] | None]:
        """Rule index -> the offsets where its keywords end, ascending (None: scan the whole
        text), for every rule without keywords and every rule whose keywords occur."""
        found: dict[int, list[int] | None] = dict.fromkeys(self._no_keyword)
        found.update(self.prefilter().hits(text))
        return found

    def _keyword_hits(self, text: str, kind: str | None = None) -> dict[int, list[int] | None]:
        return self.prefilter(kind).hits(text)

    def candidates(self, text: str) -> list[tuple[CompiledRule, list[int] | None]]:
        """Rules whose keywords occur in `text` (case-insensitively), in rule order, each with
        the offsets where its keywords end, ascending (None: scan the whole text)."""
        found = self._hits(text)
        return [(self.rules[i], found[i]) for i in sorted(found)]

    def runnable(self, unit: Any) -> Iterator[tuple[CompiledRule, Any, Any]]:
        """(rule, matcher, keyword offsets) for what should run on `unit`: the rules without
        keywords that apply to its kind and path, grouped by rule kind so that a kind's gate is
        asked once for all its rules, then the keyword rules whose keywords occur in its text.
        (The offsets of a remembered group are its hits, for `_replay`.) A matcher with a
        `prepare(unit, [(rule, offsets)...])` attribute is first shown all its
        rules that will run on the unit, so that it can analyse the text once for them all."""
        kind = unit.source.kind
        plan = self._plans.get(kind)
        if plan is None:
            plan = self._plans[kind] = self._plan(kind)
        groups, keyword_rules = plan
        path = unit.path
        event = getattr(unit, "event", None)
        if event is not None:  # a transcript event: the rules that can match its signature
            for matcher, gate, rules, memo in self._event_plan(kind, path, event, groups):
                if gate is None or gate(unit):
                    if memo is not None:
                        yield from memo.runs(unit)
                    else:
                        for rule in rules:
                            yield rule, matcher, None
            groups = []
        for rule_kind, rules in groups:
            known = self._matchers.get(rule_kind)
            if known is not None and known[1] is not None and not known[1](unit):
                continue  # once imported, a kind's gate is cheaper than each rule's paths
            # paths first: a kind whose rules all skip this path is never even imported
            rules = [r for r in rules if r.applies_to_path(path)]
            if not rules or (
                rule_kind == "command"
                and kind in ("file", "diff")
                and shell_file_type(path) is None
            ):
                continue
            matcher, gate = self.matcher(rule_kind)
            if gate is not None and not gate(unit):
                continue
            prepare = getattr(matcher, "prepare", None)
            if prepare is not None:
                prepare(unit, [(rule, None) for rule in rules])
            for rule in rules:
                yield rule, matcher, None
        if not keyword_rules:
            return
        # (a transcript reader may have found them already: `unit_hits`)
        hits = getattr(unit, "hits", None) if event is not None else None
        if hits is None:
            hits = self._keyword_hits(unit.text, kind)
            self.last_hits = (unit.text, hits)
        if not hits:
            return  # (most units: no keyword rule to run)
        batch = [
            (self.rules[index], offsets)
            for index, offsets in self.confirmed(
                unit.text, [(i, o) for i, o in hits.items() if i in keyword_rules]
            )
            if self.rules[index].applies_to_path(path)
        ]
        prepared: set[str] = set()
        for rule, offsets in batch:
            matcher, _ = self.matcher(rule.kind)
            prepare = getattr(matcher, "prepare", None)
            if prepare is not None and rule.kind not in prepared:
                # a kind that analyses a text once for all its rules sees them all first
                prepared.add(rule.kind)
                prepare(unit, [(r, o) for r, o in batch if r.kind == rule.kind])
            yield rule, matcher, offsets

    def unit_hits(self, unit: Any) -> dict[int, list[int] | None] | None:
        """What `runnable` finds of the keyword rules on a transcript event's unit, or None
        when no rule at all can run on it: no keyword occurs in its text and each group of
        rules its event signature may meet has a gate that turns the unit away. Exact:
        `runnable` then yields nothing (it asks the same gates first, and an event's unit
        runs no other group), so `scan_unit` would find nothing in it, and a reader need
        not hand it on (a gate is a pure test of the unit)."""
        found = self._transcript
        if found is None:
            plan = self._plans.get("transcript")
            if plan is None:
                plan = self._plans["transcript"] = self._plan("transcript")
            found = self._transcript = (*plan, self.prefilter("transcript"))
        groups, keyword_rules, prefilter = found
        hits = prefilter.hits(unit.text) if keyword_rules else {}
        if hits:
            return hits
        for _, gate, _, _ in self._event_plan("transcript", unit.path, unit.event, groups):
            if gate is None or gate(unit):
                return hits
        return None

    def _event_plan(
        self, kind: str, path: str, event: Any, groups: list[tuple[str, list[CompiledRule]]]
    ) -> list[tuple[Any, Any, list[CompiledRule], Any]]:
        """(matcher, gate, rules, memo) of the rules without keywords that can match a
        transcript event, found once per event signature (its kind, problem, tool, agent and
        profile): a matcher's optional `accepts(rule, event)` may read only those fields, and
        the rules of a matcher with `memo_key(unit)` are memoized on it within the signature
        (`memo`, a `_GroupMemo`; else None). A matcher's optional `gate_for(rules)` makes
        the group's gate from its rules (a pure test of the unit that is false when none of
        those rules can match it), in place of the kind's `gate`."""
        ctx = event.ctx
        key = (kind, path, event.kind, event.problem, event.tool, event.is_main,
               ctx.profile, ctx.memory_bank, ctx.single_agent)  # fmt: skip
        found = self._event_plans.get(key)
        if found is None:
            if len(self._event_plans) > 4096:
                self._event_plans.clear()
            found = []
            from wukong_lint.engine.event_gate import may_accept

            for rule_kind, rules in groups:
                # a kind no rule of which can meet the event is not even imported
                rules = [r for r in rules if may_accept(rule_kind, r, event)]
                if not rules:
                    continue
                matcher, gate = self.matcher(rule_kind)
                accepts = getattr(matcher, "accepts", None)
                rules = [
                    r
                    for r in rules
                    if r.applies_to_path(path)
                    and (accepts is None or accepts(r, event))
                    and not (ctx.single_agent and r.category == "body-boundary")
                ]
                if rules:
                    # a gate that knows the group's rules (their parameters) can turn away
                    # more: e.g. a count that reaches none of their limits
                    gate_for = getattr(matcher, "gate_for", None)
                    if gate_for is not None:
                        gate = gate_for(rules)
                    memo_key = getattr(matcher, "memo_key", None)
                    memo = None if memo_key is None else _GroupMemo(matcher, memo_key, rules)
                    found.append((matcher, gate, rules, memo))
            self._event_plans[key] = found
        return found

    def _plan(self, kind: str) -> tuple[list[tuple[str, list[CompiledRule]]], frozenset[int]]:
        groups: dict[str, list[CompiledRule]] = {}
        keyword_rules = set()
        for index, rule in enumerate(self.rules):
            if kind not in rule.applies_to:
                continue
            if rule.keywords:
                keyword_rules.add(index)
            else:
                groups.setdefault(rule.kind, []).append(rule)
        return list(groups.items()), frozenset(keyword_rules)

    def matcher(self, kind: str) -> tuple[Any, Any]:
        """The matcher of a rule kind and its `gate`, if it has one: a cheap test of a unit,
        shared by every rule of the kind, that is false when none of them can match it.
        Resolved on first use, so a scan imports only the matchers it needs."""
        found = self._matchers.get(kind)
        if found is None:
            from wukong_lint.engine.kinds import matcher_for

            matcher = matcher_for(kind)
            found = self._matchers[kind] = (matcher, getattr(matcher, "gate", None))
        return found
