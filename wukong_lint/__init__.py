"""wukong-lint: a policy linter for teams that code with AI agents."""

__version__ = "0.1.0"
