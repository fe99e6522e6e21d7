"""The kinds of data documents shipped beside the rules (engine/data_docs.py reads them): the
key a document names itself under -> (the folder of the rules it lives in, the model that
validates it, as "module:Class"). Apart from data_docs.py so that the rule validator can
skip these documents without importing the loader (no import cycle)."""

from __future__ import annotations

from typing import Any

DATA_KINDS: dict[str, tuple[str, str]] = {
    "protocol-version": ("protocol", "wukong_lint.protocol.version_schema:VersionFile"),
}


def is_data_document(data: Any) -> bool:
    """Whether a parsed YAML document is data of one of DATA_KINDS (not a rule file)."""
    return isinstance(data, dict) and any(key in data for key in DATA_KINDS)
