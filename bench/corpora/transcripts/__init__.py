"""Transcripts: the bench session (planted secrets and commands) and a Read-heavy one."""
