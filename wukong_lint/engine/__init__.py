"""Rules and their running, whatever the input: the rule schema (schema) and its
validation (validate), loading with a compile cache (loader, patterns, regex_budget), the
kinds registry (kinds: each kind's model and matcher named as "module:attribute" and imported
on first use, so the engine never imports a domain package), the keyword prefilter (rules),
matchers, filters, the scan loop (scan), findings with their masked snippets and salted
fingerprints (findings, keyed_hash), inline suppression (suppress), a rule's scope (scope)
and output masking (engine/masking).

Layer: above `util` and `model`; may import only those. Must not import `config`, `report`,
a domain package, `sources`, `runner`, `hook` or `cli`.
"""
