"""The engine imports only the standard library, and the computer player only that and the
engine: no Django, no Channels, no I/O packages."""

import sys
from pathlib import Path

import games.computer
import games.engine
from tests.test_layers import imports_of

ENGINE = Path(games.engine.__file__).parent
COMPUTER = Path(games.computer.__file__).parent


def test_it_imports_only_the_standard_library_and_itself():
    outside = {
        (path.name, module)
        for path in ENGINE.rglob("*.py")
        for module in imports_of(path)
        if module.split(".")[0] not in sys.stdlib_module_names
    }
    assert outside == set()


def test_the_computer_imports_only_the_standard_library_the_engine_and_itself():
    outside = {
        (path.name, module)
        for path in COMPUTER.rglob("*.py")
        for module in imports_of(path)
        if module.split(".")[0] not in sys.stdlib_module_names and not module.startswith("games.engine")
    }
    assert outside == set()


def test_it_finds_the_computer_modules_it_checks():
    assert {"__init__.py", "players.py", "search.py"} <= {path.name for path in COMPUTER.rglob("*.py")}


def test_it_finds_the_engine_modules_it_checks():
    assert {"cards.py", "melds.py", "hand.py", "match.py"} <= {path.name for path in ENGINE.rglob("*.py")}
