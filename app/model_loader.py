"""The configured model, loaded on first use so the window opens without waiting for it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator
from typing import Any

from agent.models.base import ChatModel, ModelEvent, ModelResponse, ModelUnavailable, Progress
from agent.services.settings import SettingsService

Prefix = tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]] | None]

WAIT_TICK_S = 0.25


class LazyModel:
    """Loads ``spec`` on first use: in ``warm`` (the session's warm-up thread) or ``stream``.

    A turn that arrives while another thread is loading the model does not block silently:
    it yields ``loading`` progress events until the load is done, and its consumer can stop
    between them (the load itself finishes in the background and is kept).
    """

    def __init__(self, spec: str, **opts: Any) -> None:
        self.spec = spec
        self.opts = opts
        self.name = spec.split("@")[0] if spec.startswith("openai:") else spec
        self._model: ChatModel | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> ChatModel | None:
        return self._model

    def _load(self) -> ChatModel:
        with self._lock:
            return self._load_locked()

    def _load_locked(self) -> ChatModel:
        if self._model is None:
            from agent.models.registry import load_model

            try:
                self._model = load_model(self.spec, **self.opts)
            except ModelUnavailable:
                raise
            except Exception as exc:  # a bad spec must read as "unavailable", not crash a turn
                raise ModelUnavailable(str(exc)) from exc
            self.name = getattr(self._model, "name", self.name)
        return self._model

    def warm(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        conversation: list[dict[str, Any]] | None = None,
    ) -> None:
        """Load the model now (blocking the calling thread) and start its prefix warm-up."""
        self.warm_with(lambda: (messages, tools, conversation))

    def warm_with(self, prefix: Callable[[], Prefix]) -> None:
        """``warm``, with the prefix built only once the load lock is held.

        The session's warm-up thread calls this first thing, so a turn sent right at start-up
        finds the lock taken and waits (with ``loading`` progress) until the prefix warm-up is
        registered on the loaded model, instead of reading the prefix a second time itself.
        ``prefix()`` gives the static messages, the tools and the resent conversation (or
        None), as ``LlamaChatModel.warm`` takes them."""
        with self._lock:
            model = self._load_locked()
            warm = getattr(model, "warm", None)
            if callable(warm):
                messages, tools, conversation = prefix()
                warm(messages, tools, conversation=conversation)

    def _loaded_with_progress(self) -> Generator[ModelEvent, None, ChatModel]:
        # The lock, not just ``_model``: the warm-up thread publishes the model before it has
        # registered the prefix warm-up, and a turn slipping into that gap would read the
        # whole prefix itself.
        if self._model is not None and self._lock.acquire(blocking=False):
            self._lock.release()
            return self._model
        yield ModelEvent(kind="progress", progress=Progress("loading"))
        while not self._lock.acquire(timeout=WAIT_TICK_S):  # another thread is loading it
            yield ModelEvent(kind="progress", progress=Progress("loading"))
        try:
            return self._load_locked()
        finally:
            self._lock.release()

    def stream(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> Iterator[ModelEvent]:
        model = yield from self._loaded_with_progress()
        yield from model.stream(messages, tools, **kwargs)

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> ModelResponse:
        return self._load().complete(messages, tools, **kwargs)


def configured_model(settings: SettingsService) -> LazyModel | None:
    spec = settings.get("model")
    if not spec:
        return None
    opts: dict[str, Any] = {}
    if str(spec).startswith("llama:"):
        opts["n_ctx"] = int(settings.get("llama_n_ctx"))
        if settings.get("llama_threads"):
            opts["n_threads"] = int(settings.get("llama_threads"))
    return LazyModel(str(spec), **opts)
