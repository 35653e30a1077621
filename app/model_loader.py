"""The configured model, loaded on first use so the window opens without waiting for it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from agent.models.base import ChatModel, ModelEvent, ModelResponse, ModelUnavailable
from agent.services.settings import SettingsService


class LazyModel:
    """Loads ``spec`` inside the first ``stream`` call, i.e. on the chat worker thread."""

    def __init__(self, spec: str, **opts: Any) -> None:
        self.spec = spec
        self.opts = opts
        self.name = spec.split("@")[0] if spec.startswith("openai:") else spec
        self._model: ChatModel | None = None
        self._lock = threading.Lock()

    def _load(self) -> ChatModel:
        with self._lock:
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

    def stream(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], **kwargs: Any) -> Iterator[ModelEvent]:
        return self._load().stream(messages, tools, **kwargs)

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
