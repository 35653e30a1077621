"""Chat model backends behind one small interface (see ``base``), chosen by a spec string.

Backends are imported lazily by ``load_model`` so that importing this package never pulls in
llama.cpp or the OpenAI SDK for code that only needs the data types.
"""

from __future__ import annotations

from agent.models.base import (
    BaseChatModel,
    ChatModel,
    ModelEvent,
    ModelResponse,
    ModelUnavailable,
    ToolCall,
    ToolChoice,
    Usage,
    drain,
)
from agent.models.keys import get_api_key, store_api_key
from agent.models.registry import (
    SPEC_FORMS,
    USER_FACING_KINDS,
    ModelSpec,
    ModelSpecError,
    is_user_facing,
    load_model,
    parse_spec,
)
from agent.models.script_backend import ScriptedModel

__all__ = [
    "SPEC_FORMS",
    "USER_FACING_KINDS",
    "BaseChatModel",
    "ChatModel",
    "ModelEvent",
    "ModelResponse",
    "ModelSpec",
    "ModelSpecError",
    "ModelUnavailable",
    "ScriptedModel",
    "ToolCall",
    "ToolChoice",
    "Usage",
    "drain",
    "get_api_key",
    "is_user_facing",
    "load_model",
    "parse_spec",
    "store_api_key",
]
