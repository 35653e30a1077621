"""What the app offers when its database is damaged at start-up (issue 19, item 0).

It used to say "not an SQLite file at all; it was left untouched" and exit, leaving the user
to find ``richeng db recover`` in ``--help``. Now one question offers both ways back:

* **Restore the newest backup** (when there is one): the damaged file is renamed aside and
  the backup copied in its place (``agent.store.backups.restore``);
* **Save what can still be read**: ``db recover`` into a new file, the damaged one kept aside,
  the new one opened (``agent.store.salvage.salvage_in_place``);
* **Quit**, touching nothing.

The text is bilingual: no catalogue is loaded yet, since the language setting lives in the
damaged file. ``offer_repair`` takes the question as a callable, so tests answer it directly.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox

    from agent.store.db import Store
    from agent.store.file_check import DamagedStoreError

Ask = Callable[[str, list[tuple[str, str]]], str | None]  # text, (key, button label)… -> key or None


def offer_repair(error: DamagedStoreError, ask: Ask, now: datetime, tell: Callable[[str], object] | None = None) -> Store | None:
    """Ask what to do with the damaged file; returns the reopened store, or None when the
    user quits (the file untouched). ``tell`` shows what the salvage saved."""
    from agent.store.backups import list_backups, restore
    from agent.store.db import Store
    from agent.store.salvage import salvage_in_place

    found = list_backups(error.path)
    choices: list[tuple[str, str]] = []
    text = f"日历文件已损坏，未做任何改动。\nThe calendar file is damaged; nothing was changed.\n\n{error}\n\n"
    if found:
        when = f"{found[0].created.astimezone():%Y-%m-%d %H:%M}"
        choices.append(("restore", f"恢复 {when} 的备份 Restore backup"))
        text += (
            f"可以用 {when} 的备份恢复，或保存文件中仍可读取的内容。\n"
            f"Restore the backup of {when}, or save what can still be read.\n"
        )
    else:
        text += (
            "没有备份。可以把文件中仍可读取的内容保存到新文件。\n"
            "There is no backup. Save what can still be read into a new file?\n"
        )
    text += "损坏的文件会保留在旁边。 The damaged file is kept beside it."
    choices.append(("salvage", "保存可读内容 Save what can be read"))
    choices.append(("quit", "退出 Quit"))
    choice = ask(text, choices)
    if choice == "restore":
        restore(found[0].path, error.path, now)
        return Store(error.path)
    if choice != "salvage":
        return None
    salvaged = salvage_in_place(error.path, now)
    if tell is not None:
        tell(
            f"已保存 {salvaged.report.events} 个日程；损坏的文件保留为 {salvaged.damaged_kept_as}\n"
            f"Saved {salvaged.report.events} events; the damaged file is kept as {salvaged.damaged_kept_as}"
        )
    return Store(error.path)


def ask_with_buttons(message_box: type[QMessageBox]) -> Ask:
    """The question as a warning box with one button per choice."""

    def ask(text: str, choices: list[tuple[str, str]]) -> str | None:
        box = message_box(message_box.Icon.Warning, "日程 Richeng", text)
        buttons = {}
        for key, label in choices:
            role = message_box.ButtonRole.RejectRole if key == "quit" else message_box.ButtonRole.AcceptRole
            buttons[key] = box.addButton(label, role)
        box.exec()
        clicked = box.clickedButton()
        return next((key for key, button in buttons.items() if button is clicked), None)

    return ask
