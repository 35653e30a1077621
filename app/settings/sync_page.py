"""Settings → Sync: a CalDAV account set up inside the app, not only with the CLI.

The page does what ``richeng sync add-account`` and ``richeng sync map`` do, through the
same ``agent.sync.accounts`` calls: the account row keeps the server URL and the user name,
the password goes to the OS keyring (``agent.sync.secrets``), and each remote calendar that
is ticked syncs with one local calendar (an existing one, or a new one named after it).

"Test connection" asks the server for the user's calendars on a pool thread (an
``app.background_op.BackgroundOp``), so a slow or
dead server (up to the 30 s client timeout) never freezes the window; nothing is written
until the dialog is saved. Failures are said in plain words (wrong password, cannot reach
the server, not a CalDAV address, certificate), with the technical detail in a tooltip.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from PySide6.QtCore import QThreadPool, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from agent.errors import UserFacingError
from agent.sync.accounts import (
    Account,
    AccountService,
    RemoteInfo,
    SyncError,
    connect,
    discover_calendars,
    set_sync_interval_minutes,
    sync_interval_minutes,
)
from agent.sync.secrets import Secrets
from app.background_op import BackgroundOp
from app.context import AppContext
from app.worker import Channel, describe

NEW_CALENDAR = "\x00new"  # combo data: make a local calendar named after the remote one


class SyncPage(QWidget):
    tested = Signal(bool)  # a connection test finished (True: calendars listed)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, secrets: Secrets | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.accounts = AccountService(ctx.store, ctx.profile_id, secrets)
        self.account: Account | None = next(iter(self.accounts.list()), None)
        self.remotes: list[RemoteInfo] | None = None  # from this session's connection test
        self._probe: BackgroundOp[None, list[RemoteInfo]] | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)

        self.url = QLineEdit(self)
        self.url.setPlaceholderText("https://cal.example.com/dav/")
        self.user = QLineEdit(self)
        self.password = QLineEdit(self)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        if self.account is not None:
            self.url.setText(self.account.url)
            self.user.setText(self.account.username)
            if self.accounts.password(self.account):
                self.password.setPlaceholderText(self.tr("Saved in the system keyring"))

        self.test_button = QPushButton(self.tr("Test connection"), self)
        self.test_button.clicked.connect(self.test_connection)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.status, 1)

        self.calendars_box = QWidget(self)
        self.calendar_grid = QGridLayout(self.calendars_box)
        self.calendar_grid.setContentsMargins(0, 0, 0, 0)
        self.rows: list[tuple[RemoteInfo, QCheckBox, QComboBox]] = []

        self.interval = QSpinBox(self)
        self.interval.setRange(0, 24 * 60)
        self.interval.setSuffix(self.tr(" min"))
        self.interval.setSpecialValueText(self.tr("Only when asked"))
        self.interval.setValue(sync_interval_minutes(ctx.store, ctx.profile_id))

        note = QLabel(
            self.tr(
                "Any CalDAV server works (Nextcloud, Fastmail, iCloud with an app password, Radicale). "
                "The password is kept in the system keyring, never in Richeng's files."
            ),
            self,
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(placeholder-text);")

        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.tr("Server address:"), self.url)
        form.addRow(self.tr("User name:"), self.user)
        form.addRow(self.tr("Password:"), self.password)
        form.addRow("", test_row)
        form.addRow(self.tr("Calendars:"), self.calendars_box)
        form.addRow(self.tr("Sync every:"), self.interval)
        form.addRow(note)
        self._show_mapped()

    # ---- the connection test -------------------------------------------------------------

    def busy(self) -> bool:
        return self._probe is not None

    @Slot()
    def test_connection(self) -> None:
        """List the account's calendars in the background; the result fills the rows."""
        problem = self._address_problem()
        if problem:
            self._say(problem, error=True)
            return
        if self._probe is not None:
            return
        saved = self.accounts.password(self.account) if self.account is not None and self._same_account() else None
        password = self.password.text() or saved
        url, user = self.url.text().strip(), self.user.text().strip()

        def probe(_channel: Channel[None]) -> list[RemoteInfo]:
            """Discover the account's calendars off the UI thread; touches no database."""
            return discover_calendars(connect(url, user, password))

        op = BackgroundOp(self, probe, "caldav probe")
        op.ended(self._probe_ended).success(self._found).failure(self._failed)
        self._probe = op
        self.test_button.setEnabled(False)
        self._say(self.tr("Connecting…"))
        op.run_in_background(self._pool)

    def _probe_ended(self) -> None:
        self._probe = None
        self.test_button.setEnabled(True)

    def _found(self, found: list[RemoteInfo]) -> None:
        events = [info for info in found if info.has_events]
        self.remotes = events
        if not events:
            self._say(self.tr("Connected, but this account has no calendars with events."), error=True)
        else:
            self._say(self.tr("Connected. Calendars found: {0}. Tick the ones to sync.").format(len(events)))
        self._fill_rows(events)
        self.tested.emit(bool(events))

    def _failed(self, error: Exception) -> None:
        """A refusal in plain words; the server's own words (or a bug's one line) in the tooltip."""
        if isinstance(error, SyncError):
            kind, detail = error.kind, str(error)
        else:  # a bug or an odd server: still a sentence, never a trace
            kind, detail = "other", describe(error)
        self._say(self.plain_error(kind), error=True, detail=detail)
        self.tested.emit(False)

    def plain_error(self, kind: str) -> str:
        return {
            "auth": self.tr("The server refused the user name or password."),
            "unreachable": self.tr("Cannot reach the server. Check the address and your network connection."),
            "tls": self.tr("The server's security certificate could not be verified."),
            "not_caldav": self.tr(
                "The server answered, but not as a CalDAV calendar server. "
                "Check the address (it often ends in /dav/ or /caldav/)."
            ),
        }.get(kind, self.tr("The connection test failed."))

    # ---- calendars -----------------------------------------------------------------------

    def _show_mapped(self) -> None:
        """Before any test: the calendars already syncing, as ticked rows."""
        if self.account is None:
            self._say(self.tr("No account yet. Fill in the server and test the connection."))
            return
        mapped = self.accounts.mappings(self.account)
        infos = [RemoteInfo(m.remote_url, m.remote_name, (), m.calendar_name) for m in mapped]
        self._fill_rows(infos)
        if not infos:
            self._say(self.tr("Test the connection to choose calendars."))

    def _fill_rows(self, infos: list[RemoteInfo]) -> None:
        while self.calendar_grid.count():
            item = self.calendar_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.rows = []
        mapped = {m.remote_url.rstrip("/"): m.calendar_name for m in self.accounts.mappings(self.account)} if self.account else {}
        locals_ = self.ctx.ops.calendars.names()
        for row, info in enumerate(infos):
            current = mapped.get(info.url.rstrip("/")) or info.mapped_to
            tick = QCheckBox(info.name, self.calendars_box)
            tick.setChecked(current is not None)
            tick.setToolTip(info.url)
            target = QComboBox(self.calendars_box)
            if info.name.casefold() not in {name.casefold() for name in locals_}:
                target.addItem(self.tr("New calendar “{0}”").format(info.name), NEW_CALENDAR)
            for name in locals_:
                target.addItem(name, name)
            index = target.findData(current) if current else -1
            if index < 0:
                same = [i for i in range(target.count()) if str(target.itemData(i)).casefold() == info.name.casefold()]
                index = same[0] if same else 0
            target.setCurrentIndex(index)
            arrow = QLabel("→", self.calendars_box)
            for column, widget in enumerate((tick, arrow, target)):
                self.calendar_grid.addWidget(widget, row, column)
                widget.show()  # the box may be visible already: show now, not on a later event
            self.rows.append((info, tick, target))
        self.calendar_grid.setColumnStretch(2, 1)

    # ---- saving --------------------------------------------------------------------------

    def validate(self) -> str | None:
        if self.busy():
            return self.tr("Wait for the connection test to finish.")
        if not self.url.text().strip():
            return None  # no account: only the interval is saved
        return self._address_problem()

    def save(self) -> list[str]:
        """Write the account, its password (keyring first), the calendars and the interval;
        returns what changed. Raises UserFacingError with a sentence for the dialog."""
        changed: list[str] = []
        url, user, password = self.url.text().strip(), self.user.text().strip(), self.password.text()
        if url:
            if password and not self.accounts.secrets.put(url, user, password):
                raise UserFacingError(
                    self.tr(
                        "There is no usable system keyring, so the password was not saved. "
                        "Set RICHENG_CALDAV_PASSWORD in the environment instead."
                    )
                )
            if not self._same_account():
                if self.account is not None:
                    self.accounts.remove(self.account.name)  # a new server or user: local events stay
                self.account = self.accounts.add(url, user, self._free_name(url))
                changed.append("sync_account")
            elif password:
                changed.append("sync_account")
            if self.remotes is not None and self.account is not None:
                changed += self._save_mappings(self.account)
        if self.interval.value() != sync_interval_minutes(self.ctx.store, self.ctx.profile_id):
            set_sync_interval_minutes(self.ctx.store, self.ctx.profile_id, self.interval.value())
            changed.append("sync_interval_minutes")
        return changed

    def _save_mappings(self, account: Account) -> list[str]:
        existing = {m.remote_url.rstrip("/"): m for m in self.accounts.mappings(account)}
        changed = []
        for info, tick, target in self.rows:
            mapping = existing.get(info.url.rstrip("/"))
            choice = target.currentData()
            local = info.name if choice == NEW_CALENDAR else str(choice)
            if not tick.isChecked():
                if mapping is not None:
                    self.accounts.unmap(mapping)
                    changed.append("sync_calendars")
                continue
            if mapping is not None and mapping.calendar_name.casefold() == local.casefold():
                continue
            if mapping is not None:
                self.accounts.unmap(mapping)
            try:
                self.accounts.map(account, info, local)
            except UserFacingError as exc:
                raise UserFacingError(self.tr("Cannot sync “{0}” there: {1}").format(info.name, exc)) from None
            changed.append("sync_calendars")
        if changed:
            self.ctx.ops.calendars_changed.emit()  # a new local calendar shows in the sidebar
        return changed

    def shutdown(self, timeout_ms: int = 0) -> bool:
        """The dialog is closing: a running test is left to end on its own (its result is
        dropped; the op keeps itself alive until its thread returns); returns whether nothing
        was running."""
        if self._probe is not None:
            self._probe.drop()
            self._probe = None
        return self._pool.waitForDone(timeout_ms)

    # ---- helpers -------------------------------------------------------------------------

    def _address_problem(self) -> str | None:
        url = self.url.text().strip()
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return self.tr("The server address must start with https:// (for example https://cal.example.com/dav/).")
        if not self.user.text().strip():
            return self.tr("Enter the user name for this server.")
        return None

    def _same_account(self) -> bool:
        return (
            self.account is not None
            and self.account.url.rstrip("/") == self.url.text().strip().rstrip("/")
            and self.account.username == self.user.text().strip()
        )

    def _free_name(self, url: str) -> str:
        base = urlsplit(url).hostname or "caldav"
        taken = {a.name.casefold() for a in self.accounts.list()}
        name, n = base, 2
        while name.casefold() in taken:
            name, n = f"{base}-{n}", n + 1
        return name

    def _say(self, text: str, error: bool = False, detail: str = "") -> None:
        self.status.setText(text)
        self.status.setToolTip(detail)
        self.status.setStyleSheet("color: #c0392b;" if error else "")
