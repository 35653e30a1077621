"""The calendar half of the main window: sidebar, navigation, search and the four views.

It owns the shared state (which view, which anchor date, what is highlighted), feeds the
current view from one cached query per visible range (``EventSource``), and is the only
place in the calendar that writes: views emit requests, this asks the recurring-scope
question or opens the editor, then calls ``EventWrites`` / ``ctx.ops``. It reloads on
``ops.changed``, so the user's edits, undo/redo and the assistant's writes all show the
same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import date, datetime, time, timedelta

from PySide6.QtCore import QLocale, QPoint, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QHideEvent, QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QApplication, QCalendarWidget, QDialog, QHBoxLayout, QMenu, QStackedWidget, QVBoxLayout, QWidget

from agent.services.editing import EventDraft, Scope
from agent.services.search import SearchService
from agent.store.changes import ChangeSet
from agent.timesym.lunar import day_label
from app.calendar import accessibility, invitations_out, scope_prompt
from app.calendar.agenda_view import AgendaView
from app.calendar.event_dialog import DELETE, EventDialog
from app.calendar.event_menu import EventMenu, duplicate_draft, event_text
from app.calendar.event_popover import EventPopover
from app.calendar.event_source import EventSource, ViewEvent, local_naive
from app.calendar.holidays import HolidayBook, prefers_chinese
from app.calendar.month_view import MonthView
from app.calendar.nav_bar import NavBar
from app.calendar.occurrence_edit import EventWrites
from app.calendar.quick_add_bar import QuickAddBar
from app.calendar.repeat_summary import SeriesSummaries
from app.calendar.search_panel import SearchPanel
from app.calendar.sidebar import Sidebar
from app.calendar.view_base import CalendarView
from app.calendar.week_view import WeekView
from app.calendar.work_week import WorkWeekView
from app.context import AppContext
from app.i18n import format_day
from app.keyboard import chain_tab_order
from app.toast import Toast

_LUNAR_CACHE: dict[tuple[date, bool, bool], str] = {}
FLASH_MS, FLASH_STEPS = 250, 8  # a new quick-add event blinks for 2 s, then stays selected
VIEWS_MIN = 560  # the views' own comfortable minimum: the sidebar goes before they shrink past it


def lunar_labels(first: date, end: date, solar_terms: bool = True, lunar_days: bool = True) -> dict[date, str]:
    """农历 day labels for ``[first, end)`` (when ``lunar_days``), a 节气 in place of its day's
    when ``solar_terms``; computed once per date and choice for the app's life."""
    labels = {}
    day = first
    while day < end:
        key = (day, solar_terms, lunar_days)
        if key not in _LUNAR_CACHE:
            try:
                _LUNAR_CACHE[key] = day_label(day, solar_terms, lunar_days)
            except Exception:  # outside lunar-python's tables: no label, not an error
                _LUNAR_CACHE[key] = ""
        labels[day] = _LUNAR_CACHE[key]
        day += timedelta(days=1)
    return labels


class CalendarArea(QWidget):
    sidebar_shown = Signal(bool)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.source = EventSource(ctx)
        self.writes = EventWrites(ctx)
        self.editor_factory: Callable[..., EventDialog] = EventDialog
        self.exec_dialog: Callable[[QDialog], int] = lambda dialog: dialog.exec()
        self.exec_menu: Callable[[QMenu, QPoint], QAction | None] = lambda menu, pos: menu.exec(pos)
        self.anchor = ctx.now().date()
        self.view_name = "week"
        self._configure()
        # After a view has painted, fetch the range every view of this anchor needs, so
        # switching views is a cache hit instead of a query.
        self._prefetch_timer = QTimer(self)
        self._prefetch_timer.setSingleShot(True)
        self._prefetch_timer.setInterval(30)
        self._prefetch_timer.timeout.connect(self._prefetch)
        # The current-time line and "today" follow ctx.now(); a minute is its resolution.
        self._clock = QTimer(self)
        self._clock.setInterval(60_000)
        self._clock.timeout.connect(self._tick)

        self.sidebar = Sidebar(ctx, self)
        self.nav = NavBar(self)
        self.quick_add = QuickAddBar(ctx, self)
        self.search_panel = SearchPanel(ctx, self)
        self.stack = QStackedWidget(self)
        self._apply_locale()
        self.views: dict[str, CalendarView] = {
            "day": WeekView(1, self),
            "workweek": WorkWeekView(self),
            "week": WeekView(7, self),
            "month": MonthView(self),
            "agenda": AgendaView(self),
        }
        accessibility.install()  # the painted views' events, for screen readers
        names = {
            "day": self.tr("Day view"),
            "workweek": self.tr("Work week view"),
            "week": self.tr("Week view"),
            "month": self.tr("Month view"),
            "agenda": self.tr("Agenda"),
        }
        for name, view in self.views.items():
            view.setAccessibleName(names[name])
            view.selection_changed.connect(lambda _event, v=view: accessibility.announce_selection(v))
        for view in self.views.values():
            self.stack.addWidget(view)
            view.event_activated.connect(self._activated)
            view.create_requested.connect(self._create_requested)
            view.move_requested.connect(self._move_requested)
            view.delete_requested.connect(self._delete_requested)
            view.anchor_moved.connect(self.set_anchor)
            view.day_opened.connect(self._day_opened)
            view.context_requested.connect(self.event_menu)
        # The event card (a click on an event) and the agenda say how a series repeats.
        self.summaries = SeriesSummaries(ctx)
        self.popover = EventPopover(self, self.summaries, lambda: (self.qlocale, self.chinese))
        for view in self.views.values():
            self.popover.watch(view)
        agenda = self.views["agenda"]
        if isinstance(agenda, AgendaView):
            agenda.repeat_text = self.summaries.text

        right = QVBoxLayout()
        right.setContentsMargins(0, 0, 0, 0)
        right.setSpacing(0)
        right.addWidget(self.nav)
        right.addWidget(self.quick_add)
        right.addWidget(self.search_panel)
        right.addWidget(self.stack, 1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.sidebar)
        layout.addLayout(right, 1)

        # The sidebar folds away when the area is narrow (half a screen with the chat open)
        # and comes back when there is room; the user can also hide it (View → Sidebar).
        # ``sidebar_shown`` says each change, so the menu's check follows what is shown.
        self.sidebar_wanted = True
        self.copied: EventDraft | None = None  # Ctrl+C's event, for Ctrl+V
        self.toast = Toast(self)
        self._toast_changes: object | None = None  # the delete the toast offers to undo
        # Taken back another way (Ctrl+Z, Edit → Undo): the toast's Undo would be stale.
        ctx.ops.reverted.connect(self._reverted)
        self.nav.today_clicked.connect(self.go_today)
        self.nav.step_requested.connect(self.step)
        self.nav.date_picked.connect(self.set_anchor)
        self.nav.view_requested.connect(self.set_view)
        self.nav.search_changed.connect(self.search_panel.set_query)
        self.nav.search_submitted.connect(self.search_panel.activate_current)
        self.nav.search_navigate.connect(self.search_panel.move_selection)
        self.nav.search_cancelled.connect(self._search_cancelled)
        self.nav.date_done.connect(lambda: self.current_view().setFocus(Qt.FocusReason.OtherFocusReason))
        self.search_panel.activated.connect(self.show_event)
        self.quick_add.created.connect(self.flash_event)
        self.quick_add.escaped.connect(lambda: self.current_view().setFocus(Qt.FocusReason.OtherFocusReason))
        self._flash_timer = QTimer(self)
        self._flash_timer.setInterval(FLASH_MS)
        self._flash_timer.timeout.connect(self._flash_step)
        self._flash: tuple[CalendarView, tuple[str, str], int] | None = None
        self.sidebar.date_picked.connect(self.set_anchor)
        ctx.ops.changed.connect(self._store_changed)
        # An op that changed calendars emits calendars_changed then changed: drop the cache on the
        # first, reload once on the second.
        # A slot of this widget, not the (plain Python) source's bound method: Qt drops a
        # QObject's connections when it dies, not a plain callable's (see ChatPane's quit).
        ctx.ops.calendars_changed.connect(self._calendars_changed)
        # Tab follows the layout: quick add, the bar (and its search results), the sidebar,
        # then the view; the main window chains the chat pane after it.
        chain_tab_order([self.quick_add, self.nav, self.search_panel, self.sidebar, self.stack])
        self.set_view("week")

    # ---- size ----------------------------------------------------------------------------

    def minimumSizeHint(self) -> QSize:
        """Without the sidebar: it hides itself rather than hold the window wide."""
        hint = super().minimumSizeHint()
        right = max(
            self.nav.minimumSizeHint().width(), self.search_panel.minimumSizeHint().width(), self.stack.minimumSizeHint().width()
        )
        return QSize(right, hint.height())

    def sidebar_room(self) -> int:
        """The narrowest this area can be with the sidebar shown and the views at their
        comfortable width (the main window makes this much room when F9 asks for it)."""
        return self.sidebar.minimumSizeHint().width() + max(VIEWS_MIN, self.nav.minimumSizeHint().width())

    def sidebar_fits(self, width: int) -> bool:
        return width >= self.sidebar_room()

    def set_sidebar_wanted(self, wanted: bool, width: int | None = None) -> None:
        """``width``: the area's width about to come (the main window has just made room)."""
        self.sidebar_wanted = wanted
        self._place_sidebar(self.width() if width is None else width)

    def _place_sidebar(self, width: int) -> None:
        show = self.sidebar_wanted and self.sidebar_fits(width)
        if show != self.sidebar.isVisibleTo(self):
            self.sidebar.setVisible(show)
            self.sidebar_shown.emit(show)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._place_sidebar(event.size().width())
        super().resizeEvent(event)

    # ---- settings-derived state ----------------------------------------------------------

    def _configure(self) -> None:
        settings = self.ctx.settings
        self.week_start = int(settings.get("week_start") or 1)
        self.chinese = prefers_chinese(settings.get("language"))
        self.solar_terms = bool(settings.get("solar_terms"))
        self.lunar_days = bool(settings.get("lunar_days"))
        self.qlocale = (
            QLocale(QLocale.Language.Chinese, QLocale.Country.China)
            if self.chinese
            else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
        )
        self.holidays = HolidayBook(str(settings.get("holiday_country") or ""), self.chinese)
        hours = settings.working_hours()
        self.work_minutes = (hours.start.hour * 60 + hours.start.minute, hours.end.hour * 60 + hours.end.minute)
        self.work_days = tuple(hours.days)
        self.week_numbers = bool(settings.get("week_numbers"))  # ISO 8601, Settings → General (issue 32)

    # ---- the API the main window uses ----------------------------------------------------

    def current_view(self) -> CalendarView:
        return self.views[self.view_name]

    @Slot(str)
    def set_view(self, name: str) -> None:
        if name not in self.views:
            return
        selected = self.current_view().selected_key
        self.view_name = name
        view = self.current_view()
        view.selected_key = selected
        self.stack.setCurrentWidget(view)
        self._reload()
        view.setFocus(Qt.FocusReason.OtherFocusReason)

    @Slot()
    def go_today(self) -> None:
        self.set_anchor(self.ctx.now().date())

    @Slot(int)
    def step(self, delta: int) -> None:
        self.set_anchor(self.current_view().step_anchor(delta))

    @Slot(object)
    def set_anchor(self, day: date) -> None:
        self.anchor = day
        self._reload()

    @Slot(str, object)
    def show_event(self, uid: str, start: object) -> None:
        """Navigate to an occurrence of ``uid`` (at ``start`` when given) and select it."""
        when = _parse_start(start)
        if when is None:
            hit = SearchService(self.ctx.store, self.ctx.profile_id).next_occurrence(uid, now=self.ctx.now(), tz=self.ctx.tz)
            if hit is None:
                return
            when = hit.start
        local = local_naive(when, self.ctx.tz)
        self.anchor = local.date()
        self._reload()
        view = self.current_view()
        view.select_uid(uid, local)
        view.setFocus(Qt.FocusReason.OtherFocusReason)

    @Slot(str, object)
    def flash_event(self, uid: str, start: object) -> None:
        """Show a just-created event and blink its selection for ~2 s (quick add)."""
        self.show_event(uid, start)
        view = self.current_view()
        key = view.selected_key
        self._flash_timer.stop()
        self._flash = (view, key, 0) if key is not None and key[0] == uid else None
        if self._flash is not None:
            self._flash_timer.start()

    @Slot()
    def _flash_step(self) -> None:
        if self._flash is None:
            self._flash_timer.stop()
            return
        view, key, step = self._flash
        if view is not self.current_view() or view.selected_key not in (key, None):
            self._flash = None  # the user moved on: stop blinking
            self._flash_timer.stop()
            return
        step += 1
        view.select(None if step % 2 else key)
        if step >= FLASH_STEPS:
            view.select(key)
            self._flash = None
            self._flash_timer.stop()
            return
        self._flash = (view, key, step)

    @Slot()
    def focus_quick_add(self) -> None:
        self.quick_add.focus()

    @Slot()
    def focus_date(self) -> None:
        self.nav.focus_date()

    @Slot()
    def focus_search(self) -> None:
        self.nav.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.nav.search.selectAll()

    @Slot()
    def new_event(self) -> None:
        now = local_naive(self.ctx.now(), self.ctx.tz)
        if self.anchor == now.date():
            start = datetime.combine(now.date(), time(now.hour)) + timedelta(hours=1)
        else:
            start = datetime.combine(self.anchor, time(9))
        minutes = int(self.ctx.settings.get("default_duration_minutes") or 60)
        self.open_editor(None, start, start + timedelta(minutes=minutes))

    def _apply_locale(self) -> None:
        """Month and weekday names in the calendar's language, not the system's."""
        for widget in (self.sidebar.mini_month, self.nav.date_edit):
            widget.setLocale(self.qlocale)
        numbers = QCalendarWidget.VerticalHeaderFormat
        self.sidebar.mini_month.setVerticalHeaderFormat(numbers.ISOWeekNumbers if self.week_numbers else numbers.NoVerticalHeader)

    @Slot()
    def refresh(self) -> None:
        """Settings may have changed (zone, week start, holidays, language): rebuild all."""
        self._configure()
        self._apply_locale()
        self.source.invalidate()
        self.sidebar.refresh()
        self.quick_add.refresh()
        self._reload()

    # ---- loading -------------------------------------------------------------------------

    @Slot()
    def _calendars_changed(self, *_: object) -> None:
        self.source.invalidate()

    def _store_changed(self, *_: object) -> None:
        self.source.invalidate()
        self.popover.reset()
        self._reload()

    def _reload(self) -> None:
        view = self.current_view()
        view.week_start = self.week_start
        view.qlocale = self.qlocale
        if isinstance(view, WeekView):
            view.work_minutes, view.work_days = self.work_minutes, self.work_days
        if isinstance(view, MonthView):
            view.show_lunar = self.chinese
            view.week_numbers = self.week_numbers
        view.set_anchor(self.anchor)
        first, end = view.date_range()
        events = self.source.events(first, end)
        marks = self.holidays.marks(first, end)
        lunar = lunar_labels(first, end, self.solar_terms, self.lunar_days) if self.chinese else {}
        view.set_data(events, marks, lunar, local_naive(self.ctx.now(), self.ctx.tz))
        calendars = self.source.calendars()
        self.search_panel.visible_ids = {calendar.id for calendar in calendars if calendar.visible}
        self.search_panel.colors = {calendar.id: calendar.color for calendar in calendars}
        self.nav.set_week_start(self.week_start)
        self.nav.set_state(self.view_name, self.anchor, self._title(first, end), self._title(first, end, short=True))
        self.sidebar.set_date(self.anchor, self.week_start)
        self._prefetch_timer.start()

    def prefetch_range(self) -> tuple[date, date]:
        """Days any view shows for the current anchor: the month grid plus the agenda."""
        month_first, month_end = self.views["month"].date_range_for(self.anchor, self.week_start)
        agenda_first, agenda_end = self.views["agenda"].date_range_for(self.anchor, self.week_start)
        return min(month_first, agenda_first), max(month_end, agenda_end)

    @Slot()
    def _tick(self) -> None:
        view = self.current_view()
        view.now = local_naive(self.ctx.now(), self.ctx.tz)
        view.repaint_all()

    def showEvent(self, event: QShowEvent) -> None:
        self._clock.start()
        super().showEvent(event)
        if self.window().focusWidget() is None:
            # The window opens with the keys in the view (the arrows choose events at once);
            # set_view's setFocus came while nothing was shown, and Qt would pick the first
            # widget it finds instead (the mini month's day grid).
            self.current_view().setFocus(Qt.FocusReason.OtherFocusReason)

    def hideEvent(self, event: QHideEvent) -> None:
        self._prefetch_timer.stop()
        self.popover.hide()
        self._clock.stop()
        super().hideEvent(event)

    @Slot()
    def _prefetch(self) -> None:
        if not self.isVisible():
            return
        first, end = self.prefetch_range()
        if not self.source.covers(first, end):
            self.source.events(first, end)

    def _title(self, first: date, end: date, short: bool = False) -> str:
        """The range title, with the ISO week number when Settings shows them (day and week
        views: "Nov 30 – Dec 6, 2026 · W49", "… · 第49周")."""
        title = self._range_title(first, end, short)
        if self.week_numbers and self.view_name in ("day", "workweek", "week"):
            week = first.isocalendar().week
            title += f" · 第{week}周" if self.chinese else f" · W{week}"
        return title

    def _range_title(self, first: date, end: date, short: bool = False) -> str:
        """The range title; ``short``: without the year when the range lies in the current
        one (what a narrow bar shows before it elides)."""
        loc = self.qlocale
        last = end - timedelta(days=1)
        if short and first.year == last.year == self.ctx.now().year and self.view_name in ("week", "workweek", "day", "agenda"):
            if self.view_name == "day":
                return format_day(loc, first, "M月d日 ddd" if self.chinese else "ddd, MMM d")
            if self.chinese:
                return format_day(loc, first, "M月d日") + " – " + format_day(loc, last, "M月d日")
            return format_day(loc, first, "MMM d") + " – " + format_day(loc, last, "MMM d" if first.month != last.month else "d")

        def fmt(day: date, pattern: str) -> str:
            return format_day(loc, day, pattern)

        if self.view_name == "month":
            return fmt(self.anchor, "yyyy年M月" if self.chinese else "MMMM yyyy")
        if self.view_name == "day":
            return fmt(first, "yyyy年M月d日 dddd" if self.chinese else "dddd, MMMM d, yyyy")
        if self.chinese:
            tail = fmt(last, "M月d日" if last.year == first.year else "yyyy年M月d日")
            return fmt(first, "yyyy年M月d日") + " – " + tail
        tail = fmt(last, "MMM d, yyyy") if first.month != last.month or first.year != last.year else fmt(last, "d, yyyy")
        return fmt(first, "MMM d") + " – " + tail

    # ---- requests from the views ---------------------------------------------------------

    @Slot(object)
    def _day_opened(self, day: date) -> None:
        self.anchor = day
        self.set_view("day")

    @Slot(object, object)
    def _create_requested(self, start: date | datetime, end: date | datetime) -> None:
        self.open_editor(None, start, end)

    @Slot(object)
    def _activated(self, event: ViewEvent) -> None:
        self.open_editor(event, None, None)

    def open_editor(self, event: ViewEvent | None, start: date | datetime | None, end: date | datetime | None) -> bool:
        """Open the editor; on Save write through ``EventWrites``; True when something changed."""
        occ = event.occ if event is not None else None
        dialog = self.editor_factory(self.ctx, self, occurrence=occ, start=start, end=end)
        code = self.exec_dialog(dialog)
        if code == DELETE and event is not None:
            return self._delete_requested(event)
        if code != QDialog.DialogCode.Accepted:
            return False
        result = dialog.editor_result()
        scope: Scope = "all"
        if occ is not None and occ.recurrence_id is not None:
            asked = scope_prompt.ask_scope(self, "edit", occ.title)
            if asked is None:
                return False
            scope = asked
        changes = self.writes.save(occ, result, scope)
        if changes:
            uid = next((change.uid for change in changes.created), occ.uid if occ else None)
            if uid:
                draft_start = result.draft.start
                self.current_view().select_uid(uid, local_naive(draft_start, self.ctx.tz))
                if dialog.tells_people(result.draft.start, result.draft.end):  # no server tells them: a file
                    invitations_out.offer_outgoing(self, self.ctx, uid, invitations_out.REQUEST, result.draft.calendar_id)
        return bool(changes)

    @Slot(object, object, object)
    def _move_requested(self, event: ViewEvent, start: datetime, end: datetime) -> bool:
        occ = event.occ
        if self.ctx.ops.refuse_read_only(occ):  # a subscription, a read-only shared calendar
            self.current_view().repaint_all()
            return False
        scope: Scope = "all"
        if occ.recurrence_id is not None:
            asked = scope_prompt.ask_scope(self, "move", occ.title)
            if asked is None:
                self.current_view().repaint_all()
                return False
            scope = asked
        go = invitations_out.ask_first(self.ctx, self, occ.calendar_id, occ.uid, invitations_out.people_of(self.ctx, occ))
        if not go.proceed:  # Cancel: nothing was done
            self.current_view().repaint_all()
            return False
        changes = self.writes.move(occ, start, end, scope)
        if changes:
            go.settle(self.ctx, changes)
            self.current_view().select_uid(occ.uid, start)
            invitations_out.offer_outgoing(self, self.ctx, occ.uid, invitations_out.REQUEST, occ.calendar_id)
        return bool(changes)

    @Slot(object)
    def _delete_requested(self, event: ViewEvent) -> bool:
        occ = event.occ
        if self.ctx.ops.refuse_read_only(occ):
            return False
        scope: Scope = "all"
        if occ.recurrence_id is not None:
            asked = scope_prompt.ask_scope(self, "delete", occ.title)
            if asked is None:
                return False
            scope = asked
        go = invitations_out.ask_first(self.ctx, self, occ.calendar_id, occ.uid, invitations_out.people_of(self.ctx, occ))
        if not go.proceed:
            return False
        cancel = invitations_out.cancellation(self.ctx, occ, scope)  # built while the event is still stored
        changes = self.writes.delete(occ, scope)
        if changes:
            go.settle(self.ctx, changes)
            if cancel is not None:
                invitations_out.offer_file(self, self.ctx, invitations_out.CANCEL, cancel[0], occ.title, cancel[1])
            elif scope == "following":  # the series now ends earlier: an update
                invitations_out.offer_outgoing(self, self.ctx, occ.uid, invitations_out.REQUEST, occ.calendar_id)
            # Deleting is immediate; the toast says what went and gives it back in one click.
            self._toast_changes = changes
            self.toast.show_message(self.tr("Deleted “{0}”").format(occ.title), lambda: self.ctx.ops.undo_specific(changes))
        return bool(changes)

    # ---- the event menu ------------------------------------------------------------------

    @Slot(object, object)
    def event_menu(self, event: ViewEvent, global_pos: QPoint) -> str | None:
        """Show the event's menu at ``global_pos`` and do what was chosen; returns its name."""
        invites = invitations_out.offers_files(self.ctx, event.occ)
        menu = EventMenu(event, self.ctx.ops.writable_calendars(), self, invites=invites)  # no move into a read-only one
        chosen = self.exec_menu(menu, global_pos)
        menu.deleteLater()
        if chosen is None:
            return None
        if chosen is menu.edit_action:
            self.open_editor(event, None, None)
            return "edit"
        if chosen is menu.duplicate_action:
            self.duplicate(event)
            return "duplicate"
        if chosen is menu.copy_action:
            self.copy_as_text(event)
            return "copy"
        if chosen is menu.invite_action:
            invitations_out.offer_outgoing(
                self, self.ctx, event.occ.uid, invitations_out.REQUEST, event.occ.calendar_id, ask=False
            )
            return "invite"
        if chosen is menu.delete_action:
            self._delete_requested(event)
            return "delete"
        for calendar_id, action in menu.calendar_actions.items():
            if chosen is action:  # into a synced calendar: an upload a server may mail about
                people = invitations_out.people_of(self.ctx, event.occ)
                if invitations_out.ask_first(self.ctx, self, calendar_id, event.occ.uid, people).proceed:
                    self.ctx.ops.move_to_calendar(event.occ, calendar_id)
                return "move"
        return None

    def duplicate(self, event: ViewEvent) -> bool:
        occ = event.occ
        component = self.writes.component(occ.uid, occ.recurrence_id or "") or self.writes.component(occ.uid)
        draft = duplicate_draft(event, component, invitations_out.copied_people(self.ctx, component))
        if self.ctx.ops.read_only_refusal(occ.calendar_id) is not None:  # a copy of a subscribed event is the user's own
            draft = dataclasses.replace(draft, calendar_id=self.ctx.ops.calendars.default().id)
        changes = self.create_copy(draft)
        if changes and changes.created:
            self.current_view().select_uid(changes.created[0].uid, event.start)
        return bool(changes)

    def create_copy(self, draft: EventDraft) -> ChangeSet | None:
        """A duplicate or a paste: a meeting's copy invites its people too, so on a synced
        calendar it asks first; elsewhere it offers the invitation file after."""
        go = invitations_out.ask_first(self.ctx, self, draft.calendar_id, "", draft.attendees or ())
        if not go.proceed:
            return None
        changes = self.ctx.ops.create(dataclasses.replace(draft, send_invitations=bool(go.send)))
        if changes and changes.created and draft.attendees:
            invitations_out.offer_outgoing(self, self.ctx, changes.created[0].uid, invitations_out.REQUEST, draft.calendar_id)
        return changes

    @Slot()
    def copy_event(self) -> bool:
        """Ctrl+C: the selected event, for Ctrl+V (``app/calendar/event_clipboard.py``)."""
        event = self.current_view().selected_event()
        if event is None:
            return False
        occ = event.occ
        component = self.writes.component(occ.uid, occ.recurrence_id or "") or self.writes.component(occ.uid)
        self.copied = duplicate_draft(event, component, invitations_out.copied_people(self.ctx, component))
        self.copy_as_text(event)
        return True

    @Slot()
    def paste_event(self) -> bool:
        """Ctrl+V: the copied event on the selected day, at its time of day; selected after."""
        if self.copied is None:
            return False
        from app.calendar.event_clipboard import pasted_draft

        draft = pasted_draft(self.copied, self.anchor)
        changes = self.create_copy(draft)
        if changes and changes.created:
            self.current_view().select_uid(changes.created[0].uid, local_naive(draft.start, self.ctx.tz))
        return bool(changes)

    def copy_as_text(self, event: ViewEvent) -> str:
        text = event_text(event, self.qlocale, self.chinese)
        QApplication.clipboard().setText(text)
        return text

    @Slot(object)
    def _reverted(self, changes: object) -> None:
        if changes is self._toast_changes:
            self._toast_changes = None
            self.toast.hide()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # a Qt override keeps Qt's name
        """Esc that no view used (nothing selected) closes the search results (issue 32: after
        Enter on a result, Esc, Esc left the panel open over the calendar)."""
        if event.key() == Qt.Key.Key_Escape and self.search_panel.isVisible():
            self.nav.search.clear()
            self._search_cancelled()
            return
        super().keyPressEvent(event)

    @Slot()
    def _search_cancelled(self) -> None:
        self.search_panel.clear()
        self.current_view().setFocus(Qt.FocusReason.OtherFocusReason)


def _parse_start(value: object) -> date | datetime | None:
    if isinstance(value, (date, datetime)):
        return value
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value) if "T" in value or " " in value else date.fromisoformat(value)
        except ValueError:
            return None
    return None
