"""The house rules of imports: layers import downward only, and nothing imports in a circle.

Every ``import`` in ``src/paiju`` counts, those inside functions included: a lazy import
still ties two modules together. Only imports for type annotations (under
``if TYPE_CHECKING:``) load nothing and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

LAYERS = {"components": 0, "engine": 1, "variants": 2}
"""The core, bottom up. Everything else in paiju is an outer ring above all three."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "paiju").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _target(name: str) -> str | None:
    """The paiju module an imported name lives in (a package's ``__init__`` if need be)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> set[str]:
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for stmt in node.body
        for inner in ast.walk(stmt)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue  # annotations only: no module is loaded at run time
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{a.name}" for a in node.names]
        for name in names:
            if not name.startswith("paiju"):
                continue
            target = _target(name)
            if target is not None and target != module:
                found.add(target)
    return found


GRAPH = {m: _imports(m) for m in MODULES}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) == 1:
        return -1  # the package root holds only the version
    return LAYERS.get(parts[1])


def test_the_core_imports_downward_only() -> None:
    wrong = []
    for module, targets in GRAPH.items():
        mine = _layer(module)
        if mine is None or mine < 0:
            continue
        for target in targets:
            theirs = _layer(target)
            if theirs is None or theirs > mine:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_engine_names_no_game() -> None:
    engine = [m for m in GRAPH if m.startswith("paiju.engine")]
    assert engine
    assert not any(t.startswith("paiju.variants") for m in engine for t in GRAPH[m])


def test_no_import_cycle() -> None:
    # Tarjan's strongly connected components, iteratively
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    counter = 0
    for root in sorted(GRAPH):
        if root in index:
            continue
        work = [(root, iter(sorted(GRAPH[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(GRAPH[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    assert not cycles, "import cycles:\n" + "\n".join(" ↔ ".join(c) for c in cycles)


def test_the_walker_sees_lazy_imports() -> None:
    # a check that finds nothing because it reads nothing would pass for ever
    assert "paiju.variants.jiaxing.calculator" in GRAPH["paiju.variants.jiaxing.variant"]
    assert "paiju.engine.mahjong" in GRAPH["paiju.variants.jiaxing.rules"]
