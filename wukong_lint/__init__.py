"""wukong-lint: a policy linter for teams that code with AI agents."""

__version__ = "0.1.0"

# The compiled build of the hottest modules, when there is one built from these sources
# (native.py): set up before any of them is imported.
from wukong_lint import native as _native

_native.install()
