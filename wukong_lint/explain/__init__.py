"""`wukong-lint explain`: why one command line or file-tool call gets its verdict.

Owns the explanation of a single call as the live hook judges it: the verdict, each rule
that fired with its reason and safer way (the rule's message), the commands the shell would
run after unwrapping with their wrapper chains (`sudo → env → sh -c → rm -rf /`, from the
shell model in wukong_lint/shell/), the paths the call touches resolved against `--cwd` with
their classes, and what could not be resolved.

Layer: imports hook (the judge's steps), shell, and what they import.
"""
