"""The package as a whole: exports, version, docstrings, type stubs, py.typed."""

import ast
import inspect
from pathlib import Path

import ai2048
from ai2048 import _ai2048

PACKAGE = Path(ai2048.__file__).parent


def test_exports():
    for name in ai2048.__all__:
        assert getattr(ai2048, name) is not None, name
    assert ai2048.__version__.count(".") == 2
    assert ai2048.MAX_TILE == 131072 and ai2048.MAX_DEPTH == 20


def test_everything_public_has_a_docstring():
    missing = []
    for name in ai2048.__all__:
        obj = getattr(ai2048, name)
        if not (inspect.isclass(obj) or callable(obj)):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") or attr in {"name", "value"}:
                    continue
                if callable(member) or isinstance(member, property) or type(member).__name__ == "getset_descriptor":
                    if not (getattr(member, "__doc__", None) or "").strip():
                        missing.append(f"{name}.{attr}")
    assert missing == []


def test_the_stubs_cover_the_native_module():
    stub = ast.parse((PACKAGE / "_ai2048.pyi").read_text())
    declared = {
        node.name for node in stub.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))
    } | {
        target.id
        for node in stub.body
        if isinstance(node, (ast.AnnAssign, ast.Assign))
        for target in ([node.target] if isinstance(node, ast.AnnAssign) else node.targets)
        if isinstance(target, ast.Name)
    }
    public = {n for n in dir(_ai2048) if not n.startswith("_")} | {"__version__"}
    assert public - declared == set()
    classes = {node.name: node for node in stub.body if isinstance(node, ast.ClassDef)}
    for name, node in classes.items():
        native = getattr(_ai2048, name)
        stubbed = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
        real = {a for a in vars(native) if not a.startswith("_")}
        assert real - stubbed == set(), name
    assert (PACKAGE / "py.typed").exists()
