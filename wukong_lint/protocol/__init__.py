"""The 戒 protocol (profile `wukong`): the turn facts of a session (turn_facts), the
CHECKPOINT (checkpoint, checkpoint_forms), what the body does itself (behaviour), avatars and
their tools, contracts and spawning (agents, contracts, spawn_types), context budget and the
DCP configuration (context_budget, dcp_config), the memory-bank gate (memory_gate), error
classes (errors), shell reads for Layer 3 (shell_reads) and the YAML schemas.

Layer: the highest domain. May import `shell`, `secrets`, `engine`, `config`, `model`,
`util`; must not import `sources`, `runner`, `hook` or `cli` (the transcript readers call
into this package, never the other way round).
"""
