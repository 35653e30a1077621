"""``richeng import`` of something that is not a calendar file one can read: a device, a FIFO,
a folder, a file over the import cap. Each is refused in one line (exit 2) and nothing is
written: not the database, not a backup (issue 19, item 5). ``/dev/zero`` used to read
without end (MemoryError at best), a FIFO with no writer blocked for ever."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from agent.cli.main import main
from agent.ics import importer
from tests.support.clock import NOW_ARG

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(db_file: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    def _run(*args: str) -> tuple[int, str, str]:
        code = main(["--db", str(db_file), "--now", NOW_ARG, "--tz", "Asia/Shanghai", *args])
        out, err = capsys.readouterr()
        return code, out, err

    return _run


def _files(*roots: Path, skip: Path) -> dict[str, str]:
    """Every regular file under ``roots`` (the database's folder, the backups) by its digest."""
    found = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and skip not in path.parents:
                found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    return folder


@pytest.fixture
def refused(run: Run, tmp_path: Path, inputs: Path, _isolated_user_dirs: Path) -> Callable[[Path], str]:
    """Run ``import PATH`` against a database holding one event: exit 2, one line on stderr,
    no traceback, and every file of the database and its backups byte for byte as before."""
    code, _, err = run("events", "add", "--title", "Dentist", "--date", "D+1", "--time", "09:00")
    assert code == 0, err

    def _refused(path: Path) -> str:
        before = _files(tmp_path, _isolated_user_dirs, skip=inputs)
        code, out, err = run("import", str(path))
        assert code == 2 and out == ""
        assert err.endswith("\n") and err.count("\n") == 1 and str(path) in err, repr(err)
        assert "Traceback" not in err and "internal error" not in err
        assert _files(tmp_path, _isolated_user_dirs, skip=inputs) == before
        code, out, _ = run("--json", "events", "list", "--start", "D+0", "--end", "D+7")
        assert code == 0 and out.count('"uid"') == 1
        return err

    return _refused


def test_dev_zero_is_refused(refused: Callable[[Path], str]) -> None:
    refused(Path("/dev/zero"))


def test_a_fifo_is_refused_without_waiting_for_a_writer(refused: Callable[[Path], str], inputs: Path) -> None:
    pipe = inputs / "calendar.ics"
    os.mkfifo(pipe)
    refused(pipe)


def test_a_folder_is_refused(refused: Callable[[Path], str], inputs: Path) -> None:
    refused(inputs)


def test_a_calendar_over_the_cap_is_refused_and_says_so(
    refused: Callable[[Path], str], inputs: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    calendar = inputs / "big.ics"
    calendar.write_bytes(
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:big@t\r\n"
        b"DTSTAMP:20250101T000000Z\r\nDTSTART:20250101T090000Z\r\nSUMMARY:Big\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    monkeypatch.setattr(importer, "MAX_FILE_BYTES", calendar.stat().st_size - 1)
    assert "larger than" in refused(calendar)
    monkeypatch.setattr(importer, "MAX_FILE_BYTES", calendar.stat().st_size)
    code, _, err = run("import", str(calendar))  # at the cap it is read
    assert code == 0, err


def test_a_sparse_file_past_the_real_cap_is_refused(refused: Callable[[Path], str], inputs: Path) -> None:
    sparse = inputs / "sparse.ics"
    with sparse.open("wb") as handle:  # a hole: no disk used, but one byte past the cap
        handle.truncate(importer.MAX_FILE_BYTES + 1)
    assert "larger than" in refused(sparse)
