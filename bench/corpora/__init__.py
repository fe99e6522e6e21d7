"""Corpus generators for the benchmarks and tests, one package per domain; standard library only."""
