"""Wiring the live hook into the agents: `install`, `uninstall` and `doctor`.

Owns the merge of wukong-lint's hook registration into an agent's configuration file (next
to every other hook there; idempotent; a backup of a file it changes; a file it cannot
parse refused with the reason; the executable by its absolute path), its exact removal, the
Claude Code plugin folder, and the checks of `doctor` (registered where and for which
events, the registered command exists, runs and answers a synthetic event as the agent
would run it, the caches are writable).

Layer: imports agents (each agent's config facts and event shapes), audit, config, engine,
model and util. Writes go through util/fsutil.py's atomic writers.
"""
