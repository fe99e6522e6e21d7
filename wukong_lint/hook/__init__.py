"""The live agent hook: one event in, one verdict out (judge), with the config cache it
reads on every call (config_cache), the config's path filters for file tools (paths),
戒 Layer 1 on opt-in (checkpoint) and the memory-bank gate's hook side (memory_bank).

Layer: above `runner`. May import every package below it; must not import `cli` (the
`wukong-lint hook` sub-command in cli/hook.py reads stdin and calls into here).
"""
