"""Quick add's regular expressions, compiled once per installed copy instead of once per process.

``richeng quick`` is one sentence in a fresh process, so the ~150 patterns of the sentence
scanner are all compiled for that one sentence. Compiling them is most of what quick add adds
to a process (about 55 ms of the 70 ms beyond ``richeng events add``, issue 28), and compiling
on first use would not help: the scanner tries every rule at every position, so one sentence
uses them all.

What ``re.compile`` spends its time on is the pure-Python parser and code generator
(``re._parser``, ``re._compiler``); the C engine builds a pattern from their output in
microseconds. This cache keeps that output (the flags, the opcode list and the group names)
beside the bytecode, in ``__pycache__``, the way Python keeps ``.pyc`` files:

* keyed by the pattern's text and flags, in a file named for the interpreter, its exact
  release and the regex engine's version (``sys.implementation.cache_tag``,
  ``sys.hexversion``, ``_sre.MAGIC``), so a changed pattern is simply a new entry and
  another Python never reads it;
* written only when a process compiled something new, at exit, atomically (a temporary file
  renamed), and not at all where Python writes no bytecode (``PYTHONDONTWRITEBYTECODE``) or
  the folder is read-only (a frozen bundle): then every process compiles, as before;
* an entry is stored only after the pattern built from it compared equal to ``re.compile``'s
  (``Pattern.__eq__`` compares the opcodes), and anything unexpected (another Python, a
  damaged file, a changed private API) falls back to ``re.compile``, so behaviour never
  depends on the cache.
"""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import marshal
import os
import re
import sys
import threading
from contextlib import suppress
from pathlib import Path
from typing import Any

_sre: Any
_compiler: Any
_parser: Any
try:  # CPython's internals (private, typed as Any); elsewhere every pattern is compiled by ``re``
    _sre = importlib.import_module("_sre")
    _compiler = importlib.import_module("re._compiler")
    _parser = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - not CPython
    _sre = _compiler = _parser = None

Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]

MAX_ENTRIES = 2000  # past this (patterns edited many times) a save keeps only what this process used


def _default_path() -> Path | None:
    """Beside this module's own bytecode (``PYTHONPYCACHEPREFIX`` moves both)."""
    if _sre is None or sys.implementation.cache_tag is None:
        return None
    try:
        folder = Path(importlib.util.cache_from_source(__file__)).parent
    except (NotImplementedError, ValueError, TypeError):  # a frozen or odd install: no file
        return None
    # The exact release too: a patch release may fix the compiler without a new MAGIC.
    return folder / f"patterns.{sys.implementation.cache_tag}-{sys.hexversion:x}-{_sre.MAGIC}.marshal"


class PatternCache:
    """Compiled patterns kept in ``path`` (None: no file, every pattern compiled by ``re``)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._stored: dict[tuple[str, int], Entry] | None = None
        self._used: dict[tuple[str, int], Entry] = {}
        self._new = False

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern[str]:
        """``re.compile(pattern, flags)``, from the cache where it holds the pattern."""
        if self.path is None or _sre is None:
            return re.compile(pattern, flags)
        key = (pattern, int(flags))
        with self._lock:
            entry = self._load().get(key)
        if entry is not None:
            try:
                built: re.Pattern[str] = _sre.compile(pattern, *entry)
            except Exception:  # a damaged entry: compile it afresh
                entry = None
            else:
                self._used[key] = entry
                return built
        return self._compile_new(pattern, int(flags), key)

    def _compile_new(self, pattern: str, flags: int, key: tuple[str, int]) -> re.Pattern[str]:
        compiled = re.compile(pattern, flags)
        try:
            entry = _entry(pattern, flags)
            if _sre.compile(pattern, *entry) != compiled:  # not what ``re`` builds: never stored
                return compiled
        except Exception:  # the private API moved: this Python gets no cache
            return compiled
        with self._lock:
            self._used[key] = entry
            if not self._new:
                self._new = True
                atexit.register(self.save)
        return compiled

    def _load(self) -> dict[tuple[str, int], Entry]:
        if self._stored is None:
            self._stored = {}
            if self.path is not None:
                try:
                    found = marshal.loads(self.path.read_bytes())
                except (OSError, EOFError, ValueError, TypeError):
                    found = None
                if isinstance(found, dict):
                    self._stored = found
        return self._stored

    def save(self) -> None:
        """Write what this process compiled anew (with what was stored); quietly nothing
        where no bytecode is written or the folder is not writable."""
        if self.path is None or not self._new or sys.dont_write_bytecode:
            return
        with self._lock:
            stored = self._load()
            merged = dict(stored) if len(stored) + len(self._used) <= MAX_ENTRIES else {}
            merged.update(self._used)
            self._new = False
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(marshal.dumps(merged))
            os.replace(temporary, self.path)
        except OSError:  # a read-only or missing folder: this copy keeps compiling
            with suppress(OSError):
                temporary.unlink()


def _entry(pattern: str, flags: int) -> Entry:
    """What ``re._compiler.compile`` hands the C engine for ``pattern``, in plain types."""
    parsed: Any = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


_CACHE = PatternCache(_default_path())


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile`` for patterns made at import by quick add's modules (see the module doc)."""
    return _CACHE.compile(pattern, flags)
