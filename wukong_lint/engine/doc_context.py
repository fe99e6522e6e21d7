"""Quiet on documentation and examples (issue 13): where a secret finding stands decides how
loud it is.

- In a Python docstring or an API-example document (`*.rst`, `*.adoc`, botocore-style
  `examples-1.json`), values are samples: a catch-all (`generic`) rule's finding is dropped,
  and a provider rule's finding, whose shape is real, is kept at low severity with a note.
- Package metadata is documentation too: a Python distribution's PKG-INFO / METADATA (its
  README, copied in as the long description) and every file of a `*.dist-info` or
  `*.egg-info` folder, and the package.json of an installed package (under node_modules/,
  which npm fills with the package's README); a project's own package.json is not.
- In a JSON API description (botocore's service-2.json, OpenAPI), a value inside a
  `"documentation"`, `"description"`, `"summary"` or `"example"` string is a sample as well.
- A private key under a test or fixture path is still a key (reported), but at medium, with
  the folder in the message: test suites ship throw-away keys far more often than live ones.

Pure functions of the path, the text and the offsets; only called for units that have a
secret candidate, so the scan of a clean file never pays for them.
"""

from __future__ import annotations

import bisect
import os
import re

EXAMPLE_SUFFIXES = (".rst", ".rst.txt", ".adoc", ".asciidoc")
PYTHON_SUFFIXES = (".py", ".pyi", ".pyw")
TEST_FOLDERS = frozenset(
    (
        *("test", "tests", "testing", "testdata", "test_data", "test-data", "testcases"),
        *("fixtures", "fixture", "__tests__", "spec", "specs", "test_vectors", "vectors"),
    )
)
PRIVATE_KEY_RULE = "secret.private-key"


def is_example_document(path: str) -> bool:
    """An API-example or reStructuredText/AsciiDoc document."""
    name = os.path.basename(path).lower()
    if name.endswith(EXAMPLE_SUFFIXES):
        return True
    # botocore's examples-1.json and the like: request/response samples of an API
    stem, ext = os.path.splitext(name)
    return ext == ".json" and (
        stem.startswith("examples-") or stem.endswith((".examples", "-examples"))
    )


METADATA_FOLDERS = (".dist-info", ".egg-info")


def is_package_metadata(path: str) -> bool:
    """A package's metadata: PKG-INFO, a distribution's METADATA and the other files of its
    `*.dist-info` / `*.egg-info` folder, an installed npm package's package.json."""
    parts = path.replace("\\", "/").lower().split("/")
    name = parts[-1]
    if name == "pkg-info":
        return True
    folders = parts[:-1]
    if any(folder.endswith(METADATA_FOLDERS) for folder in folders):
        return True
    return name == "package.json" and "node_modules" in folders


# a JSON string holding prose about an API: "documentation": "...", "description": "..."
_DOC_KEY = re.compile(r'"(?:documentation|description|summary|examples?|docstring)"[ \t]*:[ \t]*"')


def _in_json_doc_string(text: str, offset: int) -> bool:
    """Whether `offset` lies inside the value of a documentation key of a JSON line."""
    line_start = text.rfind("\n", 0, offset) + 1
    last = None
    for found in _DOC_KEY.finditer(text, line_start, offset):
        last = found
    if last is None:
        return False
    # no unescaped quote between the string's opening and the offset: still inside it
    inside = text[last.end() : offset]
    return '"' not in inside.replace("\\\\", "").replace('\\"', "")


def test_folder(path: str) -> str:
    """The test or fixture folder `path` lies under ('' when none)."""
    parts = path.replace("\\", "/").split("/")[:-1]
    if any(part.lower() in TEST_FOLDERS for part in parts):
        return "/".join(parts)
    return ""


def _previous_code_line(text: str, line_start: int, limit: int = 50) -> str | None:
    """The nearest non-blank line before the line starting at `line_start` (None: none within
    `limit` lines, or the start of the text)."""
    end = line_start - 1
    for _ in range(limit):
        if end <= 0:
            return None
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end].strip()
        if line:
            return line
        end = start - 1
    return None


_CODE_LINE = re.compile(r"^[ \t]*[^\s#]", re.MULTILINE)


def _first_code(text: str) -> int:
    """The offset of the first line that is neither blank nor a comment."""
    found = _CODE_LINE.search(text)
    return found.start() if found else len(text)


class Context:
    """Where the secret findings of one unit stand. The triple quotes of a Python file are
    listed once (then each finding costs a binary search), so a file with many candidates
    is still read once."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.example = is_example_document(path)
        self.metadata = is_package_metadata(path)
        self.json = path.lower().endswith(".json")
        self.python = path.lower().endswith(PYTHON_SUFFIXES)
        self.fixtures = test_folder(path)
        self._quotes: dict[str, list[int]] = {}
        self._code = -1  # offset of the first code line, computed when asked

    def _is_docstring_start(self, opening: int) -> bool:
        """Whether the string opening at `opening` is a statement of its own that starts a
        block (a docstring): nothing but a string prefix before it on its line, and the
        previous code line ends a `def`/`class` header, or it is the module's first code."""
        text = self.text
        line_start = text.rfind("\n", 0, opening) + 1
        if text[line_start:opening].strip().lower() not in ("", "r", "u", "b", "rb", "br"):
            return False
        if self._code < 0:
            self._code = _first_code(text)
        if line_start <= self._code:
            return True
        previous = _previous_code_line(text, line_start)
        return previous is not None and previous.endswith(":")

    def _positions(self, delimiter: str) -> list[int]:
        found = self._quotes.get(delimiter)
        if found is None:
            found = self._quotes[delimiter] = []
            at = self.text.find(delimiter)
            while at >= 0:
                found.append(at)
                at = self.text.find(delimiter, at + 3)
        return found

    def in_docstring(self, offset: int) -> bool:
        """Whether `offset` lies inside a triple-quoted string that is a docstring."""
        for delimiter in ('"""', "'''"):
            positions = self._positions(delimiter)
            before = bisect.bisect_left(positions, offset)
            if before % 2 == 1:
                return self._is_docstring_start(positions[before - 1])
        return False

    def judge(self, rule_id: str, generic: bool, offset: int) -> tuple[int, str] | None:
        """For a secret finding: (severity cap, note) to apply, (0, "") to drop it, None to
        keep it as it is."""
        if rule_id == PRIVATE_KEY_RULE:
            return (2, f"under the test path {self.fixtures}/") if self.fixtures else None
        if self.example:
            where = "in an example document"
        elif self.metadata:
            where = "in package metadata"
        elif self.json and _in_json_doc_string(self.text, offset):
            where = "in an API description"
        elif self.python and self.in_docstring(offset):
            where = "in a docstring"
        else:
            return None
        return (0, "") if generic else (1, f"{where}: a sample, or a real credential pasted there")
