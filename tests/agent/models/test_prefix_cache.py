"""The warm, persisted prefix state of the local backend, and its prompt-reading progress.

A "next process" is simulated by ``clear_cache()`` (every loaded Llama closed) and a fresh
``LlamaChatModel``: the KV cache is then empty, so a cached token can only have come from the
file on disk. The conftest points ``XDG_CACHE_HOME`` at a per-test folder. Prefixes are short
(no tool schemas) so each evaluation takes seconds; what is asserted is which tokens were
served from the cache and which path the warm-up took, never how long anything took.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.models import llama_backend, llama_warm, prefix_cache
from agent.models.bundled import bundled_gguf_path
from agent.models.llama_backend import LlamaChatModel, clear_cache
from tests.support.model_fixtures import THREADS

pytestmark = pytest.mark.model

SYSTEM_A = "You are Richeng, a calendar assistant. Keep answers short and in the user's language."
# One word changed, the same number of tokens: only the key and the stored token ids can tell.
SYSTEM_B = "You are Richeng, a calendar assistant. Keep answers brief and in the user's language."


def _fresh() -> LlamaChatModel:
    clear_cache()
    return LlamaChatModel(bundled_gguf_path(), n_ctx=1024, n_threads=THREADS)


def _system(text: str) -> list[dict[str, Any]]:
    return [{"role": "system", "content": text}]


def _state_files() -> list[Path]:
    return sorted(prefix_cache.cache_dir().glob("*.state"))


def _turn(model: LlamaChatModel, system: str) -> Any:
    messages = [*_system(system), {"role": "user", "content": "What is on Tuesday?"}]
    return model.complete(messages, [], max_tokens=2)


def test_the_next_process_loads_the_saved_prefix_instead_of_reading_it() -> None:
    model = _fresh()
    job = model.warm(_system(SYSTEM_A), [])
    assert job.wait(600) and job.source == "evaluated" and job.saved
    prefix_len = len(model.prefix_tokens(_system(SYSTEM_A), []))
    assert job.done == job.total == prefix_len > 10
    assert len(_state_files()) == 1

    model = _fresh()  # a new process: empty KV cache
    job = model.warm(_system(SYSTEM_A), [])
    assert job.wait(600) and job.source == "disk"
    response = _turn(model, SYSTEM_A)
    assert response.usage.cached_tokens >= prefix_len - 1  # the token before the user text may merge
    assert response.usage.prompt_tokens > response.usage.cached_tokens

    model = _fresh()  # and without a warm-up the same turn reads everything
    cold = _turn(model, SYSTEM_A)
    assert cold.usage.cached_tokens == 0


def test_a_truncated_state_file_is_ignored_and_replaced() -> None:
    model = _fresh()
    assert model.warm(_system(SYSTEM_A), []).wait(600)
    (path,) = _state_files()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    tokens = model.prefix_tokens(_system(SYSTEM_A), [])
    llama = model.llama
    key = prefix_cache.cache_key(model.path, {"n_ctx": llama.n_ctx(), "n_batch": llama.n_batch}, tokens)
    assert prefix_cache.read(path, key, tokens) is None  # refused before llama.cpp ever sees it

    model = _fresh()
    job = model.warm(_system(SYSTEM_A), [])
    assert job.wait(600) and job.source == "evaluated" and job.saved
    model = _fresh()
    assert model.warm(_system(SYSTEM_A), []).wait(600) and model._current().warm.source == "disk"  # type: ignore[union-attr]


def test_a_state_file_for_another_prefix_is_not_trusted() -> None:
    model = _fresh()
    assert model.warm(_system(SYSTEM_A), []).wait(600)
    (path,) = _state_files()  # one file per model and context settings: B's prefix maps here too
    saved_for_a = path.read_bytes()

    model = _fresh()
    assert len(model.prefix_tokens(_system(SYSTEM_B), [])) == len(model.prefix_tokens(_system(SYSTEM_A), []))
    job = model.warm(_system(SYSTEM_B), [])
    assert job.wait(600) and job.source == "evaluated"
    assert _state_files() == [path] and path.read_bytes() != saved_for_a  # replaced by B's state
    response = _turn(model, SYSTEM_B)
    assert response.usage.cached_tokens >= len(model.prefix_tokens(_system(SYSTEM_B), [])) - 1


def test_a_file_with_a_flipped_payload_byte_is_not_trusted() -> None:
    model = _fresh()
    assert model.warm(_system(SYSTEM_A), []).wait(600)
    (path,) = _state_files()
    data = bytearray(path.read_bytes())
    data[-100] ^= 0xFF  # same length, same header: only the checksum can tell
    path.write_bytes(bytes(data))
    tokens = model.prefix_tokens(_system(SYSTEM_A), [])
    llama = model.llama
    key = prefix_cache.cache_key(model.path, {"n_ctx": llama.n_ctx(), "n_batch": llama.n_batch}, tokens)
    assert prefix_cache.cache_file(key) == path
    assert prefix_cache.read(path, key, tokens) is None


def test_prompt_reading_reports_progress_and_can_stop_between_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llama_warm, "PROMPT_CHUNK", 8)
    model = _fresh()
    messages = [*_system(SYSTEM_A), {"role": "user", "content": "What is on Tuesday?"}]
    total = len(model.render_prompt(messages, [])[0])
    events = list(model.stream(messages, [], max_tokens=2))
    kinds = [e.kind for e in events]
    first_other = next(i for i, k in enumerate(kinds) if k != "progress")
    assert first_other >= 3 and "progress" not in kinds[first_other:]
    done = [e.progress.done for e in events[:first_other] if e.progress is not None]
    assert done == sorted(done) and done[0] == 0 and done[-1] == total - 1
    assert {e.progress.total for e in events[:first_other] if e.progress is not None} == {total}
    assert all(e.progress is not None and e.progress.phase == "reading" for e in events[:first_other])

    # Stopping after two chunks keeps what was read: the next request starts from there.
    model = _fresh()
    stream = model.stream(messages, [], max_tokens=2)
    for _ in range(3):  # the opening report, then two chunks
        next(stream)
    stream.close()
    assert model.llama.n_tokens == 16
    again = model.complete(messages, [], max_tokens=2)
    assert again.usage.cached_tokens == 16


def test_a_turn_during_the_warm_up_waits_for_it_instead_of_reading_twice() -> None:
    model = _fresh()
    job = model.warm(_system(SYSTEM_A), [])
    response = _turn(model, SYSTEM_A)  # whether it had to wait or not, the prefix was read once
    assert job.finished.is_set() and job.source == "evaluated"
    assert response.usage.cached_tokens >= len(model.prefix_tokens(_system(SYSTEM_A), [])) - 1


def test_the_app_session_warms_the_real_prefix_and_the_next_start_reuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's path: a LazyModel, ``ChatSession.warm_up()`` at start, then a real turn,
    the read-ahead of that exchange, the quit that saves it, and the start after.

    Guards that what the session pre-reads is what a turn really sends (``_prefix_for`` and
    ``warm_messages`` against the runtime's request): otherwise the restarted session would
    read it again.
    """
    import json

    from agent.runtime.session import ChatSession
    from agent.store.db import Store
    from agent.store.profiles import ensure_profile
    from app.model_loader import LazyModel
    from tests.support.clock import NOW, ctx_at

    jobs: list[llama_warm.WarmJob] = []
    real_warm = LlamaChatModel.warm

    def recording_warm(self: LlamaChatModel, *args: Any, **kwargs: Any) -> llama_warm.WarmJob:
        jobs.append(real_warm(self, *args, **kwargs))
        return jobs[-1]

    monkeypatch.setattr(LlamaChatModel, "warm", recording_warm)

    def start() -> tuple[Store, ChatSession]:
        clear_cache()
        jobs.clear()
        store = Store(tmp_path / "calendar.sqlite3")
        model = LazyModel("bundled", n_ctx=2048, n_threads=THREADS)
        session = ChatSession(store, ensure_profile(store), model, clock=lambda: NOW)  # type: ignore[arg-type]
        session.warm_up()
        return store, session

    def cached_of_last_turn(store: Store) -> int:
        observed = store.conn.execute("SELECT data FROM observations ORDER BY id DESC LIMIT 1").fetchone()
        return int(json.loads(observed[0])["tokens"]["cached"])

    store, session = start()
    assert session.warm_thread is not None
    session.warm_thread.join(600)
    assert jobs[0].wait(600) and jobs[0].source == "evaluated" and jobs[0].saved and not jobs[0].conversation
    store.close()

    store, session = start()  # the next app start
    events, result = session.send_all("明天下午三点开会", ctx_at(NOW))
    first = jobs[0]
    assert first.source == "disk"
    kinds = [e.kind for e in events]
    assert kinds[0] == "progress" and events[0].payload.phase == "loading"  # the pane can say so at once
    assert result.model_calls >= 1  # (a later call of the base model's turn may outgrow n_ctx=2048)
    assert cached_of_last_turn(store) >= first.total - 1  # every request of the turn started from the saved prefix
    assert session.warm_thread is not None
    session.warm_thread.join(600)  # the read-ahead's thread registers its job on the model
    ahead = jobs[-1]  # after the turn: this exchange read ahead for the next one
    assert len(jobs) == 2 and ahead.wait(600) and ahead.conversation > first.total
    resent = ahead.conversation
    session.cancel_warm_up()  # the app quits: the read-ahead is saved
    store.close()

    store, session = start()  # the start after: the whole conversation comes from disk
    assert session.warm_thread is not None
    session.warm_thread.join(600)
    assert jobs[0].wait(600) and jobs[0].source == "conversation" and jobs[0].conversation == jobs[0].done == resent
    session.send_all("后天呢", ctx_at(NOW))
    assert cached_of_last_turn(store) >= resent - 1
    store.close()


def test_a_turn_waiting_for_the_warm_up_reports_its_progress_and_can_stop() -> None:
    from agent.models.base import Progress

    model = _fresh()
    job = llama_warm.WarmJob()  # a warm-up that is still reading (held open by the test)
    job.done, job.total = 5, 50
    model._current().warm = job
    stream = model.stream([*_system(SYSTEM_A), {"role": "user", "content": "What is on Tuesday?"}], [], max_tokens=2)
    first = next(stream)
    assert first.kind == "progress" and first.progress == Progress("reading", 5, 50)
    stream.close()  # a Stop while waiting: the model was never locked by this turn
    lock = model._current().lock
    assert lock.acquire(blocking=False)
    lock.release()
    job.finished.set()
    assert _turn(model, SYSTEM_A).usage.prompt_tokens > 0


def test_quitting_cancels_a_warm_up_and_saves_nothing() -> None:
    model = _fresh()
    lock = model._current().lock
    assert lock.acquire(timeout=5)  # a turn is using the model: the warm-up queues behind it
    job = model.warm(_system(SYSTEM_A), [])
    llama_backend.cancel_warm_ups(timeout_s=0)  # what the app's aboutToQuit does
    lock.release()
    assert job.wait(600) and job.source == "cancelled" and not job.saved
    assert _state_files() == []


def test_saving_prunes_state_files_of_models_that_are_gone(tmp_path: Path) -> None:
    directory = prefix_cache.cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    gone = directory / "0000gone.state"  # a well-formed header for a model file deleted since
    header = b'{"key": {"model": "%s", "model_size": 1, "model_mtime_ns": 1}}' % str(tmp_path / "deleted.gguf").encode()
    gone.write_bytes(prefix_cache.MAGIC + prefix_cache._LEN.pack(len(header)) + header)
    junk = directory / "0000junk.state"
    junk.write_bytes(b"not a state file")
    model = _fresh()
    job = model.warm(_system(SYSTEM_A), [])
    assert job.wait(600) and job.saved
    assert _state_files() == [
        prefix_cache.cache_file(
            prefix_cache.cache_key(
                model.path,
                {"n_ctx": model.llama.n_ctx(), "n_batch": model.llama.n_batch},
                model.prefix_tokens(_system(SYSTEM_A), []),
            )
        )
    ]


def test_a_restart_inside_a_conversation_reads_its_history_ahead() -> None:
    """The app passes the resent history as ``conversation``: after the prefix (here from
    disk) the warm-up reads it too, so the first turn reads only its own message. The warm-up
    itself saves only the static prefix; the conversation is saved at quit, in a slot of its
    own, and used only by a start that resends exactly it."""
    history = [
        {"role": "user", "content": "What is on Tuesday?"},
        {"role": "assistant", "content": "Tuesday 10:00 dentist."},
    ]
    model = _fresh()
    assert model.warm(_system(SYSTEM_A), []).wait(600)
    prefix_len = len(model.prefix_tokens(_system(SYSTEM_A), []))

    model = _fresh()  # the next process, inside the same conversation
    conversation = [*_system(SYSTEM_A), *history]
    job = model.warm(_system(SYSTEM_A), [], conversation=conversation)
    resent = len(model.prefix_tokens(conversation, []))
    assert job.wait(600) and job.source == "disk" and not job.saved
    assert resent > prefix_len and job.total == job.done == job.conversation == resent
    assert llama_backend.save_conversations() == 1  # what the app's quit does
    response = model.complete([*conversation, {"role": "user", "content": "And Wednesday?"}], [], max_tokens=2)
    assert response.usage.cached_tokens >= resent - 1
    assert llama_backend.save_conversations() == 0  # a turn ran since: the cache no longer holds just the conversation

    model = _fresh()  # the same conversation resent: it comes whole from its own file
    job = model.warm(_system(SYSTEM_A), [], conversation=conversation)
    assert job.wait(600) and job.source == "conversation" and job.done == resent

    model = _fresh()  # another history: that file is ignored, the saved prefix still serves it
    other = [*_system(SYSTEM_A), {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]
    job = model.warm(_system(SYSTEM_A), [], conversation=other)
    assert job.wait(600) and job.source == "disk" and job.conversation == len(model.prefix_tokens(other, []))
    assert len(_state_files()) == 2  # the prefix's and the conversation's slot, nothing piling up
