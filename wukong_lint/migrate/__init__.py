"""Converters from other scanners' configurations into wukong-lint rule packs."""
