"""``richeng print --view day|week|month|agenda --date EXPR -o FILE.pdf``: the pages File →
Print… would print, written as a PDF (a machine-checked contract, issue 32).

It lives in ``app/`` because it draws with Qt (``app/print_pages.py``), and ``agent/`` never
imports Qt (import-linter); the ``richeng`` launcher hands it the command line when the
command word is ``print``. It needs no display: ``QT_QPA_PLATFORM=offscreen`` unless the
caller chose a platform. ``--date`` takes the CLI's date expressions (``D``, ``D+7``,
``2026-12-01``, ``M+1`` …). A bad view, a bad date or an output path that cannot be written
exits 2 with one line and writes nothing: the PDF is drawn into a temporary file beside the
target and renamed over it only once complete.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from agent.cli.common import CliError, Parser, Session, checked_path, close_stores, fail
from agent.errors import UserFacingError
from agent.messages.catalogue import render

if TYPE_CHECKING:
    from agent.services.settings import SettingsService
    from agent.timesym.context import TimeContext

COMMAND = "print"


def is_print(argv: Sequence[str], value_options: set[str]) -> bool:
    """Whether ``argv``'s command word (the first argument that is neither an option nor an
    option's value) is ``print``."""
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg.startswith("-"):
            index += 2 if arg in value_options else 1
            continue
        return arg == COMMAND
    return False


def parser() -> Parser:
    p = Parser(prog="richeng print", description="print a view's pages to a PDF")
    p.add_argument("command", choices=[COMMAND])
    p.add_argument("--db", metavar="PATH")
    p.add_argument("--now", metavar="ISO8601")
    p.add_argument("--tz", metavar="IANA")
    p.add_argument("--lang", metavar="LANG")
    p.add_argument("--profile", metavar="NAME", help=argparse.SUPPRESS)
    p.add_argument("--view", required=True, metavar="day|week|month|agenda")
    p.add_argument("--date", default="D+0", metavar="EXPR")
    p.add_argument("-o", "--output", required=True, metavar="FILE.pdf")
    return p


def main(argv: Sequence[str]) -> int:
    try:
        return _run(parser().parse_args(list(argv)))
    except UserFacingError as exc:
        return fail(str(exc))
    finally:
        close_stores()


def _run(args: argparse.Namespace) -> int:
    from app.print_pages import VIEWS

    if args.view not in VIEWS:
        raise CliError("cli.print_bad_view", view=args.view)
    target = checked_path(args.output, "-o")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir() or not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise CliError("cli.print_unwritable", path=str(target)[:120])
    session = Session(args, reading=True)
    from agent.services.settings import SettingsService
    from agent.timesym.resolve import resolve_date

    ctx = session.ctx
    try:
        resolved = resolve_date(args.date, ctx)
    except UserFacingError as exc:
        raise CliError.of(exc) from None
    anchor = resolved.candidates[0] if resolved.candidates else ctx.now.date()
    settings = SettingsService(session.store, session.profile_id)
    language = args.lang or settings.get("language")
    chinese = str(language or "").startswith("zh") or (language is None and os.environ.get("LANG", "").startswith("zh"))
    pages = _write_pdf(session, ctx, args.view, anchor, chinese, settings, target)
    print(render("cli.print_done", "zh" if chinese else "en", pages=pages, path=str(target)))
    return 0


def _write_pdf(
    session: Session, ctx: TimeContext, view: str, anchor: date, chinese: bool, settings: SettingsService, target: Path
) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no display needed, none asked for
    from PySide6.QtGui import QGuiApplication, QPdfWriter

    from app import i18n
    from app.print_pages import gather, page_layout, paint

    app = QGuiApplication.instance() or QGuiApplication(["richeng"])
    if chinese:
        i18n.install(app, "zh_CN")
    job = gather(
        session.store, session.profile_id, ctx, view, anchor, chinese=chinese, week_start=int(settings.get("week_start") or 1),
        solar_terms=bool(settings.get("solar_terms")), lunar_days=bool(settings.get("lunar_days")),
    )  # fmt: skip
    handle, temp = tempfile.mkstemp(prefix=".richeng-print-", suffix=".pdf", dir=target.parent)
    os.close(handle)
    try:
        writer = QPdfWriter(temp)
        writer.setTitle(job.title())
        writer.setCreator("Richeng")
        writer.setResolution(300)
        writer.setPageLayout(page_layout(view))
        pages = paint(job, writer)
        del writer  # the file is complete once the writer is gone
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)  # as any file the user writes, not mkstemp's 0600
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return pages


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
