"""The collector tuning of a served server: frozen start-up, rarer young collections."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from paiju.server.collector import MIDDLE_THRESHOLD, OLD_THRESHOLD, tune_collector
from paiju.server.room import ServerConfig


@pytest.fixture
def restored() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_zero_keeps_pythons_defaults(restored: None) -> None:
    before = gc.get_threshold()
    assert tune_collector(0) is False
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_the_served_default_freezes_start_up_and_spaces_young_collections(
    restored: None,
) -> None:
    young = ServerConfig().gc_young
    assert young > gc.get_threshold()[0]
    assert tune_collector(young) is True
    assert gc.get_threshold() == (young, MIDDLE_THRESHOLD, OLD_THRESHOLD)
    assert gc.get_freeze_count() > 1000


def test_cycles_made_after_the_freeze_are_still_collected(restored: None) -> None:
    tune_collector(ServerConfig().gc_young)

    class Node:
        def __init__(self) -> None:
            self.me = self

    cycle = Node()
    del cycle
    assert gc.collect() >= 1
