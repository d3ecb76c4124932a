"""The shape of the package, read from its source: imports run one way, top to bottom.

cli -> present, documents, web -> cache -> db -> codec -> core. Every import counts, also one inside a
function, so a loop cannot hide there. See docs/architecture.md.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "ginscore"
# Each layer may import only the layers below it.
LAYERS = {"core": 0, "codec": 1, "db": 2, "cache": 3, "documents": 4, "present": 4, "web": 4, "cli": 5}
# The only layers that may import each outside library the house is built on.
LIBRARIES = {"typer": {"cli"}, "click": {"cli"}, "tinydb": {"db"}, "rich": {"present", "cli"},
             "openskill": {"core"},
             # the web server of `serve` (ginscore/web/, imported by the serve command alone)
             "starlette": {"web"}, "uvicorn": {"web"}, "segno": {"web"}, "anyio": {"web"}}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> list[tuple[str, str | None]]:
    """(module imported, name taken from it or None) for every import in module ``name``."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.append((whole, None) if whole in MODULES else (base, alias.name))
    return found


def layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "ginscore" and parts[1] in LAYERS else None


GRAPH = {name: {target for target, _ in imports(name) if target in MODULES and target != name} for name in MODULES}


def test_no_module_imports_itself_back_through_others():
    order, on_path, loops = {}, [], []

    def visit(name: str) -> None:
        order[name] = "open"
        on_path.append(name)
        for target in sorted(GRAPH[name]):
            if order.get(target) == "open":
                loops.append(on_path[on_path.index(target):] + [target])
            elif target not in order:
                visit(target)
        on_path.pop()
        order[name] = "done"

    for name in MODULES:
        if name not in order:
            visit(name)
    assert not loops, loops


def test_each_layer_imports_only_the_layers_below_it():
    upward = [(name, target) for name in MODULES for target in GRAPH[name]
              if layer(name) and layer(target) and layer(name) != layer(target)
              and LAYERS[layer(target)] >= LAYERS[layer(name)]]
    assert not upward, upward


def test_typer_rich_and_tinydb_are_each_imported_by_their_own_layer_only():
    strays = [(name, target) for name in MODULES for target, _ in imports(name)
              if target.split(".")[0] in LIBRARIES and layer(name) not in LIBRARIES[target.split(".")[0]]]
    assert not strays, strays


def test_no_module_is_over_500_lines():
    """A module a newcomer reads at one sitting: a longer one holds two jobs (split it by job)."""
    long = {name: lines for name, path in MODULES.items()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 500}
    assert not long, long


def test_no_command_module_imports_another():
    """A command's module is a leaf: what two commands share lives beside them (actions, matched), and
    importing a module registers its commands, so one command must not load another's."""
    commands = [name for name in MODULES if name.startswith("ginscore.cli.commands.")]
    across = [(name, target) for name in commands for target in GRAPH[name] if target in commands]
    assert not across, across


def test_no_underscore_name_is_imported_from_another_module():
    private = [(name, f"{target}.{taken}") for name in MODULES for target, taken in imports(name)
               if taken and taken.startswith("_") and not taken.startswith("__") and target.startswith("ginscore")]
    assert not private, private


def test_advice_to_run_a_command_is_written_by_the_command_line_only():
    """Below the command line a command to run is an ``errors.Command``, never text, so the command
    line can write it for the database in use."""
    written = []
    for name, path in MODULES.items():
        if layer(name) in (None, "cli", "present") or name == "ginscore.core.errors":  # (Command's own plain form)
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        written += [(name, node.lineno) for node in ast.walk(tree)
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and "`ginscore " in node.value and id(node) not in docstrings]
    assert not written, written
