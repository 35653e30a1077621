"""The calendar's reader of repeat summaries: the words under an event on the card and in
the agenda ("每周一、三、五" / "Every Mon, Wed, Fri").

The words are the model's (``agent.timesym.recurrence_words.summary``, from the
catalogue), the same the editor, the chat's receipt and the quick-add preview say; the rule
is the stored master's, read by ``agent.services.repeat.series_rule``. This module only
keeps what it read: one master per UID until the store changes.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agent.services.repeat import series_rule
from agent.store.occurrence import Occurrence
from agent.timesym.recurrence_words import summary
from app.context import AppContext
from app.i18n import ui_lang


class SeriesSummaries:
    """Summaries of the series the calendar shows, one master read per UID.

    ``CalendarArea`` clears it when the store changes (the same moment its event cache
    goes), so a summary is never older than the rule it describes.
    """

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self._texts: dict[str, str] = {}

    def clear(self) -> None:
        self._texts.clear()

    def text(self, occ: Occurrence) -> str:
        """The repeat summary of ``occ``'s series ("" for a single event)."""
        if occ.recurrence_id is None:
            return ""
        if occ.uid not in self._texts:
            master = self.ctx.ops.edits.component(occ.uid)
            if master is None or master.get("DTSTART") is None:
                self._texts[occ.uid] = ""
            else:
                start = master.decoded("DTSTART")
                rule = series_rule(master, ZoneInfo(occ.tzid) if occ.tzid else None)
                first = start.date() if isinstance(start, datetime) else start
                self._texts[occ.uid] = summary(rule, first, ui_lang())
        return self._texts[occ.uid]
