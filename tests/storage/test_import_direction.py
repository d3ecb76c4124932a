"""Storage reads one way: db imports nothing of the cache or the command line, the cache nothing of
the command line; counting imports inside functions too."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "ginscore"


def _imports(path: Path) -> set[str]:
    """Every ginscore module a file imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("ginscore.")}


def _below(folder: str) -> dict[str, set[str]]:
    return {path.stem: _imports(path) for path in (PACKAGE / folder).glob("*.py")}


def test_db_never_imports_the_cache_or_anything_above_it():
    for module, names in _below("db").items():
        above = {name for name in names if name.split(".")[1] in ("cache", "cli", "present", "documents")}
        assert not above, (module, above)


def test_the_cache_never_imports_the_command_line_or_the_screens():
    for module, names in _below("cache").items():
        above = {name for name in names if name.split(".")[1] in ("cli", "present", "documents")}
        assert not above, (module, above)


def test_no_import_loop_within_storage_and_the_cache():
    graph = {f"ginscore.{folder}.{module}": {name for name in names if name.split(".")[1] in ("db", "cache")}
             for folder in ("db", "cache") for module, names in _below(folder).items()}
    graph = {module: {name if name in graph else name.rsplit(".", 1)[0] for name in names} & set(graph)
             for module, names in graph.items()}

    def reaches(start: str, target: str, seen: set) -> bool:
        for name in graph[start] - seen:
            seen.add(name)
            if name == target or reaches(name, target, seen):
                return True
        return False

    looped = [module for module in graph if reaches(module, module, set())]
    assert not looped, looped
