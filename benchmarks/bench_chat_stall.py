"""Benchmark: the longest event-loop stall while a chat turn runs in the worker.

Moved out of the test suite (tests prove the turn runs off the UI thread with a handshake,
never with a timing): a 5 ms QTimer ticks on the UI thread while a paced scripted model
streams a reply, and the longest gap between ticks is the longest stall a user could feel.
Target: under 50 ms. Medians over ``--runs`` turns.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_chat_stall.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from agent.store.db import Store
from agent.store.profiles import ensure_profile
from tests.support.chat_fixtures import PacedScriptedModel, call

NOW = datetime(2026, 11, 30, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
REPLY = "好的，可以先把需要专注的事情列出来，再一件件排进日程，别忘了留出休息的时间。"


def one_turn(turn: dict[str, object], text: str) -> tuple[float, int]:
    from app.application import build_context
    from app.chat.chat_pane import ChatPane

    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.sqlite3")
        ctx = build_context(store, ensure_profile(store), tz="Asia/Shanghai", now=NOW)
        ctx.session.set_model(PacedScriptedModel([turn], delay=0.01))
        pane = ChatPane(ctx)
        pane.resize(420, 640)
        pane.show()
        while not pane.warmed_up():
            QApplication.processEvents()
        gaps: list[float] = []
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.setInterval(5)
        timer.timeout.connect(tick)
        loop = QEventLoop()
        pane.turn_finished.connect(lambda *_: loop.quit())
        worker = pane.prepare_send(text)
        if worker is None:
            raise RuntimeError("the chat pane did not take the message (busy or empty)")
        last[0] = time.perf_counter()
        timer.start()
        pane.run_worker(worker)
        loop.exec()
        timer.stop()
        pane.shutdown()
        store.close()
        return (max(gaps) * 1000 if gaps else 0.0), len(gaps)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    QApplication.instance() or QApplication([])
    stories = {
        "chat reply": ({"content": REPLY}, "这周怎么安排比较好？"),
        "create": (
            call("prepare_or_create_schedule", title="和张三开会", dateExpression="D+1", time="15:00"),
            "明天下午三点和张三开会",
        ),
    }
    for name, (turn, text) in stories.items():
        stalls = [one_turn(turn, text) for _ in range(args.runs)]
        print(
            f"{name}: longest stall median {statistics.median(s for s, _ in stalls):.1f} ms "
            f"(max {max(s for s, _ in stalls):.1f} ms), ticks median {statistics.median(n for _, n in stalls):.0f}"
        )


if __name__ == "__main__":
    main()
