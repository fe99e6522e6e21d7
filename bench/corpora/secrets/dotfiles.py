#!/usr/bin/env python3

"""Leaked-dotfiles corpus: credential files and configs as people really commit them.

Writes OUT/tree/ (home folders, dotfiles repositories, project configs, dumps) and
OUT/labels.json: `risky` lists every line that holds a credential, as {path, line, kind}
(a multi-line secret such as a PuTTY key is one label with `end`); `lookalikes` lists lines
that look like one but hold none (placeholders, templates, documentation, comments, type
names, encrypted or indirect values). A scanner should find the risky lines and stay quiet on
everything else.

The formats were written from each tool's own documentation of its file (netrc(5), the
PostgreSQL password file, git-credential-store, npm/yarn config, .pypirc, Docker's
config.json, s3cmd, the AWS shared credentials file, NuGet, Maven settings, PuTTY's key
format, Rails credentials, Firefox's logins store, FileZilla, the editors' SFTP plugins,
JetBrains, Robo 3T, DBeaver, esmtp/mutt/fetchmail/msmtp, Ventrilo, Kubernetes Secrets,
Terraform, crypt(3)/shadow(5), Apache htpasswd, WordPress/Rails/Django/Laravel settings),
independently of wukong-lint's rules, so that it checks those rules rather than mirrors them.

    python bench/corpora/secrets/dotfiles.py --seed 1 --out bench/out/dotfiles-dev [--copies 3]
    python bench/dotfiles_measure.py bench/out/dotfiles-dev

Same seed, same bytes; standard library only; all values are fake.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Callable

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))  # bench/
from corpora.secrets.dotfiles_apps import (
    data_logins,
    documentation,
    htpasswd,
    k8s_secret,
    ordinary,
    passwd,
    php_frameworks,
    proftpd,
    shadow,
    sql_dump,
    terraform,
)
from corpora.secrets.dotfiles_base import RISKY, Line, R
from corpora.secrets.dotfiles_home import (
    aws_credentials,
    dbeaver,
    deployment_config,
    docker_config,
    dockercfg,
    filezilla,
    firefox_logins,
    ftpconfig,
    git_credentials,
    heroku_netrc,
    jetbrains,
    mail_rc,
    maven_settings,
    netrc,
    npmrc,
    nuget_config,
    pgpass,
    putty_ppk,
    pypirc,
    rails_master_key,
    remote_sync,
    robo3t,
    s3cfg,
    sftp_config,
    vscode_sftp,
    yarnrc,
    yarnrc_classic,
)

BENCH = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def generate(seed: int, out: str, copies: int = 3) -> dict:
    r = R(seed)
    tree = os.path.join(out, "tree")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(tree)
    files: list[tuple[str, list[Line]]] = []
    people = ["alice", "bob", "kenji", "marta", "ops", "dev"]
    for copy in range(copies):
        home = f"home/{people[copy % len(people)]}{copy}" if copy else "dotfiles"
        project = f"projects/site{copy}"
        app = f"apps/shop{copy}"
        single: list[Callable[[R, str], tuple[str, list[Line]]]] = [
            netrc, heroku_netrc, pgpass, git_credentials, pypirc, docker_config, dockercfg,
            s3cfg, aws_credentials, maven_settings, putty_ppk, firefox_logins, robo3t, dbeaver,
        ]  # fmt: skip
        for make in single:
            files.append(make(r, home))
        for make in (npmrc, yarnrc, yarnrc_classic, nuget_config):
            files.append(make(r, project))
        for make in (sftp_config, ftpconfig, remote_sync, deployment_config, vscode_sftp):
            files.append(make(r, project))
        files += jetbrains(r, project)
        files += filezilla(r, home)
        files += [(p.replace("servers/", f"servers{copy}/"), ls) for p, ls in mail_rc(r, home)]
        files += rails_master_key(r, app)
        files.append(k8s_secret(r, app))
        files.append(terraform(r, app))
        files.append(shadow(r, f"backup{copy}"))
        files.append(passwd(r, f"backup{copy}"))
        files.append(proftpd(r, f"backup{copy}"))
        files.append(htpasswd(r, f"www{copy}"))
        files.append(sql_dump(r, app))
        files += data_logins(r, app)
        files += php_frameworks(r, f"www{copy}", app)
        files += documentation(r, app)
        files += ordinary(r, app)
    labels: dict[str, list[dict]] = {"risky": [], "lookalikes": []}
    for rel, lines in files:
        full = os.path.join(tree, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="\n") as handle:
            handle.write("\n".join(text for text, _ in lines) + "\n")
        block_end = None
        for number, (_text, label) in enumerate(lines, 1):
            if label is None:
                continue
            entry = {"path": rel, "line": number, "kind": label[1]}
            if label[1] == "putty-ppk":  # the whole key is one secret
                block_end = len(lines)
                entry["end"] = block_end
            labels["risky" if label[0] == RISKY else "lookalikes"].append(entry)
    digest = hashlib.sha256(json.dumps(labels, sort_keys=True).encode()).hexdigest()[:12]
    labels["files"] = len(files)  # type: ignore[assignment]
    labels["digest"] = digest  # type: ignore[assignment]
    with open(os.path.join(out, "labels.json"), "w", encoding="utf-8") as handle:
        json.dump(labels, handle, indent=1)
    return labels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(BENCH, "out", "dotfiles-dev"))
    ap.add_argument("--copies", type=int, default=3, help="home folders / projects to generate")
    args = ap.parse_args(argv)
    labels = generate(args.seed, args.out, args.copies)
    print(f"{labels['files']} files, {len(labels['risky'])} risky lines, "
          f"{len(labels['lookalikes'])} look-alikes -> {args.out}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
