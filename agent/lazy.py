"""Third-party modules imported on first use, so a command or the app's first paint does not
pay for what it never calls (issue 14, item 6: ``richeng time resolve`` spent ~0.2 s CPU
importing icalendar and holidays it did not need).

Use it for a module that is only read inside functions::

    if TYPE_CHECKING:
        import icalendar
    else:
        icalendar = lazy_module("icalendar", __name__)

Type checkers see the real import; at run time the name holds a stand-in that imports the
module when an attribute is first read, then puts the real module in its owner's globals,
so every later read is an ordinary global lookup. Importing is thread-safe (the import
system's own locks); two threads racing the first read both get the same module.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


class LazyModule:
    """The stand-in for ``name`` in module ``owner`` under the global ``alias``."""

    __slots__ = ("_name", "_owner", "_alias")

    def __init__(self, name: str, owner: str, alias: str) -> None:
        self._name = name
        self._owner = owner
        self._alias = alias

    def __getattr__(self, attr: str) -> Any:
        module = importlib.import_module(self._name)
        owner = sys.modules.get(self._owner)
        if owner is not None and owner.__dict__.get(self._alias) is self:
            owner.__dict__[self._alias] = module
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r} for {self._owner}>"


def lazy_module(name: str, owner: str, alias: str | None = None) -> Any:
    """A stand-in for ``import name`` in the module called ``owner``; ``alias`` is the global
    it is bound to there (default: the last part of ``name``)."""
    return LazyModule(name, owner, alias or name.rpartition(".")[2])
