"""The aesoc package's layers (docs/ARCHITECTURE.md, "Package layout"): every module belongs to one
layer, imports only go down (siblings of one layer do not import each other), and no two modules
import each other, directly or round a circle. Imports inside functions count as well."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from aesoc.common.toolchain import REPO

pytestmark = pytest.mark.no_model

PACKAGE = REPO / "aesoc"
# Lowest first; the parts of one layer are independent of each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("aesoc.common",),
    ("aesoc.soc",),
    ("aesoc.xip",),
    ("aesoc.sim", "aesoc.fpga"),
    ("aesoc.bench", "aesoc.integrate"),
    ("aesoc.report",),
    ("aesoc.cli",),
    ("aesoc.__main__",),
)
# The package's own __init__ holds only its docstring: no layer.
OUTSIDE = {"aesoc"}

Graph = Mapping[str, set[str]]


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.AST, here: str, is_package: bool) -> Iterator[str]:
    """The dotted names one import statement can bind: for `from a import b`, a.b (b a module) and a."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            anchor = here.split(".")[: len(here.split(".")) - node.level + (1 if is_package else 0)]
            base = ".".join([*anchor, *([node.module] if node.module else [])])
        yield base
        yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package under `root` and the package's modules it imports."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        names = {n for node in ast.walk(tree) for n in _imported(node, name, path.name == "__init__.py")}
        graph[name] = {n for n in names if n in files and n != name and n not in OUTSIDE}
    return graph


def layer_of(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> tuple[int, str] | None:
    """(layer index, the part of that layer) holding `module`, or None."""
    for index, parts in enumerate(layers):
        for part in parts:
            if module == part or module.startswith(part + "."):
                return index, part
    return None


def unplaced(graph: Graph, layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    return sorted(m for m in graph if m not in OUTSIDE and layer_of(m, layers) is None)


def upward(graph: Graph, layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    """'a -> b' for each import of a module in a higher layer, or in a sibling part of the same layer."""
    found = []
    for module, imports in sorted(graph.items()):
        here = layer_of(module, layers)
        for imported in sorted(imports):
            there = layer_of(imported, layers)
            if here is None or there is None:
                continue
            if there[0] > here[0] or (there[0] == here[0] and there[1] != here[1]):
                found.append(f"{module} -> {imported}")
    return found


def circle(graph: Graph) -> list[str]:
    """One import circle as the modules round it (first repeated last), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == 1:
                return [*path[path.index(imported):], imported]
            if imported not in state:
                found = visit(imported)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return []

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return []


def test_every_module_has_a_layer() -> None:
    assert unplaced(import_graph()) == []


def test_imports_only_go_down() -> None:
    assert upward(import_graph()) == []


def test_no_import_circle() -> None:
    assert circle(import_graph()) == []


def documented_layers(text: str) -> dict[int, set[str]]:
    """The layers that docs/ARCHITECTURE.md's "Package layout" table names: number -> modules."""
    section = text.split("## Package layout", 1)[1].split("\n## ", 1)[0]
    layers: dict[int, set[str]] = {}
    for number, cell in re.findall(r"^\| (\d+) \| ([^|]+) \|", section, re.M):
        paths = re.findall(r"`(aesoc/[\w/]*?)(?:\.py|/)`", cell)
        layers.setdefault(int(number), set()).update(p.replace("/", ".") for p in paths)
    return layers


def test_architecture_doc_names_the_layers() -> None:
    text = (REPO / "docs" / "ARCHITECTURE.md").read_text()
    assert documented_layers(text) == {i + 1: set(parts) for i, parts in enumerate(LAYERS)}


def test_the_checks_catch_what_they_forbid(tmp_path: Path) -> None:
    """A package laid out as aesoc's, with a lower module importing a higher one (also inside a
    function, also relatively), a sibling import and a circle: each check reports it."""
    pkg = tmp_path / "aesoc"
    for folder in ("common", "soc", "sim", "fpga"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "common" / "tools.py").write_text("def f():\n    from aesoc.sim import model\n")
    (pkg / "soc" / "desc.py").write_text("from ..fpga.place import x\nfrom . import gen\n")
    (pkg / "soc" / "gen.py").write_text("import aesoc.soc.desc\n")
    (pkg / "sim" / "model.py").write_text("from aesoc.fpga import place\nfrom aesoc.soc import desc\n")
    (pkg / "fpga" / "place.py").write_text("x = 1\n")
    (pkg / "loose.py").write_text("")
    graph = import_graph(pkg)
    assert upward(graph) == ["aesoc.common.tools -> aesoc.sim", "aesoc.common.tools -> aesoc.sim.model",
                             "aesoc.sim.model -> aesoc.fpga", "aesoc.sim.model -> aesoc.fpga.place",
                             "aesoc.soc.desc -> aesoc.fpga.place"]
    assert circle(graph) == ["aesoc.soc.desc", "aesoc.soc.gen", "aesoc.soc.desc"]
    assert unplaced(graph) == ["aesoc.loose"]
