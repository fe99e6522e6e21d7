"""Running scans: a folder scan or a long transcript spread over several processes with the
result of a single-process scan (parallel, offload, worker_pool), and the runner of rules'
own examples (`rules test`).

Layer: above `sources` (it reads inputs in the workers). May import `sources`, the domain
packages, `engine`, `config`, `model`, `util`; must not import `hook`, `migrate` or `cli`.
"""
