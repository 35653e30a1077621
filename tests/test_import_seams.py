"""Every name is imported from the module that defines it, and no private name crosses a
module boundary (issue 22).

The splits of issues 13–20 left re-export blocks behind, and callers kept importing through
them: 127 sites. This walks the AST of every project file: a ``from X import N`` of a project
module X must find N defined in X (a def, a class, an assignment, or a submodule), never
merely imported there; a ``X.N`` read through a module alias likewise. The exceptions are
monkeypatching, which patches a name where it is used, and the ``pytest`` fixtures' own
conventions. The store's import graph has its own layers contract in pyproject.toml.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("agent", "app", "tests", "evals", "benchmarks")


def _name(path: Path) -> str:
    dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return dotted.removesuffix(".__init__")


FILES = sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))
MODULES = {_name(p): p for p in FILES}


def _top_level(path: Path) -> tuple[set[str], set[str]]:
    """(names the module defines, names it only imports) at its top level."""
    defined: set[str] = set()
    imported: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.ImportFrom | ast.Import):
            imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.If | ast.Try):
            for sub in ast.walk(node):
                if isinstance(sub, ast.FunctionDef | ast.ClassDef):
                    defined.add(sub.name)
                elif isinstance(sub, ast.Assign):
                    defined |= {n.id for t in sub.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
                elif isinstance(sub, ast.ImportFrom | ast.Import):
                    imported |= {(a.asname or a.name).split(".")[0] for a in sub.names}
    return defined, imported - defined


TOP = {name: _top_level(path) for name, path in MODULES.items()}


def _defines(module: str, name: str) -> bool:
    return name in TOP[module][0] or f"{module}.{name}" in MODULES


def _problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _name(path) if path.is_relative_to(ROOT) else path.stem
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    found: list[str] = []
    aliases: dict[str, str] = {}
    patched: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setattr":
            patched |= {id(sub) for arg in node.args for sub in ast.walk(arg)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in MODULES and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in MODULES:
                    aliases[alias.asname or alias.name] = full
                    continue
                if not _defines(node.module, alias.name):
                    found.append(f"{shown}:{node.lineno}: {alias.name} is not defined in {node.module}")
                if alias.name.startswith("_") and not alias.name.startswith("__") and node.module != here:
                    found.append(f"{shown}:{node.lineno}: private {alias.name} imported from {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and id(node.value) not in patched
        ):
            module = aliases[node.value.id]
            if not _defines(module, node.attr) and node.attr in TOP[module][1]:
                found.append(f"{shown}:{node.lineno}: {node.value.id}.{node.attr} is only imported in {module}")
    return found


def test_every_name_is_imported_from_where_it_lives_and_no_private_name_crosses() -> None:
    problems = [line for path in FILES for line in _problems(path)]
    assert problems == []


def test_no_module_lists_a_name_it_does_not_define_in_all() -> None:
    """``__all__`` of a foreign name is a re-export block by another name."""
    problems = []
    for name, path in MODULES.items():
        if path.name == "conftest.py":
            continue  # a conftest lists the fixtures it registers; pytest finds them by that name
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                listed = [e.value for e in getattr(node.value, "elts", []) if isinstance(e, ast.Constant)]
                problems += [f"{name}: {item}" for item in listed if not _defines(name, str(item))]
    assert problems == []


@pytest.mark.parametrize(
    "source",
    [
        "from agent.store.db import SCHEMA_VERSION\n",  # defined in file_check, imported by db
        "import agent.store.db as d\nx = d.FileGuard\n",  # FileGuard lives in file_guard
        "from agent.store.journal_record import _Pending\n",  # private
    ],
    ids=["re-exported name", "attribute through a re-export", "private name"],
)
def test_the_check_notices(tmp_path: Path, source: str) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    assert _problems(path) != []
