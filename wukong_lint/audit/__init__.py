"""The audit log of the live hook's decisions: one JSON line per decision, one file per day.

Owns where the log lives (`$WUKONG_LINT_AUDIT_DIR`, else `$XDG_STATE_HOME/wukong-lint/audit`,
else `~/.local/state/wukong-lint/audit`), the record's fields, the masking of the command or
path by the secret rules before it is written, the size cap, and reading the log back
(`wukong-lint log`). Writing never raises: an audit folder that is full or read-only never
blocks the hook nor changes its verdict.

Layer: imports engine (the secret masking) and util only.
"""
