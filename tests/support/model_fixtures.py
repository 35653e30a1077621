"""Shared material for the model backend tests: two tools, a schema checker, a llama.cpp server.

The tools differ on purpose: one has a patterned string (the date-symbol shape the runtime
uses) and an integer, the other an enum and a bounded free string, so a grammar that mixed up
which arguments belong to which tool would be caught. ``jsonschema`` is not a dependency, so
``schema_errors`` checks the subset of JSON Schema our tool schemas use.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support.servers import free_port, stop, wait_until_answering

SHIFT_EVENT: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "shift_event",
        "description": "Move an existing calendar event to another day given as a date symbol.",
        "parameters": {
            "type": "object",
            "properties": {
                "event_id": {"type": "integer", "description": "id of the event"},
                "when": {"type": "string", "pattern": "^(D[+-][0-9]{1,3}|W[1-7])$"},
            },
            "required": ["event_id", "when"],
            "additionalProperties": False,
        },
    },
}
SET_REMINDER: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "set_reminder",
        "description": "Set a reminder some minutes before an event.",
        "parameters": {
            "type": "object",
            "properties": {
                "minutes": {"type": "string", "enum": ["5", "15", "30", "60"]},
                "note": {"type": "string", "maxLength": 20},
            },
            "required": ["minutes"],
            "additionalProperties": False,
        },
    },
}
TOOLS = [SHIFT_EVENT, SET_REMINDER]
# One thread: on a 2-core box llama.cpp's second worker spin-waits while the main thread runs
# the grammar, and under any other load two threads measured 2-5x slower than one.
THREADS = 1
SCHEMAS = {tool["function"]["name"]: tool["function"]["parameters"] for tool in TOOLS}
SYSTEM = "You are Richeng, a calendar assistant. Use the tools to change the calendar."
PROMPTS = [
    "Move event 12 to next Tuesday.",
    "Remind me 15 minutes before the dentist.",
    "把第3个会议挪到后天",
    "Push my 9am standup back by a week.",
]


def schema_errors(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Errors for the JSON Schema subset tools use: type, enum, pattern, maxLength, objects."""
    errors: list[str] = []
    kind = schema.get("type")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in enum")
    if kind == "object":
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: missing {name}")
        for name, item in value.items():
            if name in properties:
                errors.extend(schema_errors(item, properties[name], f"{path}.{name}"))
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: unexpected {name}")
    elif kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            errors.append(f"{path}: not an integer")
    elif kind == "string":
        if not isinstance(value, str):
            return [f"{path}: not a string"]
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            errors.append(f"{path}: {value!r} does not match {schema['pattern']}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: longer than {schema['maxLength']}")
    return errors


def _models_answer(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
            return response.status == 200 and "data" in json.loads(response.read())
    except (OSError, ValueError):
        return False


@contextmanager
def llama_server(model: Path, *, extra: list[str] | None = None, timeout_s: float = 120.0) -> Iterator[str]:
    """Run ``python -m llama_cpp.server`` on a free port; yields its OpenAI base URL."""
    port = free_port()
    command = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", "2048", "--n_threads", str(THREADS), "--verbose", "False", *(extra or []),
    ]  # fmt: skip
    # stderr goes to a file, not a pipe: uvicorn logs every request, and a full pipe blocks it.
    log_file = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed in the finally below, after the server)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log_file, text=True)
    base_url = f"http://127.0.0.1:{port}/v1"

    def log() -> str:
        log_file.seek(0)
        return log_file.read()

    try:
        wait_until_answering(
            lambda: _models_answer(base_url),
            process,
            name="llama_cpp.server /v1/models",
            timeout_s=timeout_s,
            poll_s=0.25,
            log=log,
        )
        yield base_url
    finally:
        stop(process)
        log_file.close()
