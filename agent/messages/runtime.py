"""Messages of agent/runtime (codes ``runtime.*``); see catalogue.py."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {}
