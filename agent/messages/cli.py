"""Messages of agent/cli (codes ``cli.*``); see catalogue.py."""

from __future__ import annotations

from agent.messages.message import Message

MESSAGES: dict[str, Message] = {}
