"""History: a git repository of thousands of commits with planted secrets."""
