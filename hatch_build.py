"""Build hook: compiles the observation encoders' C module (``src/paiju/rl/_cencode.c``).

The module is an accelerator, not a requirement: where no C compiler or no Python
headers are found, or ``PAIJU_NO_C`` is set, the build goes on without it and
:mod:`paiju.rl.encode` uses its Python path (the same observations, slower). An editable
install (``make`` installs paiju so) gets the module next to its source; a wheel gets it
in the wheel, tagged for this interpreter and platform.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("src/paiju/rl/_cencode.c")
MODULE = "paiju/rl/_cencode"


def compile_module(root: Path, out_dir: Path) -> Path | None:
    """The compiled module in ``out_dir``, or None (with the reason on stderr)."""
    if os.environ.get("PAIJU_NO_C"):
        print("paiju: PAIJU_NO_C is set: the encoders' C module is not built", file=sys.stderr)
        return None
    if sys.platform == "win32":
        print("paiju: the encoders' C module is not built on Windows", file=sys.stderr)
        return None
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    target = out_dir / ("_cencode" + suffix)
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    flags = ["-O2", "-shared", "-fPIC", "-I" + sysconfig.get_paths()["include"]]
    if sys.platform == "darwin":
        flags += ["-undefined", "dynamic_lookup"]
    cmd = [*cc, *flags, str(root / SOURCE), "-o", str(target)]
    try:
        subprocess.run(cmd, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        print(
            f"paiju: the encoders' C module was not built ({' '.join(cmd)}): {detail.strip()}\n"
            "paiju: paiju.rl encodes in Python instead (same observations, slower)",
            file=sys.stderr,
        )
        return None
    return target


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if version == "editable":
            compile_module(root, root / SOURCE.parent)
            return
        self._tmp = tempfile.TemporaryDirectory()
        built = compile_module(root, Path(self._tmp.name))
        if built is None:
            return
        build_data["force_include"][str(built)] = MODULE + built.name.removeprefix("_cencode")
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
