"""Messages of agent/store (codes ``store.*``); see catalogue.py."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {}
