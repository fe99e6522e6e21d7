"""`Quiet`: transcript units counted, not scanned. A tuple subclass in a module of its own,
as the modules that make and count them (sources/transcripts/session.py, engine/scan.py)
may run compiled, and a compiled class cannot subclass tuple (native.py)."""

from __future__ import annotations


class Quiet(tuple):  # type: ignore[type-arg]
    """Transcript units that no rule can reach, counted but neither handed on nor scanned:
    their file, the bytes of their records and how many they are (`Session.unit` asks
    `RuleSet.unit_hits` while a `tally` runs, and hands them on together). The stats are
    those of the units it stands for."""

    __slots__ = ()

    @property
    def units(self) -> int:
        return self[2]  # type: ignore[no-any-return]

    @property
    def path(self) -> str:
        return self[0]  # type: ignore[no-any-return]

    @property
    def size(self) -> int:
        return self[1]  # type: ignore[no-any-return]
