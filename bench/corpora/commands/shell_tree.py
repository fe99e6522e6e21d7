"""A shell-heavy tree for the folder-scan speed of the command checks (bench/commands_speed.py):
shell scripts, Makefiles and Dockerfiles made of ordinary build and deploy commands.
`make_tree(root)` writes it and returns its size in characters; same seed, same bytes.
"""

from __future__ import annotations

import os
import random

LINES = [
    "set -euo pipefail", 'cd "$(dirname "$0")/.."', "rm -rf build dist", "mkdir -p build",
    "cp -r src/. build/", 'echo "building $VERSION"', "npm ci && npm run build",
    "find . -name '*.pyc' -delete", "git fetch --tags origin", 'tar -czf "out/$NAME.tgz" build',
    "docker build -t app:latest .", "python3 -m pip install -r requirements.txt",
    'for f in *.txt; do wc -l "$f"; done', 'if [ -d .venv ]; then . .venv/bin/activate; fi',
    "curl -fsSL https://example.com/file.tgz -o /tmp/file.tgz", "chmod +x scripts/*.sh",
    'sed -i "s/@VERSION@/$VERSION/" build/version.txt', "rm -f /tmp/file.tgz",
    "kubectl apply -f k8s/", "grep -rn 'TODO' src | head", "make -j4 all",
    'ssh deploy@host "systemctl restart app"', "xargs -n1 echo < list.txt",
]  # fmt: skip
DOCKER = [
    "RUN apt-get update && apt-get install -y curl git && rm -rf /var/lib/apt/lists/*",
    "RUN pip install --no-cache-dir -r requirements.txt && rm -rf /root/.cache",
    "RUN npm ci && npm cache clean --force",
    "COPY . /app",
    "WORKDIR /app",
]


def make_tree(root: str, files: int = 1200, seed: int = 5) -> int:
    rng = random.Random(seed)
    total = 0
    for i in range(files):
        folder = os.path.join(root, f"pkg{i % 20}")
        os.makedirs(folder, exist_ok=True)
        kind = i % 4
        if kind == 3:
            path = os.path.join(folder, "Dockerfile" if i % 8 == 3 else f"Dockerfile.{i}")
            text = "FROM debian:12\n" + "\n".join(rng.choice(DOCKER) for _ in range(40)) + "\n"
        elif kind == 2:
            path = os.path.join(folder, f"Makefile.{i}.mk")
            text = "".join(f"t{n}:\n\t{rng.choice(LINES)}\n" for n in range(60))
        else:
            path = os.path.join(folder, f"script{i}.sh")
            text = "#!/bin/bash\n" + "\n".join(rng.choice(LINES) for _ in range(150)) + "\n"
        with open(path, "w") as handle:
            handle.write(text)
        total += len(text)
    return total
