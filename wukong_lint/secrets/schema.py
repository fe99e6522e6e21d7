"""The YAML schema of `credential-file` rules, apart from their matcher (secrets/credfiles.py)
so that loading a cached rule set never imports pydantic."""

from __future__ import annotations

from typing import Literal

from wukong_lint.engine.schema import RuleBase

# One per parser in secrets/formats.py, plus the logins in data files (secrets/datalogins.py).
FormatName = Literal[
    "netrc", "pgpass", "git-credentials", "npmrc", "yarnrc-yml", "pypirc", "docker-config",
    "s3cfg", "aws-credentials", "nuget-config", "maven-settings", "putty-key",
    "rails-master-key", "firefox-logins", "filezilla", "ide-deployment", "jetbrains",
    "robomongo", "dbeaver", "mail-rc", "ventrilo", "kubernetes-secret", "terraform",
    "mysql-cnf", "keystore", "tomcat-users", "kubeconfig", "rails-database", "vault-token",
    "terraform-credentials", "cargo-credentials", "data-login",
]  # fmt: skip


class CredentialFileRule(RuleBase):
    """A credential in a file of a known format, found by reading the format."""

    kind: Literal["credential-file"]
    format: FormatName
    # the path the rule's examples are scanned as (the format is told by the file's name)
    example_path: str
