"""Any OpenAI-compatible chat endpoint: OpenAI, DashScope (Qwen), DeepSeek, Ollama, vLLM, llama.cpp.

Requests always stream, so the chat pane shows text as it arrives and the runtime can time the
first token. Failures become ``ModelUnavailable`` quickly (short connect timeout, one retry):
a calendar that hangs for a minute on a dead laptop-local server is worse than an honest
one-line error. The key is handed to the SDK client and kept nowhere else on this object.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import openai

from agent.messages.catalogue import is_code, pair
from agent.messages.message import Message
from agent.models.base import (
    BaseChatModel,
    ModelEvent,
    ModelResponse,
    ModelUnavailable,
    Progress,
    Stopwatch,
    ToolCall,
    ToolChoice,
    Usage,
    reading_view,
)
from agent.models.keys import normalize_base_url, redact, resolve_api_key

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 10.0
DEFAULT_CONNECT_TIMEOUT_S = 3.0


def public_url(base_url: str) -> str:
    """The URL without any ``user:password@`` part, fit for names and messages."""
    parts = urlsplit(base_url)
    if parts.username is None and parts.password is None:
        return base_url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)

    def finish(self, index: int) -> ToolCall:
        return ToolCall(id=self.id or f"call_{index}", name=self.name, arguments="".join(self.arguments))


class OpenAIChatModel(BaseChatModel):
    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT_S,
        max_retries: int = 1,
        include_usage: bool = True,
    ) -> None:
        if not model or not base_url:
            raise ValueError("openai backend needs a model name and a base URL")
        self.model = model
        self.base_url = normalize_base_url(base_url)
        self.name = f"openai:{model}@{public_url(self.base_url)}"
        if api_key:
            key, self.key_source = api_key, "argument"
        else:
            key, self.key_source = resolve_api_key(self.base_url)
        self._secret = key  # only for scrubbing server error text; never formatted anywhere
        self._include_usage = include_usage
        self._client = openai.OpenAI(
            api_key=key,
            base_url=self.base_url,
            timeout=openai.Timeout(timeout, connect=min(connect_timeout, timeout)),
            max_retries=max_retries,
        )
        log.debug("model %s ready (key from %s)", self.name, self.key_source)

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        tool_choice: ToolChoice = "auto",
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Iterator[ModelEvent]:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": _wire_messages(messages),
            "max_tokens": max_tokens,
            "temperature": temperature,
            "stream": True,
        }
        if tools:
            request["tools"] = reading_view(tools)  # private x- keys never leave the process
            request["tool_choice"] = tool_choice
        if self._include_usage:
            request["stream_options"] = {"include_usage": True}
        # A server says nothing until its first token: "reading the prompt" without counts,
        # and the consumer's chance to stop before anything is sent.
        yield ModelEvent(kind="progress", progress=Progress("reading"))
        watch = Stopwatch()
        chunks = self._open(request)
        yield from self._read(chunks, watch)

    # -- internals -------------------------------------------------------------------------

    def _open(self, request: dict[str, Any]) -> Any:
        """Start the request; retry once without options an older server rejects with HTTP 400."""
        for _ in range(3):
            try:
                return self._client.chat.completions.create(**request)
            except openai.BadRequestError as exc:
                text = _error_text(exc).lower()
                if "stream_options" in request and ("stream_options" in text or "include_usage" in text):
                    request.pop("stream_options")
                    continue
                if "max_tokens" in request and "max_completion_tokens" in text:
                    request["max_completion_tokens"] = request.pop("max_tokens")
                    continue
                raise self._unavailable(exc) from None
            except openai.OpenAIError as exc:
                raise self._unavailable(exc) from None
        raise ModelUnavailable("models.rejected_400", name=self.name)

    def _read(self, chunks: Any, watch: Stopwatch) -> Iterator[ModelEvent]:
        content: list[str] = []
        partial: dict[int, _PartialCall] = {}
        usage = Usage()
        finished = False
        written = 0  # tool-call pieces received
        try:
            for chunk in chunks:
                if getattr(chunk, "usage", None) is not None:
                    usage = _usage(chunk.usage)
                for choice in chunk.choices or []:
                    finished = finished or bool(getattr(choice, "finish_reason", None))
                    delta = choice.delta
                    if delta is None:
                        continue
                    if delta.content:
                        watch.first_output()
                        content.append(delta.content)
                        yield ModelEvent(kind="token", text=delta.content)
                    for piece in delta.tool_calls or []:
                        watch.first_output()
                        written += 1
                        yield ModelEvent(kind="progress", progress=Progress("writing", written))  # a Stop lands here too
                        call = partial.setdefault(piece.index or 0, _PartialCall())
                        if piece.id:
                            call.id = piece.id
                        if piece.function is not None:
                            if piece.function.name:
                                call.name = piece.function.name
                            if piece.function.arguments:
                                call.arguments.append(piece.function.arguments)
        except openai.OpenAIError as exc:
            raise self._unavailable(exc) from None
        finally:
            close = getattr(chunks, "close", None)
            if callable(close):
                close()
        if not finished and not content and not partial:
            # e.g. llama.cpp's server failing inside the event stream: it just closes it
            raise ModelUnavailable("models.stream_ended", where=public_url(self.base_url))
        calls = [partial[i].finish(i) for i in sorted(partial)]
        for finished_call in calls:
            yield ModelEvent(kind="tool_call", tool_call=finished_call)
        response = ModelResponse(content="".join(content), tool_calls=calls, usage=usage, timings=watch.end())
        yield ModelEvent(kind="done", response=response)

    def _unavailable(self, exc: Exception) -> ModelUnavailable:
        where = public_url(self.base_url)
        if isinstance(exc, openai.APITimeoutError):
            return ModelUnavailable("models.timeout", where=where)
        if isinstance(exc, openai.APIConnectionError):
            return ModelUnavailable("models.unreachable", where=where)
        if isinstance(exc, openai.AuthenticationError):
            if self.key_source == "none":
                return ModelUnavailable("models.no_key", where=where)
            source = f"models.source_{self.key_source}"
            named = pair(source) if is_code(source) else Message(self.key_source, self.key_source)
            return ModelUnavailable("models.key_rejected", where=where, source=named)
        if isinstance(exc, openai.NotFoundError):
            return ModelUnavailable("models.unknown_model", where=where, model=self.model)
        if isinstance(exc, openai.RateLimitError):
            return ModelUnavailable("models.rate_limited", where=where)
        if isinstance(exc, openai.APIStatusError):
            return ModelUnavailable(
                "models.http_status", where=where, status=exc.status_code, error=_error_text(exc, self._secret)
            )
        return ModelUnavailable("models.failed", where=where, error=_error_text(exc, self._secret))


def _wire_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages as every server accepts them: an assistant turn that only calls tools
    carries ``content: ""`` rather than ``null``. OpenAI takes both; llama-cpp-python's server
    answers HTTP 500 to ``null`` (its request model wants a string), which broke every turn
    whose tool result went back to the model."""
    return [
        {**message, "content": ""} if message.get("role") == "assistant" and message.get("content") is None else message
        for message in messages
    ]


def _error_text(exc: Exception, secret: str | None = None, limit: int = 160) -> str:
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    one_line = " ".join(str(message).split())
    one_line = redact(one_line, secret)
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def _usage(raw: Any) -> Usage:
    cached = 0
    details = getattr(raw, "prompt_tokens_details", None)
    if details is not None and getattr(details, "cached_tokens", None):
        cached = int(details.cached_tokens)
    elif getattr(raw, "prompt_cache_hit_tokens", None):  # DeepSeek's spelling
        cached = int(raw.prompt_cache_hit_tokens)
    else:
        extra = getattr(raw, "model_extra", None) or {}
        if isinstance(extra.get("prompt_cache_hit_tokens"), int):
            cached = int(extra["prompt_cache_hit_tokens"])
    return Usage(
        prompt_tokens=int(getattr(raw, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(raw, "completion_tokens", 0) or 0),
        cached_tokens=cached,
    )
