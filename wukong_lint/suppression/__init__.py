"""What happens to findings after a scan: the baseline of accepted findings (baseline) and
the suppression stage that applies it with the config's per-path ignores (filtering). Inline
`wukong-lint: ignore` comments are read by the engine itself (engine/suppress.py).

Layer: above `config` and `report`. May import `config`, `engine`, `model`, `util`.
"""
