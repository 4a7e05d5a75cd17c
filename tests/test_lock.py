"""The lock `make` installs from (requirements/lock.txt, made by scripts/lock.sh) pins, with
hashes, every package of every extra the Makefile installs, at a version its extra accepts.
A helper who adds a package or an extra and forgets `make lock` is told here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).parent.parent


def _pins(path: Path) -> dict[str, tuple[str, int]]:
    """name → (version, number of hashes) for each ``name==version`` entry."""
    text = path.read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(
        r"^([A-Za-z0-9._-]+)==(\S+)((?:\s*\\\s*--hash=sha256:[0-9a-f]{64})*)", text, re.M
    ):
        out[canonicalize_name(m[1])] = (m[2], m[3].count("--hash=sha256:"))
    return out


def _make_extras() -> list[str]:
    m = re.search(r"^EXTRAS\s*:?=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M)
    assert m, "the Makefile names the extras it installs in an EXTRAS line"
    return m[1].split(",")


def test_every_extra_make_installs_is_pinned_with_hashes() -> None:
    pins = _pins(ROOT / "requirements" / "lock.txt")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    missing = []
    for extra in _make_extras():
        assert extra in extras, f"the Makefile installs an extra pyproject.toml lacks: {extra}"
        for line in [*project["dependencies"], *extras[extra]]:
            req = Requirement(line)
            if req.marker is not None and not req.marker.evaluate({"extra": extra}):
                continue
            name = canonicalize_name(req.name)
            if name not in pins:
                missing.append(f"{extra}: {req} is not in the lock")
            elif not req.specifier.contains(pins[name][0], prereleases=True):
                missing.append(f"{extra}: the lock pins {name}=={pins[name][0]}, not {req}")
    assert not missing, "run `make lock` (scripts/lock.sh):\n" + "\n".join(missing)


def test_every_pin_carries_a_hash_and_the_build_backend_is_locked() -> None:
    pins = _pins(ROOT / "requirements" / "lock.txt")
    assert all(hashes for _, hashes in pins.values()), "every entry needs --hash"
    backend = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    for line in backend:
        assert canonicalize_name(Requirement(line).name) in pins
    pip = _pins(ROOT / "requirements" / "pip.txt")
    assert set(pip) == {"pip"} and pip["pip"][1] > 0


def test_make_installs_from_the_lock_only() -> None:
    rule = (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements/lock.txt" in rule
    assert "--no-deps --no-build-isolation -e ." in rule
    installs = [line for line in rule.splitlines() if "pip install" in line]
    assert installs and all("--require-hashes" in x or "--no-deps" in x for x in installs)
