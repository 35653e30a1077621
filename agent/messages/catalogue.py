"""Every sentence Richeng shows a person, by code, in Chinese and English.

Code raises and returns codes with parameters (``StoreError("store.read_only", path=p)``), and
the edge that knows the reader's language renders them: the CLI in English (its contract),
the chat and the app in the user's language. Like Anki's ``ftl/core``, the wording lives
here and nowhere else: tests/agent/test_catalogue.py fails on a user-facing literal outside
it and on a message with only one language. Each area keeps its messages in a module of its
own beside this one (``store.py``, ``sync.py`` ...), all merged into ``MESSAGES``.

Parameters are ``str.format`` fields. A message whose text is only a parameter (``{text}``)
carries wording that is data, such as a server's own error line.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from agent.messages import (
    cli,
    evals,
    facts,
    files,
    ics,
    invitations,
    models,
    receipts,
    recurrence,
    runtime,
    services,
    store,
    sync,
    timesym,
)
from agent.messages.message import Message


def fields(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


# Every message area, listed once: the import above names them, this tuple merges them.
AREAS = (cli, evals, facts, files, ics, invitations, models, receipts, recurrence, runtime, services, store, sync, timesym)


def _merged() -> Mapping[str, Message]:
    merged: dict[str, Message] = {}
    for area in AREAS:
        for code, message in area.MESSAGES.items():
            if code in merged:
                raise ValueError(f"message code {code!r} is defined twice")
            merged[code] = message
    return MappingProxyType(merged)


MESSAGES: Final[Mapping[str, Message]] = _merged()


def is_code(text: str) -> bool:
    return text in MESSAGES


def render(code: str, lang: str = "en", /, **params: Any) -> str:
    """The message ``code`` in ``lang`` with its parameters filled in."""
    return MESSAGES[code].text(lang).format(**params)


def both(code: str, /, **params: Any) -> str:
    """Chinese, then English: for the few places that cannot know the reader (a log, a
    journal entry shown by the CLI and the app alike)."""
    return f"{render(code, 'zh', **params)} / {render(code, 'en', **params)}"


def pair(code: str, /, **params: Any) -> Message:
    """The message rendered in both languages, as a parameter of another (``{reason:zh}``)."""
    return Message(render(code, "zh", **params), render(code, "en", **params))
