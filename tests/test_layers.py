"""Imports point one way: engine ← identity and presentation ← archive ← live play.

A module may import from its own layer and the layers below it, never from above: the
archive never reaches into live play, the presentation helpers serve both, and within live
play the read path (state, render) never calls the writers (services). The engine's own
purity (standard library only) is tests/engine/test_purity.py.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"

# From the bottom up; a module belongs to the first layer one of whose prefixes it has.
LAYERS = [
    ("engine", ("games.engine",)),
    ("computer", ("games.computer",)),
    ("below", ("games.identity", "games.errors", "games.rates", "games.display", "games.templatetags")),
    ("archive", ("games.archive",)),
    ("live", ("games",)),
]
# Inside live play: the modules of the read path, and what they may not import.
READ_PATH = {"games.live.snapshot": {"games.live.owner", "games.live.store", "games.live.render", "games.live.consumers",
                                     "games.live.views"},
             "games.live.render": {"games.live.owner", "games.live.store", "games.live.snapshot", "games.live.consumers",
                                   "games.live.views"}}


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module):
    for rank, (_name, prefixes) in enumerate(LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return rank
    return None


def imports_of(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module
            # `from games.live import owner` imports the module games.live.owner.
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def project_modules():
    return [path for path in GAMES.rglob("*.py") if "migrations" not in path.parts]


def upward_imports():
    found = set()
    for path in project_modules():
        module = module_name(path)
        for imported in imports_of(path):
            target = layer_of(imported) if imported.startswith("games") else None
            if target is not None and target > layer_of(module) and imported != "games":
                found.add((module, imported))
    return found


def test_it_never_imports_a_higher_layer_from_a_lower_one():
    assert upward_imports() == set()


def test_it_keeps_the_read_path_free_of_the_writers():
    found = {
        (module_name(path), imported)
        for path in project_modules()
        for imported in imports_of(path)
        if imported in READ_PATH.get(module_name(path), ())
    }
    assert found == set()


def test_it_would_notice_the_archive_importing_live_play():
    # The check itself can fail: a line like the one the archive once had is caught.
    assert layer_of("games.live.owner") > layer_of("games.archive.record")
    assert layer_of("games.display.sheet") < layer_of("games.archive.views")
