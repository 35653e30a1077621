"""A GGUF model run in-process by llama-cpp-python, with grammar-constrained tool calls.

Why in-process: a local-first calendar should work on a plane. Why one ``Llama`` per file for
the whole process: loading costs seconds, and llama-cpp-python keeps the KV cache of its last
evaluation and only evaluates the part of a new prompt after the longest common token prefix.
Every turn renders the system prompt and tool definitions first and byte-identically, so from
the second turn on only the conversation tail is evaluated (see docs/models.md for figures).

The prompt uses the GGUF's own chat template; a GGUF without one (a base model) falls back to
the Llama-2 format, as llama-cpp-python itself does. Tool calling is described in
``agent.models.tool_grammar``.

Warm and persisted prefix (``warm``): when a session loads a local model it hands over the
static prefix (system prompt + tool schemas) before the first message; a background thread
loads the state after that prefix from disk (``agent.models.prefix_cache``) or evaluates it
and saves it, so the first turn after a restart costs what a second turn costs. A turn that
arrives while the warm-up runs waits for it, reporting progress, and can be stopped.

Progress: llama-cpp-python has no per-token callback for prompt evaluation, so the part of
the prompt not in the KV cache is evaluated in chunks of ``PROMPT_CHUNK`` tokens with
``Llama.eval`` (``llama_warm.evaluate``, shared with the warm-up, which lives there too);
after each chunk the stream yields a ``progress`` event (tokens done / total), which is
also where a Stop takes effect. ``create_completion`` then finds everything but the
last token cached and evaluates only that one.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import uuid
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from agent.models import llama_warm
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
    forced_tool_name,
)
from agent.models.lazy_grammar import LazyGrammarProcessor
from agent.models.llama_warm import Loaded, WarmJob, evaluate
from agent.models.tool_grammar import TOOL_MARKER, build_grammar, normalize_messages, split_call

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp.llama_types import CreateCompletionStreamResponse

log = logging.getLogger(__name__)

DEFAULT_N_CTX = 8192  # the static prefix (system prompt + tool schemas) is ~5k tokens
WAIT_TICK_S = 0.25  # how often a turn waiting for the warm-up reports progress (and can stop)
# Two user texts that differ in their first character: the tokens both renders share are
# exactly the part of every request that comes before the conversation.
_PROBES = ("1", "2")


_instances: dict[str, Loaded] = {}
_instances_lock = threading.Lock()


def default_threads() -> int:
    # Half the logical CPUs approximates the physical cores (llama.cpp's own default); more
    # threads than cores makes llama.cpp's spin-waiting workers fight the UI and the grammar.
    return max(1, min(8, (os.cpu_count() or 2) // 2))


def clear_cache(wait_s: float | None = None) -> None:
    """Drop every loaded model (tests use it to measure a cold start; the app on model change).

    ``wait_s``: how long to wait for a turn or warm-up still holding a model; past it that
    model is left to its thread. None waits as long as it takes."""
    with _instances_lock:
        loaded = list(_instances.values())
        _instances.clear()
    for item in loaded:
        if item.warm is not None:
            item.warm.cancelled.set()
        if not item.lock.acquire(timeout=-1 if wait_s is None else wait_s):
            continue
        try:
            item.llama.close()
        finally:
            item.lock.release()


def _close_at_exit() -> None:
    """Close every loaded model before the interpreter tears its modules down.

    A Llama freed during that teardown can find llama_cpp's C functions already unset and
    printed ``TypeError: 'NoneType' object is not callable`` from ``Llama.__del__`` (after
    every full test run). Exit waits at most a second for a model a turn still holds."""
    clear_cache(wait_s=1.0)


atexit.register(_close_at_exit)


def cancel_warm_ups(timeout_s: float = 5.0) -> None:
    """Stop every running prefix warm-up at its next chunk and wait for it (app quit).

    A daemon thread still inside llama.cpp while the interpreter tears the model down could
    crash the exit; a cancelled warm-up saves nothing (a partial prefix is no use next time).
    """
    with _instances_lock:
        jobs = [item.warm for item in _instances.values() if item.warm is not None]
    for job in jobs:
        job.cancelled.set()
    for job in jobs:
        job.wait(timeout_s)


_LOG_CALLBACK: Any = None  # the ctypes callback must stay referenced while llama.cpp holds it


def _route_llama_log() -> None:
    """llama.cpp's own log goes to this module's logger (debug), not to the terminal.

    llama-cpp-python's callback prints some lines to stderr even with ``verbose=False`` (every
    ``richeng chat`` showed "llama_kv_cache_iswa: using full-size SWA cache (ref: ...)"). A
    load that fails still raises, and its reason reaches the user as ``ModelUnavailable``."""
    global _LOG_CALLBACK
    if _LOG_CALLBACK is not None:
        return
    import ctypes

    import llama_cpp

    native = logging.getLogger("llama_cpp.native")

    @llama_cpp.llama_log_callback
    def forward(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        native.debug("%s", text.decode("utf-8", "replace").rstrip())

    _LOG_CALLBACK = forward
    llama_cpp.llama_log_set(forward, ctypes.c_void_p(0))


def save_conversations() -> int:
    """Save each loaded model's read-ahead conversation for the next start (the app quits;
    call before ``cancel_warm_ups``). Returns how many were saved."""
    with _instances_lock:
        items = list(_instances.items())
    return sum(llama_warm.save_conversation(Path(path), loaded) for path, loaded in items)


def loaded_paths() -> list[str]:
    with _instances_lock:
        return list(_instances)


def _load(path: Path, n_ctx: int, n_threads: int, n_batch: int) -> Loaded:
    key = str(path)
    with _instances_lock:
        existing = _instances.get(key)
        if existing is not None and existing.n_ctx >= n_ctx:
            return existing
        if not path.is_file():
            raise ModelUnavailable("models.file_missing", path=str(path))
        try:
            from llama_cpp import Llama
        except ImportError:
            raise ModelUnavailable("models.no_llama_cpp") from None
        _route_llama_log()
        try:
            llama = Llama(model_path=key, n_ctx=n_ctx, n_threads=n_threads, n_batch=n_batch, verbose=False)
        except Exception as exc:  # llama.cpp reports a bad file as a bare ValueError
            raise ModelUnavailable("models.not_gguf", name=path.name, error_type=type(exc).__name__) from None
        if existing is not None:  # a larger context was asked for: replace, do not keep two
            if existing.warm is not None:
                existing.warm.cancelled.set()
            with existing.lock:
                existing.llama.close()
        loaded = Loaded(llama=llama, n_ctx=n_ctx, lock=threading.Lock(), formatter=_formatter(llama))
        _instances[key] = loaded
        return loaded


def _formatter(llama: Llama) -> Any:
    from llama_cpp import llama_chat_format

    template = llama.metadata.get("tokenizer.chat_template")
    if not template:
        return llama_chat_format.format_llama2
    eos_id, bos_id = llama.token_eos(), llama.token_bos()
    return llama_chat_format.Jinja2ChatFormatter(
        template=template,
        eos_token=llama._model.token_get_text(eos_id) if eos_id != -1 else "",
        bos_token=llama._model.token_get_text(bos_id) if bos_id != -1 else "",
        stop_token_ids=[eos_id],
    )


def render_prompt(formatter: Any, turns: list[dict[str, str]]) -> Any:
    """Render with the model's template, working around templates that refuse what we send."""
    try:
        return formatter(messages=turns)
    except Exception:
        pass
    # Some templates (Gemma 2, Mistral v1) raise on a system role: fold it into the first user
    # turn, which is where those models were trained to find instructions anyway.
    if turns and turns[0]["role"] == "system" and len(turns) > 1 and turns[1]["role"] == "user":
        folded = [{"role": "user", "content": f"{turns[0]['content']}\n\n{turns[1]['content']}"}, *turns[2:]]
        try:
            return formatter(messages=folded)
        except Exception:
            pass
    # Anything else the template rejects (e.g. a conversation opening with the assistant) gets
    # the generic Llama-2 layout: worse than the model's own, but it answers.
    from llama_cpp import llama_chat_format

    return llama_chat_format.format_llama2(messages=turns)


class LlamaChatModel(BaseChatModel):
    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        n_batch: int = 512,
        name: str | None = None,
    ) -> None:
        self.path = Path(path).expanduser()
        self.name = name or f"llama:{self.path}"
        self._n_ctx = n_ctx
        self._n_threads = n_threads or default_threads()
        self._n_batch = n_batch
        self._loaded = _load(self.path, n_ctx, self._n_threads, n_batch)

    @property
    def llama(self) -> Llama:
        return self._current().llama

    def _current(self) -> Loaded:
        # After clear_cache() the old Llama is closed; touching it would crash, so reload.
        with _instances_lock:
            alive = _instances.get(str(self.path)) is self._loaded
        if not alive:
            self._loaded = _load(self.path, self._n_ctx, self._n_threads, self._n_batch)
        return self._loaded

    def render_prompt(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> tuple[list[int], list[str]]:
        """Prompt tokens and stop strings for a turn; public so tests can check prefix stability."""
        turns = normalize_messages(messages, tools)
        loaded = self._current()
        formatter = loaded.formatter
        result = render_prompt(formatter, turns)
        tokens = loaded.llama.tokenize(result.prompt.encode("utf-8"), add_bos=not result.added_special, special=True)
        stop = result.stop if isinstance(result.stop, list) else [result.stop] if result.stop else []
        return tokens, [s for s in stop if s]

    def prefix_tokens(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[int]:
        """The tokens every request with these leading messages and tools starts with.

        Rendered twice with two different one-character user messages: whatever the chat
        template puts around the conversation, the shared tokens are the static prefix.
        """
        a, _ = self.render_prompt([*messages, {"role": "user", "content": _PROBES[0]}], tools)
        b, _ = self.render_prompt([*messages, {"role": "user", "content": _PROBES[1]}], tools)
        from llama_cpp import Llama

        return a[: Llama.longest_token_prefix(a, b)]

    def warm(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        persist: bool = True,
        conversation: list[dict[str, Any]] | None = None,
    ) -> WarmJob:
        """Start evaluating the static prefix in a background thread; returns at once.

        The state after the prefix comes from this process's KV cache when it already holds
        it, else from the disk cache when a sound file for exactly this model, context and
        prefix exists, else it is evaluated and (``persist``) saved for the next process.
        ``conversation``: the leading messages the next turn will resend (the static ones
        plus this session's history, from ``Assistant.warm_messages``); their tokens past the
        prefix are read next, in the same job, and never saved (they change every turn), so
        a restart inside a conversation does not make its first turn read the history again.
        A turn started meanwhile waits for the job, with progress, and can stop waiting.
        """
        loaded = self._current()
        job = WarmJob()
        previous = loaded.warm
        if previous is not None:
            previous.cancelled.set()
        loaded.warm = job
        job.thread = threading.Thread(
            target=llama_warm.run_warm,
            args=(self.path, loaded, job, lambda leading: self.prefix_tokens(leading, tools), messages, conversation, persist),
            name="llama-warm",
            daemon=True,
        )
        job.thread.start()
        return job

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        *,
        tool_choice: ToolChoice = "auto",
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Iterator[ModelEvent]:
        from llama_cpp import Llama

        watch = Stopwatch()
        use_tools = bool(tools) and tool_choice != "none"
        grammar = build_grammar(tools, only=forced_tool_name(tool_choice)) if use_tools else None
        loaded = self._current()
        job = loaded.warm
        while job is not None and not job.wait(WAIT_TICK_S):  # the consumer may stop between ticks
            yield ModelEvent(kind="progress", progress=Progress("reading", job.done, job.total))
        with loaded.lock:  # one generation at a time per Llama; held until this stream ends
            llama = loaded.llama
            tokens, stop = self.render_prompt(messages, tools)
            if len(tokens) + 1 >= llama.n_ctx():
                raise ModelUnavailable("models.context_full", tokens=len(tokens), context=llama.n_ctx())
            cached = max(0, min(Llama.longest_token_prefix(llama._input_ids.tolist(), tokens), len(tokens) - 1))
            yield ModelEvent(kind="progress", progress=Progress("reading", cached, len(tokens)))
            try:
                for done in evaluate(llama, tokens, len(tokens) - 1, cached):
                    yield ModelEvent(kind="progress", progress=Progress("reading", done, len(tokens)))
            except Exception as exc:  # llama.cpp failures surface as assorted exceptions
                raise ModelUnavailable("models.failed_reading", error_type=type(exc).__name__, reason=str(exc)) from None
            run = _Run(llama, tokens, stop, max_tokens, temperature, watch)
            text: list[str] = []
            wants_call = use_tools and tool_choice != "auto"
            if not wants_call:
                # Free text, or (auto) free text unless the first visible character opens a call.
                wants_call = yield from run.free_text(text, decide=use_tools)
            call: ToolCall | None = None
            if wants_call:
                text.clear()
                call = yield from run.call(text, grammar)
            output = "".join(text)
            completion_tokens = len(llama.tokenize(output.encode("utf-8"), add_bos=False, special=True)) if output else 0
        content = "" if call is not None else output
        if wants_call and call is None:
            log.warning("local model stopped inside a tool call before naming the tool")
            yield ModelEvent(kind="token", text=output)
        usage = Usage(prompt_tokens=len(tokens), completion_tokens=completion_tokens, cached_tokens=cached)
        response = ModelResponse(content=content, tool_calls=[call] if call else [], usage=usage, timings=watch.end())
        yield ModelEvent(kind="done", response=response)


@dataclass
class _Run:
    """One turn's decoding passes over the same prompt (the second reuses the first's KV cache)."""

    llama: Llama
    tokens: list[int]
    stop: list[str]
    max_tokens: int
    temperature: float
    watch: Stopwatch

    def pieces(self, gbnf: str | None) -> Generator[str, None, None]:
        from llama_cpp import LlamaGrammar, LogitsProcessorList

        lazy: LazyGrammarProcessor | None = None
        grammar: LlamaGrammar | None = None
        try:
            if gbnf is not None and self.temperature <= 0:
                lazy = LazyGrammarProcessor(self.llama, gbnf)
            elif gbnf is not None:  # sampling: every candidate must be masked, so the eager sampler
                grammar = LlamaGrammar.from_string(gbnf, verbose=False)
        except ValueError as exc:  # a grammar llama.cpp refuses: an honest line, not a traceback
            raise ModelUnavailable("models.grammar_refused", reason=str(exc)) from None
        # stream=True gives llama_cpp's generator of chunks; its annotation does not tell the two
        # return types apart by ``stream``.
        chunks = cast(
            "Generator[CreateCompletionStreamResponse, None, None]",
            self.llama.create_completion(
                prompt=self.tokens,
                max_tokens=self.max_tokens,
                temperature=self.temperature,
                stop=self.stop,
                stream=True,
                grammar=grammar,
                logits_processor=LogitsProcessorList([lazy]) if lazy else None,
                repeat_penalty=1.0,
                seed=0,
            ),
        )
        try:
            for chunk in chunks:
                piece = str(chunk["choices"][0]["text"])
                if piece:
                    self.watch.first_output()
                    yield piece
        except Exception as exc:  # llama.cpp failures surface as assorted exceptions
            raise ModelUnavailable("models.failed_generating", error_type=type(exc).__name__, reason=str(exc)) from None
        finally:
            chunks.close()
            if lazy is not None:
                lazy.close()

    def free_text(self, text: list[str], *, decide: bool) -> Generator[ModelEvent, None, bool]:
        """Stream unconstrained text; with ``decide``, return True instead if it opens with "<"."""
        pending: list[str] | None = []
        pieces = self.pieces(None)
        try:
            for piece in pieces:
                if pending is not None:
                    pending.append(piece)
                    head = "".join(pending)
                    if not head.strip():
                        continue  # leading blank space decides nothing yet
                    if decide and head.lstrip().startswith(TOOL_MARKER[0]):
                        return True
                    text.append(head)
                    yield ModelEvent(kind="token", text=head)
                    pending = None
                    continue
                text.append(piece)
                yield ModelEvent(kind="token", text=piece)
        finally:
            pieces.close()
        if pending:
            text.append("".join(pending))
            yield ModelEvent(kind="token", text="".join(pending))
        return False

    def call(self, text: list[str], grammar: str | None) -> Generator[ModelEvent, None, ToolCall | None]:
        """Decode under the tool grammar; the call is yielded as soon as its JSON closes."""
        call: ToolCall | None = None
        for written, piece in enumerate(self.pieces(grammar), start=1):
            text.append(piece)
            if call is None:
                yield ModelEvent(kind="progress", progress=Progress("writing", written))  # a Stop lands here too
                call = _complete_call("".join(text))
                if call is not None:  # the grammar allows only end-of-turn after this
                    yield ModelEvent(kind="tool_call", tool_call=call)
        if call is None:  # cut off by max_tokens: pass on what was written, if it names a tool
            parsed = split_call("".join(text))
            if parsed is not None:
                call = ToolCall(id=_call_id(), name=parsed[0], arguments=parsed[1])
                yield ModelEvent(kind="tool_call", tool_call=call)
        return call


def _call_id() -> str:
    return f"call_{uuid.uuid4().hex[:12]}"


def _complete_call(text: str) -> ToolCall | None:
    parsed = split_call(text)
    if parsed is None or not parsed[2]:
        return None
    return ToolCall(id=_call_id(), name=parsed[0], arguments=parsed[1])
