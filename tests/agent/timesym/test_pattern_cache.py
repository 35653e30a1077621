"""Quick add's compiled-pattern cache: a second process builds every pattern without the
regex compiler, builds exactly what ``re.compile`` builds, and nothing depends on the file."""

from __future__ import annotations

import marshal
import re
import sys
from pathlib import Path

import pytest

from agent.timesym import sentence_scan, sentence_unread
from agent.timesym.pattern_cache import PatternCache

PATTERNS = [
    (r"(?P<h>[0-9]{1,2})\s*[:：]\s*(?P<m>[0-9]{2})(?![0-9])", 0),
    (r"(?:每逢|每个|每)\s*(?:星期|周)\s*(?P<d>[一二三四五六日天])", 0),
    (r"(?:^|\s)(?:at|@)\s+(?P<p>[^\s\d,.;!?][^,.;!?]*)", re.IGNORECASE),
]


def _refuse_to_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on the regex compiler itself fails: only the cache can build a pattern."""
    re.purge()  # re's own in-process cache would answer without the compiler

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled by re, not read from the cache")

    monkeypatch.setattr("re._compiler.compile", refuse)


def test_a_second_process_reads_every_pattern_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = tmp_path / "__pycache__" / "patterns.test.marshal"
    first = PatternCache(path)
    fresh = [first.compile(pattern, flags) for pattern, flags in PATTERNS]
    first.save()
    assert path.exists()

    _refuse_to_compile(monkeypatch)
    second = PatternCache(path)
    cached = [second.compile(pattern, flags) for pattern, flags in PATTERNS]
    assert cached == fresh  # Pattern equality compares the opcodes, the flags and the text
    assert [rx.groupindex for rx in cached] == [rx.groupindex for rx in fresh]
    match = cached[0].match("15：30")
    assert match is not None and match["h"] == "15" and match["m"] == "30"
    assert cached[2].search("Lunch AT Blue Bottle")["p"] == "Blue Bottle"  # type: ignore[index]


def test_nothing_is_written_where_python_writes_no_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    path = tmp_path / "patterns.test.marshal"
    cache = PatternCache(path)
    assert cache.compile(*PATTERNS[0]) == re.compile(*PATTERNS[0])
    cache.save()
    assert not path.exists()


def test_a_damaged_or_foreign_file_only_costs_a_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = tmp_path / "patterns.test.marshal"
    path.write_bytes(b"\x00not marshal at all")
    assert PatternCache(path).compile(*PATTERNS[0]) == re.compile(*PATTERNS[0])
    # an entry whose opcodes are nonsense: the engine refuses it, re.compile builds it
    path.write_bytes(marshal.dumps({(PATTERNS[1][0], 0): (32, [1, 2, 3], 0, {}, (None,))}))
    assert PatternCache(path).compile(*PATTERNS[1]) == re.compile(*PATTERNS[1])


def test_a_folder_that_cannot_be_written_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    blocker = tmp_path / "a file"
    blocker.write_text("")
    cache = PatternCache(blocker / "__pycache__" / "patterns.test.marshal")
    cache.compile(*PATTERNS[0])
    cache.save()  # the folder cannot exist under a file: quietly nothing


def test_quick_adds_patterns_are_exactly_what_re_compile_builds() -> None:
    """Whether they came from the file or the compiler, the scanner's rules (its own and
    ``sentence_repeat``'s) are the patterns ``re.compile`` makes of the same text."""
    built = [rx for rx, _ in sentence_scan.RULES] + [sentence_unread.RESIDUE]
    assert len(built) > 100
    for rx in built:
        assert rx == re.compile(rx.pattern, rx.flags), rx.pattern[:80]
