"""The table's owner (games.live.owner) is the one writer of a live table, through the store
(games.live.store), the only module that writes its rows or runs SQL of its own; only the
owner's own modules (the owner, the opening of a table, the registry of tables) use the
store, and nothing reaches into an owner's match, seats or lock. Read from the source, as
tests/test_layers.py reads the imports."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
WRITER = "games/live/store.py"
# The modules that may call the store: what only the owner of a table (or its opening, before
# it has one, or the registry of owners) does.
STORE_USERS = {"games/live/owner.py", "games/live/opening.py", "games/live/tables.py"}
LIVE_MODELS = {"Table", "Seat", "Move", "ChatMessage"}
WRITES = {"update", "create", "delete", "save", "bulk_create", "bulk_update", "get_or_create", "update_or_create",
          "select_for_update"}
# An owner's insides: what it holds and how it changes; readers take `owner.snapshot`.
INSIDES = {"match", "seats", "lock", "in_doubt", "publish", "load", "read_seats", "changing", "retrying"}


def modules():
    for folder in ("games", "hollywood_site"):
        for path in (ROOT / folder).rglob("*.py"):
            name = path.relative_to(ROOT).as_posix()
            if "migrations" not in path.parts and name != WRITER:
                yield name, ast.parse(path.read_text())


def root_name(node):
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def writes_outside_the_owner(source):
    for node in ast.walk(source):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in WRITES and root_name(node.func.value) in LIVE_MODELS:
                yield f"{node.func.attr} on {root_name(node.func.value)}"
            if node.func.attr == "execute":
                yield "SQL of its own"


def reaches_into_an_owner(source):
    owners = {"owner", "room", "live_table"}
    for node in ast.walk(source):
        if isinstance(node, ast.Attribute) and node.attr in INSIDES and isinstance(node.value, ast.Name) \
                and node.value.id in owners:
            yield f"{node.value.id}.{node.attr}"
        if imports_the_store(node):
            yield "imports the owner's store"


def imports_the_store(node):
    if isinstance(node, ast.ImportFrom):
        return node.module == "games.live.store" or node.module == "games.live" and any(
            alias.name == "store" for alias in node.names)
    return isinstance(node, ast.Import) and any(alias.name == "games.live.store" for alias in node.names)


def found(check):
    return {(name, what) for name, source in modules() if name.startswith(("games/live/", "hollywood_site/"))
            or check is writes_outside_the_owner for what in check(source)
            if not (what == "imports the owner's store" and name in STORE_USERS)}


def test_it_lets_no_module_but_the_owner_write_a_live_table():
    assert {(name, what) for name, what in found(writes_outside_the_owner)
            if not name.startswith("games/archive/")} == set()


def test_it_lets_no_module_reach_into_an_owner():
    assert found(reaches_into_an_owner) == set()


def test_it_would_notice_a_view_writing_a_seat():
    source = ast.parse("from games.live import store\nSeat.objects.filter(pk=1).update(ready=True)\n"
                       "owner.match.play('stock', 0)")
    assert list(writes_outside_the_owner(source)) == ["update on Seat"]
    assert sorted(reaches_into_an_owner(source)) == ["imports the owner's store", "owner.match"]
