"""One message catalogue (agent/messages/): every sentence a person reads has a code, in
Chinese and in English, and lives there and nowhere else.

Three checks. (a) Each message is whole: both languages, Chinese written in Chinese, the
same parameters on both sides. (b) A scan of agent/: a ``UserFacingError`` (or any subclass)
raised with a sentence instead of a code, per area; and any word in a literal of the
receipt writers (``receipts.py``, ``edit_receipts.py``, ``calendar_status.py``), which
render every word from the catalogue. (c) The scan is shown to bite: a copy of receipts.py
with one added sentence, and a copy of a runtime module raising a sentence, are reported.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from agent.messages import cli as m_cli
from agent.messages import evals as m_evals
from agent.messages import files as m_files
from agent.messages import ics as m_ics
from agent.messages import models as m_models
from agent.messages import receipts as m_receipts
from agent.messages import recurrence as m_recurrence
from agent.messages import runtime as m_runtime
from agent.messages import services as m_services
from agent.messages import store as m_store
from agent.messages import sync as m_sync
from agent.messages import timesym as m_timesym
from agent.messages.catalogue import MESSAGES, fields, is_code, render

ROOT = Path(__file__).resolve().parents[2]
AGENT = ROOT / "agent"

#: Areas whose raises still carry sentences: the helpers converting them are at work. The
#: integrator empties this after merging; an area listed here that has no finding left
#: fails ``test_not_yet_is_not_stale``, so the list can only shrink.
NOT_YET: set[str] = set()

#: Files whose every word comes from the catalogue (no literal sentence or word at all).
RECEIPT_WRITERS = ("agent/runtime/receipts.py", "agent/runtime/edit_receipts.py", "agent/runtime/calendar_status.py")

#: Module-level names that hold detector vocabulary (what a reply is *read* for, never
#: shown): calendar_status.py's lexicon, the receipts' script test.
DETECTOR_NAMES = {"_ZH_TIME", "_ZH_OBJECT", "_ZH_VERB", "_EN_TIME", "_EN_OBJECT", "_EN_VERB", "_MARKS", "_CJK"}

#: Messages whose one side deliberately leaves a parameter out (the sentence needs no word
#: in that language); ``{code: the parameters only one side uses}``.
ONE_SIDED = {"receipts.edit.why.bulk_said": {"word"}}

#: Literals that look like words but are format or data, not wording (kept small).
ALLOWED_LITERALS: set[str] = set()

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORDY = re.compile(r"[A-Za-z\u3400-\u9fff\uf900-\ufaff]")
_IDENTIFIER = re.compile(r"^(?:_?[a-z][a-z0-9_]*|[a-z]+(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9_]*)$")  # status, key, camelCase, CONST
_FIELD = re.compile(r"\{[^{}]*\}")
KNOWN_ERRORS = {
    "UserFacingError", "StoreError", "NewerSchemaError", "DamagedStoreError", "ReadOnlyStoreError", "NotFoundError",
    "ValidationError", "SymbolError", "SyncError", "JournalError", "CliError", "InputFileError", "ModelUnavailable",
    "ModelSpecError", "CaseError",
}  # fmt: skip


# ---- (a) every message is whole -------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_message_has_both_languages_with_the_same_parameters(code: str) -> None:
    message = MESSAGES[code]
    assert message.zh.strip() and message.en.strip(), f"{code}: a language is empty"
    bare_zh = _FIELD.sub("", message.zh)
    if _WORDY.search(bare_zh) or _WORDY.search(_FIELD.sub("", message.en)):  # not parameters and punctuation only
        assert _CJK.search(bare_zh), f"{code}: the Chinese text {message.zh!r} has no Chinese in it"
    one_sided = ONE_SIDED.get(code, set())
    assert fields(message.zh) - one_sided == fields(message.en) - one_sided, f"{code}: zh and en take different parameters"


def test_codes_carry_their_area() -> None:
    """A code names the module it lives in (``store.read_only`` in store.py)."""
    for area in (
        m_cli,
        m_evals,
        m_files,
        m_ics,
        m_models,
        m_receipts,
        m_recurrence,
        m_runtime,
        m_services,
        m_store,
        m_sync,
        m_timesym,
    ):
        name = area.__name__.rsplit(".", 1)[-1]
        for code in area.MESSAGES:
            assert code.startswith(f"{name}."), f"{code} is defined in agent/messages/{name}.py"


def test_every_tool_status_is_a_catalogue_code() -> None:
    from agent.runtime.toolkit import WORKING
    from agent.runtime.tools import TOOLS as REGISTRY

    for tool in REGISTRY.tools:
        assert isinstance(tool.status, str) and is_code(tool.status), tool.name
        assert REGISTRY.status(tool.name, "zh") == render(tool.status, "zh")
        assert REGISTRY.status(tool.name, "en") == render(tool.status, "en")
    assert is_code(WORKING) and REGISTRY.status("no_such_tool", "en") == render(WORKING, "en")


# ---- (b) the scanner ----------------------------------------------------------------------


def area_of(path: Path) -> str:
    """``agent/store/db.py`` -> ``store``; ``agent/files.py`` -> ``files``."""
    parts = path.resolve().relative_to(AGENT).parts
    return parts[0].removesuffix(".py")


def agent_files() -> list[Path]:
    return sorted(p for p in AGENT.rglob("*.py") if "messages" not in p.relative_to(AGENT).parts[:1])


def error_classes(paths: list[Path]) -> set[str]:
    """Every class deriving (through any chain) from ``UserFacingError``, by name."""
    bases: dict[str, set[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                named = [b for b in node.bases if isinstance(b, ast.Name | ast.Attribute)]
                bases.setdefault(node.name, set()).update(b.id if isinstance(b, ast.Name) else b.attr for b in named)
    found = {"UserFacingError"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def raise_findings(path: Path, classes: set[str]) -> list[str]:
    """Calls of a user-facing error whose message is a sentence (a literal that is not a
    code, or an f-string) rather than a catalogue code."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or _called_name(node) not in classes or not node.args:
            continue
        # SymbolError(symbol, code, ...): its message is the second argument
        first = node.args[1] if _called_name(node) == "SymbolError" and len(node.args) > 1 else node.args[0]
        if isinstance(first, ast.JoinedStr) or (
            isinstance(first, ast.Constant) and isinstance(first.value, str) and not is_code(first.value)
        ):
            found.append(f"{_shown(path)}:{node.lineno}: {_called_name(node)}({ast.unparse(first)[:60]})")
    return found


def _is_code_piece(text: str) -> bool:
    """A code or the fixed head of one built with a parameter (``f"receipts.weekday.{n}"``)."""
    return is_code(text) or ("." in text and any(code.startswith(text) for code in MESSAGES))


def literal_findings(path: Path) -> list[str]:
    """Every string literal with a letter or a Chinese character in it that is not a
    docstring, a dict key, a comparison's operand, a subscript, a format spec, an
    identifier-like key, a code, or detector vocabulary."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                exempt.add(id(first.value))
        inner: list[ast.AST] = []
        if isinstance(node, ast.Dict):
            inner = [key for key in node.keys if key is not None]
        elif isinstance(node, ast.Compare):
            inner = [node]
        elif isinstance(node, ast.Subscript):
            inner = [node.slice]
        elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            inner = [node.format_spec]
        elif isinstance(node, ast.Call) and _called_name(node) == "compile":  # re.compile: a detector's pattern
            inner = [node]
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and (t.id in DETECTOR_NAMES or t.id == "__all__") for t in targets):
                inner = [node]
        for sub in inner:
            exempt.update(id(n) for n in ast.walk(sub))
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in exempt:
            continue
        text = node.value
        if not _WORDY.search(text) or _IDENTIFIER.match(text) or _is_code_piece(text) or text in ALLOWED_LITERALS:
            continue
        found.append(f"{_shown(path)}:{node.lineno}: {text!r}")
    return found


CLASSES = error_classes(agent_files())
AREAS = sorted({area_of(p) for p in agent_files()})


def test_the_scan_knows_every_user_facing_error() -> None:
    assert KNOWN_ERRORS <= CLASSES, KNOWN_ERRORS - CLASSES


@pytest.mark.parametrize("area", AREAS)
def test_raises_carry_codes_not_sentences(area: str) -> None:
    """A store, service or runtime error is raised with a catalogue code and parameters; the
    edge renders it in the reader's language."""
    found = [f for p in agent_files() if area_of(p) == area for f in raise_findings(p, CLASSES)]
    if area in NOT_YET:
        pytest.skip(f"{area}: {len(found)} raise site(s) not yet converted")
    assert not found, "raised with a sentence, not a catalogue code:\n" + "\n".join(found)


def test_not_yet_is_not_stale() -> None:
    """An area whose raises are all converted comes off ``NOT_YET`` (the list only shrinks)."""
    done = [a for a in sorted(NOT_YET) if not any(raise_findings(p, CLASSES) for p in agent_files() if area_of(p) == a)]
    assert not done, f"take these off NOT_YET: {done}"


@pytest.mark.parametrize("relative", RECEIPT_WRITERS)
def test_receipt_writers_hold_no_wording(relative: str) -> None:
    found = literal_findings(ROOT / relative)
    assert not found, "wording outside the catalogue (add a code to agent/messages/):\n" + "\n".join(found)


# ---- (c) the scan bites ---------------------------------------------------------------------


def test_a_sentence_added_to_a_receipt_is_reported(tmp_path: Path) -> None:
    source = (ROOT / "agent/runtime/receipts.py").read_text(encoding="utf-8")
    marker = 'def stopped_reply(lang: str) -> str:\n    """The user pressed Stop before the model answered."""\n'
    assert marker in source
    mutated = tmp_path / "receipts.py"
    mutated.write_text(source.replace(marker, marker + '    if lang == "zh":\n        return "已停止啦。"\n'), "utf-8")
    assert literal_findings(ROOT / "agent/runtime/receipts.py") == []
    found = literal_findings(mutated)
    assert len(found) == 1 and "已停止啦。" in found[0]
    english = tmp_path / "english.py"
    english.write_text(source + '\n\ndef extra(lang: str) -> str:\n    return f"Deleted {lang} events."\n', "utf-8")
    assert any("Deleted" in f for f in literal_findings(english))


def test_a_sentence_raised_in_the_runtime_is_reported(tmp_path: Path) -> None:
    mutated = tmp_path / "turn.py"
    source = (ROOT / "agent/runtime/turn.py").read_text(encoding="utf-8")
    assert raise_findings(ROOT / "agent/runtime/turn.py", CLASSES) == []
    mutated.write_text(source + '\n\ndef _oops(name: str) -> None:\n    raise UserFacingError(f"no tool {name}")\n', "utf-8")
    found = raise_findings(mutated, CLASSES)
    assert len(found) == 1 and "no tool" in found[0]
    mutated.write_text(source + '\n\ndef _oops() -> None:\n    raise StoreError("the file is locked")\n', "utf-8")
    assert len(raise_findings(mutated, CLASSES)) == 1
