"""The engine's import graph runs one way: no module of ``src/lemmacheck`` reaches itself again.

Every module is parsed with :mod:`ast` and every import counts, wherever it is written: at the top,
inside a function, under ``if TYPE_CHECKING``. An import hidden in a function still makes the two
modules depend on each other; it only moves the failure from import time to call time.

How an import statement becomes edges:

* ``import a.b`` is an edge to ``a.b``; relative imports are resolved against the importing module
  (a package's ``__init__`` resolves them against the package itself).
* ``from pkg import name`` is an edge to ``pkg.name`` when that is a module of ``src/``, else to
  ``pkg``; importing a package is importing its ``__init__``.
* The top-level package ``lemmacheck`` is an ordinary node too: its ``__init__`` is the public façade
  and imports the engine, so no engine module may import it (the version lives in ``version.py``).
  Every other package ``__init__`` (``kinds``, ``mutate``, ``report``) is an ordinary node as well.
* Imports of modules outside ``src/lemmacheck`` (the standard library, NumPy, content) are not edges.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT_PACKAGE = "lemmacheck"


def _module_names() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for path in sorted((SRC / ROOT_PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _import_targets(module: str, path: Path, modules: set[str]) -> set[str]:
    """The modules of ``src/`` that ``module`` imports, anywhere in its text."""
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                base_parts = anchor[: len(anchor) - (node.level - 1)]
                if node.module:
                    base_parts.append(node.module)
                base = ".".join(base_parts)
            else:
                base = node.module or ""
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                targets.add(candidate if candidate in modules else base)
    return {t for t in targets if t in modules and t != module}


def import_graph() -> dict[str, set[str]]:
    names = _module_names()
    modules = set(names)
    return {module: _import_targets(module, path, modules) for module, path in names.items()}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def test_graph_sees_imports_inside_functions_and_resolves_relative_ones() -> None:
    graph = import_graph()
    # cli imports watch inside a function (``from . import watch``): a module, so an edge to it
    assert "lemmacheck.cli.watch" in graph["lemmacheck.cli.main"]
    # kinds/__init__: ``from . import numeric`` resolves against the package itself
    assert "lemmacheck.kinds.numeric" in graph["lemmacheck.kinds"]
    # ``from .base import CHECKERS`` in kinds/__init__ is an import of the module kinds.base
    assert "lemmacheck.kinds.base" in graph["lemmacheck.kinds"]


def test_cycle_finder_reports_a_planted_cycle() -> None:
    planted = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(planted) == [["a", "b", "c"]]


def test_import_graph_of_src_is_acyclic() -> None:
    cycles = import_cycles(import_graph())
    if cycles:
        pytest.fail("import cycles in src/:\n" + "\n".join("  " + " <-> ".join(c) for c in cycles))


# --------------------------------------------------------------------------- small modules, small functions
# Issue 23 §3: a file does one thing, and a function one step of it.  Lines are physical lines of the
# file; a function's lines run from its ``def`` to its last line (decorators left out), a method and a
# nested function counted on their own as well as inside what holds them.

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
ENGINE = SRC / ROOT_PACKAGE


def long_modules(root: Path = ENGINE, limit: int = MAX_MODULE_LINES) -> list[str]:
    """``path: N lines`` for every module of ``root`` over ``limit`` lines, longest first."""
    found = []
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append((lines, f"{path.relative_to(root.parent)}: {lines} lines"))
    return [text for _, text in sorted(found, key=lambda f: -f[0])]


def long_functions(root: Path = ENGINE, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """``path:line qualified.name: N lines`` for every function of ``root`` over ``limit`` lines."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name, node in _functions(tree, ""):
            lines = node.end_lineno - node.lineno + 1
            if lines > limit:
                where = f"{path.relative_to(root.parent)}:{node.lineno}"
                found.append((lines, f"{where} {name}: {lines} lines"))
    return [text for _, text in sorted(found, key=lambda f: -f[0])]


def _functions(node: ast.AST, prefix: str):
    """Every function under ``node`` with its qualified name (``Class.method``, ``outer.inner``)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{child.name}"
            if not isinstance(child, ast.ClassDef):
                yield name, child
            yield from _functions(child, name + ".")
        else:
            yield from _functions(child, prefix)


def test_size_gates_find_a_planted_long_module_and_function(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(4))
    (package / "small.py").write_text(f"def fits():\n{body}\n")  # 5 lines
    nested = "class Holder:\n    def method(self):\n        def inner():\n" + "\n".join(
        f"            y{i} = {i}" for i in range(6)
    )
    (package / "big.py").write_text(nested + "\n" + "\n" * 10)  # inner: 7 lines, file 19 lines
    assert long_modules(package, limit=10) == ["pkg/big.py: 19 lines"]
    assert long_functions(package, limit=6) == [
        "pkg/big.py:2 Holder.method: 8 lines",
        "pkg/big.py:3 Holder.method.inner: 7 lines",
    ]
    assert long_modules(package, limit=19) == [] and long_functions(package, limit=8) == []


def test_no_engine_module_over_400_lines() -> None:
    offenders = long_modules()
    if offenders:
        pytest.fail(
            f"engine modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(f"  {o}" for o in offenders)
        )


def test_no_engine_function_over_60_lines() -> None:
    offenders = long_functions()
    if offenders:
        pytest.fail(
            f"engine functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(f"  {o}" for o in offenders)
        )


CONTENT = [SRC.parent / "checks", SRC.parent / "derivations"]


def engine_imports(roots: list[Path] = CONTENT) -> list[str]:
    """Imports of an engine module (``lemmacheck.<anything>``) by content, which sees only the façade."""
    found = []
    for path in sorted(p for root in roots for p in root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            found += [f"{path}:{node.lineno}: {n}" for n in names if n.startswith(f"{ROOT_PACKAGE}.")]
    return found


def test_the_content_gate_finds_a_planted_engine_import(tmp_path: Path) -> None:
    (tmp_path / "study.py").write_text(
        "def f():\n    from lemmacheck.xp import numpy_xp\n    import lemmacheck\n"
    )
    assert engine_imports([tmp_path]) == [f"{tmp_path / 'study.py'}:2: lemmacheck.xp"]


def test_content_imports_only_the_facade() -> None:
    assert engine_imports() == [], "content imports the engine; import its name from lemmacheck instead"
