"""The ``rl_steps`` bench lines: one per game, in the documented JSON shape, with the
RiichiEnv peer measured (no timing thresholds: speed is for ``paiju bench`` to report)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pettingzoo")

from paiju.bench import REGISTRY, main
from paiju.bench.rl import _ours, _riichienv

LINES = ["rl_steps", "rl_steps_taixing", "rl_steps_qinger"]


@pytest.mark.parametrize("name", LINES)
def test_line_shape(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert name in REGISTRY
    assert main([name], repeats=1, quick=True) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert list(line) == ["name", "ours_per_s", "peer", "peer_per_s", "ratio", "encoder"]
    from paiju.rl import encode

    assert line["encoder"] == ("python" if encode._C is None else "c")
    assert line["name"] == name
    assert line["ours_per_s"] > 0
    # riichienv is in the dev/bench extras: a null peer here means a broken import
    assert isinstance(line["peer"], str) and line["peer_per_s"] > 0
    assert line["ratio"] == pytest.approx(line["ours_per_s"] / line["peer_per_s"], rel=1e-2)


@pytest.mark.parametrize("variant", ["jiaxing", "taixing", "qinger"])
def test_our_side_makes_exactly_the_asked_decisions(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass is exactly ``steps`` decisions (more than one hand's: a hand boundary is
    crossed and the last hand cut), each one a mask read and a step; the same on every
    pass, so every pass times the same work."""
    from paiju.rl.env import PaijuAEC

    resets: list[int | None] = []
    real_reset = PaijuAEC.reset

    def counting_reset(self: PaijuAEC, seed: int | None = None, options: object = None) -> None:
        resets.append(seed)
        real_reset(self, seed=seed)

    monkeypatch.setattr(PaijuAEC, "reset", counting_reset)
    run = _ours(variant)
    assert run(250) == 250
    assert resets[0] == 0 and len(resets) >= 2
    first = list(resets)
    resets.clear()
    assert run(250) == 250
    assert resets == first


def test_peer_side_makes_exactly_the_asked_decisions() -> None:
    pytest.importorskip("riichienv")
    run = _riichienv()
    assert run(250) == 250
    assert run(3) == 3
