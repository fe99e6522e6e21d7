"""Quiet on documentation and examples (issue 13): where a secret finding stands decides how
loud it is.

- In a Python docstring or an API-example document (`*.rst`, `*.adoc`, botocore-style
  `examples-1.json`), values are samples: a catch-all (`generic`) rule's finding is dropped,
  and a provider rule's finding, whose shape is real, is kept at low severity with a note.
- A private key under a test or fixture path is still a key (reported), but at medium, with
  the folder in the message: test suites ship throw-away keys far more often than live ones.

Pure functions of the path, the text and the offsets; only called for units that have a
secret candidate, so the scan of a clean file never pays for them.
"""

from __future__ import annotations

import os

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


def test_folder(path: str) -> str:
    """The test or fixture folder `path` lies under ('' when none)."""
    parts = path.replace("\\", "/").split("/")[:-1]
    if any(part.lower() in TEST_FOLDERS for part in parts):
        return "/".join(parts)
    return ""


def _is_statement_start(text: str, opening: int) -> bool:
    """Whether the string opening at `opening` is a statement of its own that starts a block
    (a docstring): nothing but a string prefix before it on its line, and the previous code
    line ends a `def`/`class` header, or only comments and blank lines come before it."""
    line_start = text.rfind("\n", 0, opening) + 1
    if text[line_start:opening].strip().lower() not in ("", "r", "u", "b", "rb", "br"):
        return False
    before = text[:line_start].rstrip()
    if not before:
        return True
    last = before[before.rfind("\n") + 1 :].strip()
    if last.endswith(":"):
        return True
    return all(not line.strip() or line.lstrip().startswith("#") for line in before.split("\n"))


def in_docstring(text: str, offset: int) -> bool:
    """Whether `offset` lies inside a triple-quoted string that is a docstring."""
    for delimiter in ('"""', "'''"):
        if text.count(delimiter, 0, offset) % 2 == 1:
            return _is_statement_start(text, text.rfind(delimiter, 0, offset))
    return False


def judge(rule_id: str, generic: bool, path: str, text: str, offset: int) -> tuple[int, str] | None:
    """For a secret finding: (severity cap, note) to apply, (0, "") to drop it, None to keep
    it as it is."""
    if rule_id == PRIVATE_KEY_RULE:
        folder = test_folder(path)
        return (2, f"under the test path {folder}/") if folder else None
    if is_example_document(path):
        where = "in an example document"
    elif path.lower().endswith(PYTHON_SUFFIXES) and in_docstring(text, offset):
        where = "in a docstring"
    else:
        return None
    return (0, "") if generic else (1, f"{where}: a sample, or a real credential pasted there")
