"""The frozen app: ``build.spec`` builds once per test session, and the binary runs headless.

The build goes into a temporary folder (``--distpath``/``--workpath``), never into the
checkout, and takes a few minutes on two cores. ``RICHENG_FROZEN_DIR=dist/richeng`` reuses
a bundle built earlier (``make dist``) instead of building again.

What the frozen binary must show: it starts (``--version``; an offscreen window that quits
by itself), the agent's modules and data came along (a time symbol, a holiday, an import
with a Windows zone name, an export with a VTIMEZONE), the app's resources sit where
``app/paths.py`` looks under ``sys._MEIPASS``, and llama.cpp's library is in the bundle
and loads (``RICHENG_FROZEN_TURN=1`` adds one real turn with the small GGUF of the dev
extras, ~80 s on two cores).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent import __version__

pytestmark = pytest.mark.slow  # builds the PyInstaller bundle: left out of `make check`

ROOT = Path(__file__).resolve().parents[2]
NOW = ["--tz", "Asia/Shanghai", "--now", "2026-11-30T10:00+08:00"]
WINDOWS_ZONE_ICS = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN
BEGIN:VTIMEZONE
TZID:China Standard Time
BEGIN:STANDARD
DTSTART:16010101T000000
TZOFFSETFROM:+0800
TZOFFSETTO:+0800
END:STANDARD
END:VTIMEZONE
BEGIN:VEVENT
UID:packaging-1@example.com
DTSTAMP:20261101T000000Z
SUMMARY:客户拜访
DTSTART;TZID=China Standard Time:20261202T140000
DTEND;TZID=China Standard Time:20261202T160000
END:VEVENT
END:VCALENDAR
"""


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<dist>/richeng``: the one-folder app, built once per session."""
    prebuilt = os.environ.get("RICHENG_FROZEN_DIR")
    if prebuilt:
        folder = Path(prebuilt).resolve()
        assert (folder / "richeng").is_file(), f"RICHENG_FROZEN_DIR={prebuilt} has no richeng binary"
        return folder
    pytest.importorskip("PyInstaller", reason="pyinstaller is a dev dependency")
    base = tmp_path_factory.mktemp("pyinstaller")
    started = time.perf_counter()
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(base / "dist"),
            "--workpath",
            str(base / "work"),
            str(ROOT / "build.spec"),
        ],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-6000:]
    folder = base / "dist" / "richeng"
    size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())
    print(f"\nfrozen app built in {time.perf_counter() - started:.0f} s, {size / 2**20:.0f} MiB: {folder}")
    return folder


@pytest.fixture
def run(bundle: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """``run(*args)``: the frozen binary with user folders redirected into ``tmp_path``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "QT_"))}
    env.pop("VIRTUAL_ENV", None)
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"

    def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [str(bundle / "richeng"), *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=timeout
        )
        assert "Traceback" not in result.stderr, result.stderr[-4000:]
        return result

    return run


def test_version(run) -> None:  # type: ignore[no-untyped-def]
    result = run("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"richeng {__version__}" == "richeng 0.1.0"


def test_offscreen_window_starts_and_quits(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "x.sqlite3"
    started = time.perf_counter()
    result = run("--offscreen", "--quit-after", "1500", "--db", str(db))
    assert result.returncode == 0, result.stderr[-4000:]
    assert db.is_file()  # the store was created and migrated by the frozen app
    print(f"\nfrozen offscreen start + 1.5 s + quit: {time.perf_counter() - started:.1f} s")


def test_first_paint_in_chinese(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run("--offscreen", "--lang", "zh_CN", "--report-startup", "--db", str(tmp_path / "x.sqlite3"))
    assert result.returncode == 0, result.stderr[-4000:]
    line = next(line for line in result.stdout.splitlines() if line.startswith("first-paint-ms "))
    print(f"\nfrozen app: {line}")


def test_cli_time_symbols_and_holidays(run) -> None:  # type: ignore[no-untyped-def]
    result = run("time", "resolve", "D+1", "--json", *NOW)
    assert result.returncode == 0, result.stderr
    [resolved] = json.loads(result.stdout)
    assert resolved["start"] == "2026-12-01T00:00:00+08:00" and resolved["candidates"] == ["2026-12-01"]
    # 国庆 2026 comes from the holidays package's CN data (and its adjusted-workday tables).
    result = run("time", "resolve", "H:国庆", "--json", "--tz", "Asia/Shanghai", "--now", "2026-09-01T10:00+08:00")
    assert result.returncode == 0, result.stderr
    [holiday] = json.loads(result.stdout)
    assert holiday["candidates"][0] == "2026-10-01" and len(holiday["candidates"]) == 7


def test_cli_import_and_export_with_zones(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = ["--db", str(tmp_path / "cli.sqlite3")]
    source = tmp_path / "outlook.ics"
    source.write_text(WINDOWS_ZONE_ICS, encoding="utf-8")
    result = run("import", str(source), "--json", *db, *NOW)
    assert result.returncode == 0, result.stderr
    result = run("events", "list", "--start", "D+2", "--end", "D+2", "--json", *db, *NOW)
    assert result.returncode == 0, result.stderr
    [event] = json.loads(result.stdout)
    assert event["title"] == "客户拜访" and event["start"] == "2026-12-02T14:00:00+08:00"  # Windows name -> Asia/Shanghai
    target = tmp_path / "out.ics"
    result = run("export", "-o", str(target), *db, *NOW)
    assert result.returncode == 0, result.stderr
    text = target.read_text(encoding="utf-8")
    assert "BEGIN:VTIMEZONE" in text and "TZID:Asia/Shanghai" in text and "SUMMARY:客户拜访" in text


def test_bundle_holds_resources_plugins_and_llama(bundle: Path) -> None:
    internal = bundle / "_internal"  # sys._MEIPASS of a one-folder app
    assert (internal / "resources" / "translations" / "zh_CN.json").is_file()
    qt = internal / "PySide6" / "Qt"
    for plugin in (
        "platforms/libqoffscreen.so",
        "platforms/libqxcb.so",
        "platforms/libqwayland.so",
        "imageformats/libqsvg.so",
        "iconengines/libqsvgicon.so",
    ):
        assert (qt / "plugins" / plugin).is_file(), plugin
    assert (qt / "translations" / "qtbase_zh_CN.qm").is_file()
    libraries = sorted(path.name for path in bundle.rglob("libllama*.so*"))
    assert "libllama.so" in libraries, libraries  # the name llama_cpp's ctypes loader opens
    assert (internal / "llama_cpp" / "lib" / "libggml.so").is_file()
    # Lean: no test runners, servers or unused Qt modules came along.
    names = {path.name for path in internal.iterdir()}
    assert not names & {"pytest", "_pytest", "fastapi", "uvicorn", "setuptools", "PyInstaller", "pytz"}
    assert not (internal / "PySide6" / "QtNetwork.abi3.so").exists()


def test_llama_cpp_and_numpy_load_in_the_frozen_app(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A file that is not a GGUF gets as far as llama.cpp's loader: numpy and libllama were
    imported and loaded by the frozen app (a stripped, broken library fails before that)."""
    bogus = tmp_path / "not-a-model.gguf"
    bogus.write_bytes(b"GGUF, but not really")
    result = run("chat", "你好", "--model", f"llama:{bogus}", "--json", "--db", str(tmp_path / "llm.sqlite3"), *NOW)
    assert result.returncode == 0, result.stderr[-4000:]
    reply = json.loads(result.stdout)
    # "你好" is Chinese, so the model's error reads in Chinese too (the catalogue's models.cannot_load)
    assert reply["outcome"] == "model_unavailable" and "作为 GGUF 模型加载" in reply["reply"], reply


@pytest.mark.model
@pytest.mark.skipif(
    os.environ.get("RICHENG_FROZEN_TURN") != "1",
    reason="a real llama.cpp turn in the frozen app takes ~80 s on 2 cores; RICHENG_FROZEN_TURN=1 runs it",
)
def test_a_real_llama_turn_in_the_frozen_app(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from agent.models.base import ModelUnavailable
    from agent.models.bundled import bundled_gguf_path

    try:
        gguf = bundled_gguf_path()
    except ModelUnavailable as exc:
        pytest.skip(str(exc))
    started = time.perf_counter()
    result = run(
        "chat",
        "明天下午三点和张三开会",
        "--model",
        f"llama:{gguf}",
        "--json",
        "--db",
        str(tmp_path / "llm.sqlite3"),
        *NOW,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    reply = json.loads(result.stdout)
    assert reply["outcome"] != "model_unavailable", reply
    print(f"\nfrozen llama.cpp turn: {time.perf_counter() - started:.1f} s, outcome {reply['outcome']}")
