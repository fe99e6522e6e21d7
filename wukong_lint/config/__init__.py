"""Project configuration: `.wukong-lint.yaml` / `[tool.wukong-lint]` found and read
(project), validated with pydantic only when a file exists (model), its path globs
(path_globs) and the validation of rule selectors against the rule set (selectors).

Layer: above `engine`. May import `engine`, `model`, `util`; must not import report, the
domain packages, sources, hook or cli.
"""
