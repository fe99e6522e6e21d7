"""Sub-commands that live in their own modules (see `COMMAND_MODULES` in cli.py)."""
