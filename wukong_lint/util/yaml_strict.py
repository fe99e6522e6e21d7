"""YAML for configuration files: safe, and a key written twice in one mapping is an error.

PyYAML keeps the last of two equal keys without a word. In a config that is a silent change
of what gets scanned: a second `select:` further down (a merge, a paste) replaces the first,
a second `per-path-ignores` glob replaces the rules of the first.
"""

from __future__ import annotations

from typing import Any, TextIO

import yaml


class StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate mapping keys."""


def _mapping(loader: StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":  # `<<: *base`: overriding is its point
            continue
        key = loader.construct_object(key_node, deep=True)
        try:
            duplicate = key in seen
        except TypeError:  # an unhashable key: construct_mapping reports it
            continue
        if duplicate:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} is given twice", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=True)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def load(stream: TextIO | str) -> Any:
    return yaml.load(stream, Loader=StrictLoader)  # a SafeLoader subclass: no Python tags
