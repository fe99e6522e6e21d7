"""Secrets: trees with planted credentials, leaked dotfiles, provider-token shapes; labelled."""
