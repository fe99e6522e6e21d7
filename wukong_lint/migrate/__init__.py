"""Converters from other scanners' configurations into wukong-lint rule packs.

Layer: above `runner` (it runs the converted rules' examples). May import every package
below; must not import `hook` or `cli`.
"""
