"""The cyclic garbage collector, tuned for a server that runs for days.

With Python's defaults (700, 10, 10) a server of 300 tables ran a full collection every
two or three seconds over some 330,000 objects (the imported code and every table's
state), each a stall of the event loop of 100 ms or more that every message waited out.
A table's states die by reference counting, not by the collector, so the collector can
run far less often without the memory growing."""

from __future__ import annotations

import gc

MIDDLE_THRESHOLD = 50
OLD_THRESHOLD = 100


def tune_collector(young: int) -> bool:
    """Freeze what exists now and collect the young generation every ``young`` net
    allocations; 0 (or less) keeps Python's defaults. Returns whether it tuned.

    Freezing takes what start-up built (modules, functions, types: they live as long as
    the process) out of every later collection. A full collection still runs after every
    hundredth middle one, so cycles left by finished rooms are still freed."""
    if young <= 0:
        return False
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, MIDDLE_THRESHOLD, OLD_THRESHOLD)
    return True
