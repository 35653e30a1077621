"""One write path and one history (issue 28, item 4; docs/architecture.md, "The op runner").

Before, the app wrote through services it built by hand and then announced the write with a
second call, kept a window-side undo stack beside the store's journal, and deleted calendars
outside the journal: ``richeng undo`` could not bring a deleted calendar back, and an edit
made in the terminal was not on the window's Ctrl+Z. Now every write in ``app/`` is an op
of ``app/write_path.py``'s runner (a ``CalendarCollection`` operation), calendar creation
and deletion are journal entries, and the window's Undo/Redo read the journal only.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer

from agent.cli.main import main
from tests.support.app_fixtures import at, seed, titles
from tests.support.chat_fixtures import shown_window
from tests.support.clock import MONDAY

APP = Path(__file__).resolve().parents[2] / "app"
RUNNER = APP / "write_path.py"
CLI_NOW = "2026-11-30T10:00:00+08:00"
# What app code may ask of the runner's services: reads. Anything else on them is a write.
READS = {"component", "capped", "series_draft", "has_dates", "list", "names", "get", "by_id", "default", "choose"}
WRITERS = {"EditService", "CalendarService", "CalendarCollection", "EventRepo", "EventSql", "QuickAdd"}
COMMAND_WRITES = {"continue_active", "prepare_or_create"}  # the command layer's writes (quick add's answers)
IMPORTS = {"import_file", "import_bytes"}  # agent.ics.importer's writes
JOURNAL_WRITES = {"revert", "undo_last", "join", "collect", "collect_calendar"}


def _runner_services(node: ast.AST) -> bool:
    """``ops.edits`` / ``ctx.ops.calendars`` / ``self.ctx.ops.edits``: the runner's services."""
    if not isinstance(node, ast.Attribute) or node.attr not in ("edits", "calendars"):
        return False
    owner = node.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "ops") or (isinstance(owner, ast.Name) and owner.id == "ops")


def writes_outside_the_runner(root: Path = APP) -> list[str]:
    """Every place in ``app/`` (the runner aside) that writes past the runner: a write method
    on the runner's services (directly or through a name bound to them), handing those
    services on, building a writing service or repository, or reverting / recording journal
    rows. Reads (``READS``) are fine."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(root.rglob("*.py")):
        if path == RUNNER:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
        aliases: set[str] = set()
        for node in ast.walk(tree):
            if _runner_services(node):
                parent = parents.get(node)
                if isinstance(parent, ast.Assign) and all(isinstance(t, ast.Name) for t in parent.targets):
                    aliases |= {t.id for t in parent.targets if isinstance(t, ast.Name)}
                elif not (isinstance(parent, ast.Attribute) and parent.attr in READS):
                    found.append((str(path), node.lineno, ast.unparse(parent or node)[:80]))
            elif isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if (
                    name in WRITERS
                    or (isinstance(func, ast.Attribute) and name in COMMAND_WRITES)
                    or (isinstance(func, ast.Name) and name in IMPORTS)
                ):
                    found.append((str(path), node.lineno, f"{name}(...)"))
                if (isinstance(func, ast.Attribute) and func.attr in JOURNAL_WRITES and isinstance(func.value, ast.Name)
                        and func.value.id in ("journal", "journal_record")):  # fmt: skip
                    found.append((str(path), node.lineno, f"journal.{func.attr}(...)"))
        for node in ast.walk(tree):
            bound = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
            if bound and isinstance(node, ast.Attribute) and node.attr not in READS:
                found.append((str(path), node.lineno, ast.unparse(node)[:80]))
    return [f"{Path(file).relative_to(root.parent)}:{line} {text}" for file, line, text in sorted(found)]


def test_app_code_writes_only_through_the_op_runner() -> None:
    assert writes_outside_the_runner() == []


def test_the_check_sees_a_write_past_the_runner(tmp_path: Path) -> None:
    """The check itself can fail: each shape it forbids, in a scratch tree."""
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "bad.py").write_text(
        "def f(ctx, ops, store):\n"
        "    service = ctx.ops.calendars\n"
        "    ops.edits.create(None)\n"
        "    ctx.ops.calendars.list()\n"
        "    CalendarService(store, 1).add('x')\n"
        "    journal.revert(store, 1, 2)\n"
        "    service.add('y')\n"
        "    service.list()\n"
        "    keep(ops.edits)\n"
        "    QuickAdd(service).create(None)\n"
        "    command.continue_active(allow_conflict=True)\n"
        "    import_file(store, 1, 'a.ics')\n",
        encoding="utf-8",
    )
    found = writes_outside_the_runner(tmp_path / "app")
    assert [line.split(" ", 1)[0].rsplit(":", 1)[1] for line in found] == ["3", "5", "6", "7", "9", "10", "11", "12"]


# ---- calendar creation and deletion are journal entries ------------------------------------


@pytest.fixture
def cli(cal_store: Any, capsys: pytest.CaptureFixture[str]) -> Any:
    """``richeng`` in a terminal, on the same file the window holds."""
    db = cal_store.conn.execute("PRAGMA database_list").fetchone()[2]

    def run(*args: str) -> Any:
        code = main(["--db", db, "--now", CLI_NOW, "--tz", "Asia/Shanghai", "--json", *args])
        out, err = capsys.readouterr()
        assert code == 0, err
        return json.loads(out)

    return run


def names(cal_ctx: Any) -> list[str]:
    return sorted(calendar.name for calendar in cal_ctx.ops.calendars.list())


def family(area: Any, cal_store: Any, profile: int) -> Any:
    calendar = area.sidebar.add_calendar("家庭", "#10b981")
    seed(cal_store, profile, "Piano lesson", at(MONDAY, 15), at(MONDAY, 16), calendar.id, rrule="FREQ=WEEKLY;COUNT=4")
    seed(cal_store, profile, "Dinner", at(MONDAY, 19), at(MONDAY, 20), calendar.id)
    area.sidebar.confirm = lambda text: True
    return calendar


def test_a_calendar_deleted_in_the_app_comes_back_with_richeng_undo(
    area: Any, cal_ctx: Any, cal_store: Any, profile: int, cli: Any
) -> None:
    made = family(area, cal_store, profile)
    area.sidebar.delete_calendar("家庭")
    assert names(cal_ctx) == ["日程"] and titles(cal_store) == []
    listed = cli("undo", "--list")
    assert listed[0]["label"] == "delete calendar 家庭" and listed[0]["deleted"] == 2  # the series and Dinner
    payload = cli("undo")
    assert payload["reverted"]["label"] == "delete calendar 家庭"
    assert payload["calendars"] == [{"action": "restored", "name": "家庭"}]
    cal_ctx.ops.external_change()  # what the store watch does when another process wrote
    assert names(cal_ctx) == ["家庭", "日程"] and titles(cal_store) == ["Dinner", "Piano lesson"]
    restored = cal_ctx.ops.calendars.get("家庭")
    assert (restored.id, restored.color) == (made.id, "#10b981")  # the same row, so a sync mapping holds
    pianos = [e for e in area.source.events(MONDAY, MONDAY + timedelta(days=28)) if e.occ.title == "Piano lesson"]
    assert len(pianos) == 4 and all(e.occ.calendar == "家庭" for e in pianos)
    # The window's Redo is that undo's: it deletes the calendar again.
    assert cal_ctx.ops.redo_text() == "Delete calendar “家庭”"
    cal_ctx.ops.redo()
    assert names(cal_ctx) == ["日程"] and titles(cal_store) == []


def test_a_calendar_deleted_in_the_app_comes_back_with_ctrl_z(
    area: Any, cal_ctx: Any, cal_store: Any, profile: int, cli: Any
) -> None:
    family(area, cal_store, profile)
    area.sidebar.delete_calendar("家庭")
    assert cal_ctx.ops.undo_text() == "Delete calendar “家庭”"
    cal_ctx.ops.undo()
    assert names(cal_ctx) == ["家庭", "日程"] and titles(cal_store) == ["Dinner", "Piano lesson"]
    assert cli("undo", "--list")[0]["label"] == "undo #4: delete calendar 家庭"  # the CLI sees the window's undo


def test_a_created_calendar_is_undone_by_ctrl_z_and_by_richeng_undo(area: Any, cal_ctx: Any, cal_store: Any, cli: Any) -> None:
    area.sidebar.add_calendar("工作")
    assert names(cal_ctx) == ["工作", "日程"] and cal_ctx.ops.undo_text() == "Create calendar “工作”"
    cal_ctx.ops.undo()
    assert names(cal_ctx) == ["日程"]
    cal_ctx.ops.redo()
    assert names(cal_ctx) == ["工作", "日程"]
    payload = cli("undo")
    assert payload["reverted"]["label"] == "create calendar 工作" and payload["calendars"] == [
        {"action": "removed", "name": "工作"}
    ]
    cal_ctx.ops.external_change()
    assert names(cal_ctx) == ["日程"] and [item.text() for item in _rows(area)] == ["日程"]


def _rows(area: Any) -> list[Any]:
    return [area.sidebar.list.item(i) for i in range(area.sidebar.list.count())]


# ---- the window keeps no second stack --------------------------------------------------------


@pytest.fixture
def window(app_ctx: Any, qtbot: Any) -> Iterator[Any]:
    seed(app_ctx.store, app_ctx.profile_id, "周会", at(MONDAY, 15), at(MONDAY, 16))
    app_ctx.ops.changed.emit(None)
    with shown_window(app_ctx, qtbot, 1200, 800) as win:
        yield win


def test_ctrl_z_in_the_window_undoes_an_edit_made_in_the_cli(window: Any, app_ctx: Any, qtbot: Any, capsys: Any) -> None:
    db = app_ctx.store.conn.execute("PRAGMA database_list").fetchone()[2]

    def cli(*args: str) -> Any:
        code = main(["--db", db, "--now", CLI_NOW, "--tz", "Asia/Shanghai", "--json", *args])
        out, err = capsys.readouterr()
        assert code == 0, err
        return json.loads(out)

    cli("events", "add", "--title", "终端里加的", "--date", "D+1", "--time", "15:00")
    app_ctx.ops.external_change()  # the store watch's call when another process committed
    assert titles(app_ctx.store) == ["周会", "终端里加的"]
    assert window.undo_action.text() == "&Undo Create “终端里加的”" and window.undo_action.isEnabled()
    QTimer.singleShot(0, window.undo_action.trigger)  # Ctrl+Z: the journal's newest change, whoever made it
    qtbot.waitUntil(lambda: titles(app_ctx.store) == ["周会"], timeout=5000)
    qtbot.waitUntil(lambda: not app_ctx.ops.busy, timeout=5000)
    listed = cli("undo", "--list")
    assert listed == [entry.to_json() for entry in app_ctx.ops.history()]  # one history, two readers
    assert [(e["kind"], e["origin"], e["undone"]) for e in listed[:2]] == [("undo", "user", False), ("change", "cli", True)]
    open_change = next(e for e in listed if e["kind"] == "change" and not e["undone"])
    assert window.undo_action.text() == f"&Undo Create “{open_change['label'].removeprefix('create ')}”"
    assert window.redo_action.text() == "&Redo Create “终端里加的”"
