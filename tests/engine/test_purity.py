"""The engine imports only the standard library: no Django, no Channels, no I/O packages."""

import sys
from pathlib import Path

import games.engine
from tests.test_layers import imports_of

ENGINE = Path(games.engine.__file__).parent


def test_it_imports_only_the_standard_library_and_itself():
    outside = {
        (path.name, module)
        for path in ENGINE.rglob("*.py")
        for module in imports_of(path)
        if module.split(".")[0] not in sys.stdlib_module_names
    }
    assert outside == set()


def test_it_finds_the_engine_modules_it_checks():
    assert {"cards.py", "melds.py", "hand.py", "match.py"} <= {path.name for path in ENGINE.rglob("*.py")}
