"""The warm-up of a loaded llama.cpp model: the prompt prefix, then the conversation.

Why a module of its own: what a warm-up does with the KV cache (take it from memory, from
the saved prefix or the saved conversation, or evaluate it; save it; read the resent history
after it) is one piece of reasoning about cache states, apart from loading a model and
decoding a turn (``agent.models.llama_backend``). Both share ``evaluate``, the chunked prompt
reader that makes progress and Stop possible.

Sources a job reports (``WarmJob.source``): "memory" (a turn already left the prefix in the
cache), "disk" (the saved prefix), "conversation" (the conversation saved at the last quit,
when this start resends exactly it), "evaluated", "cancelled", "failed". docs/models.md has
the rules and the figures.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent.models import prefix_cache

if TYPE_CHECKING:
    from llama_cpp import Llama

log = logging.getLogger(__name__)

# Tokens per prompt-evaluation step: small enough that progress moves and a Stop lands within
# seconds on a slow CPU, large enough that the per-call overhead stays negligible.
PROMPT_CHUNK = 64


class WarmJob:
    """The background evaluation (or disk load) of one static prefix; see ``LlamaChatModel.warm``."""

    def __init__(self) -> None:
        self.finished = threading.Event()
        self.cancelled = threading.Event()
        self.done = 0
        self.total = 0
        self.source = ""  # "memory" | "disk" | "conversation" (saved at quit) | "evaluated" | "cancelled" | "failed"
        self.saved = False
        self.conversation = 0  # prompt tokens in the cache once the resent history is read too
        self.thread: threading.Thread | None = None

    def wait(self, timeout: float | None = None) -> bool:
        return self.finished.wait(timeout)


@dataclass
class Loaded:
    """One loaded ``Llama``: its lock (one generation or warm-up at a time) and its warm-up."""

    llama: Llama
    n_ctx: int
    lock: threading.Lock
    formatter: Any  # a llama_cpp ChatFormatter: (messages=...) -> ChatFormatterResponse
    warm: WarmJob | None = None


def run_warm(
    model_path: Path,
    loaded: Loaded,
    job: WarmJob,
    prefix_tokens: Callable[[list[dict[str, Any]]], list[int]],
    messages: list[dict[str, Any]],
    conversation: list[dict[str, Any]] | None,
    persist: bool,
) -> None:
    """The body of ``LlamaChatModel.warm``'s thread: under the model's lock, the static
    prefix (``messages``) into the KV cache, then the resent ``conversation`` after it.
    ``prefix_tokens(leading)`` renders leading messages with the model's template and tools."""
    try:
        with loaded.lock:
            if job.cancelled.is_set():
                job.source = "cancelled"
                return
            llama = loaded.llama
            tokens = prefix_tokens(messages)
            resent = prefix_tokens(conversation) if conversation and conversation != messages else []
            if len(resent) <= len(tokens) or len(resent) + 1 >= llama.n_ctx():
                resent = []  # nothing past the prefix, or a history the turn must trim anyway
            job.total = len(resent) or len(tokens)
            if not tokens or len(tokens) + 1 >= llama.n_ctx():
                job.source = "failed"
                return
            if resent and persist and _restore_conversation(model_path, llama, job, resent):
                return
            if _warm_prefix(model_path, llama, job, tokens, persist) and resent:
                _warm_conversation(llama, job, resent)
    except Exception:  # a warm-up failure costs speed, never a turn: the turn evaluates
        log.exception("prefix warm-up failed")
        job.source = "failed"
    finally:
        job.finished.set()


def _warm_prefix(model_path: Path, llama: Llama, job: WarmJob, tokens: list[int], persist: bool) -> bool:
    """The static prefix into the KV cache (memory, disk or evaluated); False if cancelled."""
    from llama_cpp import Llama

    held = Llama.longest_token_prefix(llama._input_ids.tolist(), tokens)
    key = prefix_cache.cache_key(model_path, {"n_ctx": llama.n_ctx(), "n_batch": llama.n_batch}, tokens)
    path = prefix_cache.cache_file(key)
    if held >= len(tokens):  # a turn got here first: keep it, but make sure the next process can start warm
        job.done, job.source = len(tokens), "memory"
        if persist and prefix_cache.read(path, key, tokens) is None:
            if llama.n_tokens > len(tokens):  # drop the turn's tail (it changes next turn anyway)
                llama._ctx.kv_cache_seq_rm(-1, len(tokens), -1)
                llama.n_tokens = len(tokens)
            job.saved = prefix_cache.save(llama, key, path)
        return True
    if persist and prefix_cache.restore(llama, key, tokens, path):
        job.done, job.source = len(tokens), "disk"
        return True
    for done in evaluate(llama, tokens, len(tokens), min(held, llama.n_tokens)):
        job.done = done
        if job.cancelled.is_set():
            job.source = "cancelled"
            return False
    job.source = "evaluated"
    if persist:
        job.saved = prefix_cache.save(llama, key, path)
    return True


def _restore_conversation(model_path: Path, llama: Llama, job: WarmJob, resent: list[int]) -> bool:
    """The state the last app run saved at quit (``save_conversation``), when this start
    resends exactly the conversation it held (same session, nothing said since)."""
    from llama_cpp import Llama

    if Llama.longest_token_prefix(llama._input_ids.tolist(), resent) >= len(resent):
        return False  # already in memory: the static path reports it as such
    key, path = _conversation_slot(model_path, llama, resent)
    if not prefix_cache.restore(llama, key, resent, path):
        return False
    job.done = job.conversation = len(resent)
    job.source = "conversation"
    return True


def _warm_conversation(llama: Llama, job: WarmJob, resent: list[int]) -> None:
    """The resent history after the prefix; a cancel keeps what was read (the source stays)."""
    from llama_cpp import Llama

    held = min(Llama.longest_token_prefix(llama._input_ids.tolist(), resent), llama.n_tokens)
    job.done = held
    for done in evaluate(llama, resent, len(resent), held):
        job.done = done
        if job.cancelled.is_set():
            return
    job.conversation = len(resent)


def _conversation_slot(model_path: Path, llama: Llama, resent: list[int]) -> tuple[dict[str, Any], Path]:
    """Key and file of the saved conversation: a slot of its own beside the static prefix's
    (saving one never evicts the other), one per model file and context settings."""
    settings = {"n_ctx": llama.n_ctx(), "n_batch": llama.n_batch, "slot": "conversation"}
    key = prefix_cache.cache_key(model_path, settings, resent)
    return key, prefix_cache.cache_file(key)


def save_conversation(model_path: Path, loaded: Loaded) -> bool:
    """Only when the last warm-up read the whole resent conversation and no turn ran since
    (the KV cache then holds exactly those tokens); a warm-up still running is left to be
    cancelled, and a turn holding the model is not waited for past half a second."""
    job = loaded.warm
    if job is None or not job.finished.is_set() or not job.conversation:
        return False
    if not loaded.lock.acquire(timeout=0.5):
        return False
    try:
        llama = loaded.llama
        if llama.n_tokens != job.conversation:
            return False
        resent = llama.input_ids[: job.conversation].tolist()
        key, path = _conversation_slot(model_path, llama, resent)
        if prefix_cache.read(path, key, resent) is not None:
            return True  # an earlier quit in the same conversation saved it
        return prefix_cache.save(llama, key, path)
    finally:
        loaded.lock.release()


def evaluate(llama: Llama, tokens: list[int], upto: int, start: int) -> Iterator[int]:
    """Evaluate ``tokens[start:upto]`` after the first ``start`` (already in the KV cache).

    Yields the number of prompt tokens in the cache after each chunk, so callers can report
    progress and stop between chunks; what was evaluated before a stop stays cached.
    """
    llama.n_tokens = min(llama.n_tokens, start)  # eval() drops the KV cache past n_tokens
    done = llama.n_tokens
    while done < upto:
        step = tokens[done : min(upto, done + PROMPT_CHUNK)]
        llama.eval(step)
        done += len(step)
        yield done
