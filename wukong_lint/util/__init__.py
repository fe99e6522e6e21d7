"""Generic helpers that know nothing of rules, findings or agents: atomic file writes
(fsutil), an iterative folder walk, strict YAML, star globs, loading compiled extensions, git
processes without `subprocess` (gitproc), bytes to text, a file lock, and the error types that
end a run with exit code 2.

May import: the standard library and third-party packages only. Must not import any other
package of wukong_lint (every layer above builds on this one; tests/test_architecture.py).
"""
