"""The llama.cpp state after the static prompt prefix, saved to disk for the next process.

Why: every chat request opens with the same system prompt and tool definitions (thousands of
tokens). llama-cpp-python already skips them from the second turn of a process on, but each
new process (an app start, a ``richeng chat``) used to read them again, which on a laptop CPU
is minutes. After the prefix is evaluated once, the context state (its KV cache) is written
here and loaded by the next process in well under a second.

What a file holds, and why it is checked so hard before use: a llama.cpp state blob is
loaded with ``memcpy``-like trust by the C library, so a file for another model, another
context size, another prompt, or a file cut short by a crash must never reach it. A file is
used only when

* its magic and header parse, and its header's key equals the key computed now: the model
  file (path, size, mtime), the llama-cpp-python version, the context settings, and the
  SHA-256 of the exact prefix tokens;
* its length is exactly what the header says, and the SHA-256 of the payload matches;
* the token ids stored in it equal the prefix tokens.

Anything else is ignored (and replaced after the prefix is evaluated again). There is one file
per model and context setting: a new prefix (a new calendar name in a tool enum, a new
release's prompt) overwrites the old one instead of piling up files. Writes go to a
temporary file renamed into place, so a reader never sees half a file.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import os
import struct
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    from llama_cpp import Llama

log = logging.getLogger(__name__)

MAGIC = b"RICHENG-PREFIX-STATE\n"
FORMAT = 1
_LEN = struct.Struct("<Q")
MAX_HEADER = 64 * 1024


def cache_dir() -> Path:
    """``<user cache dir>/richeng/prefix-state``; platformdirs honours ``XDG_CACHE_HOME``."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("richeng", appauthor=False)) / "prefix-state"


def tokens_digest(tokens: list[int]) -> str:
    return hashlib.sha256(struct.pack(f"<{len(tokens)}i", *tokens)).hexdigest()


def cache_key(model_path: Path, settings: dict[str, Any], tokens: list[int]) -> dict[str, Any]:
    """Everything the saved state depends on; a change in any of it makes the file stale."""
    import llama_cpp

    stat = model_path.stat()
    return {
        "format": FORMAT,
        "model": str(model_path.resolve()),
        "model_size": stat.st_size,
        "model_mtime_ns": stat.st_mtime_ns,
        "llama_cpp": str(getattr(llama_cpp, "__version__", "?")),
        "settings": dict(sorted(settings.items())),
        "n_tokens": len(tokens),
        "tokens_sha256": tokens_digest(tokens),
    }


def cache_file(key: dict[str, Any], directory: Path | None = None) -> Path:
    """One file per model file and context settings (not per prefix: a new prefix replaces)."""
    identity = json.dumps([key["model"], key["settings"]], sort_keys=True).encode("utf-8")
    return (directory or cache_dir()) / f"{hashlib.sha256(identity).hexdigest()[:24]}.state"


def save(llama: Llama, key: dict[str, Any], path: Path) -> bool:
    """Write the state of ``llama`` (which must hold exactly the prefix tokens); False on failure."""
    import llama_cpp

    n_tokens = int(key["n_tokens"])
    if llama.n_tokens != n_tokens:
        return False
    try:
        size = int(llama_cpp.llama_state_get_size(llama.ctx))
        buffer = (ctypes.c_uint8 * size)()
        written = int(llama_cpp.llama_state_get_data(llama.ctx, buffer, size))
        if written <= 0 or written > size:
            return False
        ids = llama.input_ids[:n_tokens].astype("<i4").tobytes()
        state = bytes(memoryview(buffer)[:written])
        digest = hashlib.sha256(ids + state).hexdigest()
        header = json.dumps(
            {"key": key, "ids_bytes": len(ids), "state_bytes": len(state), "sha256": digest}, sort_keys=True
        ).encode("utf-8")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC)
                out.write(_LEN.pack(len(header)))
                out.write(header)
                out.write(ids)
                out.write(state)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:  # a full or read-only cache dir costs speed, never a turn
        log.info("prefix state not saved to %s: %s", path, exc)
        return False
    log.debug("prefix state saved: %s (%d tokens, %d bytes)", path, n_tokens, len(state))
    prune(path.parent)
    return True


def _read_header(handle: BinaryIO) -> tuple[dict[str, Any], int] | None:
    """(the JSON header, its length) read from the start of an open state file, or None
    when the magic, the length field or the header itself is not sound."""
    if handle.read(len(MAGIC)) != MAGIC:
        return None
    raw_len = handle.read(_LEN.size)
    if len(raw_len) != _LEN.size:
        return None
    (header_len,) = _LEN.unpack(raw_len)
    if header_len > MAX_HEADER:
        return None
    header = json.loads(handle.read(header_len).decode("utf-8"))
    return (header, header_len) if isinstance(header, dict) else None


def _header(path: Path) -> dict[str, Any] | None:
    try:
        with path.open("rb") as handle:
            found = _read_header(handle)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return found[0] if found is not None else None


def prune(directory: Path) -> list[Path]:
    """Delete state files no model can use again: unreadable ones, and those of a model file
    that is gone or changed (another size or mtime). Returns what was deleted."""
    removed: list[Path] = []
    for path in directory.glob("*.state"):
        header = _header(path)
        key = header.get("key") if header is not None else None
        stale = True
        if isinstance(key, dict):
            try:
                stat = Path(str(key.get("model"))).stat()
                stale = (stat.st_size, stat.st_mtime_ns) != (key.get("model_size"), key.get("model_mtime_ns"))
            except OSError:
                stale = True
        if stale:
            try:
                path.unlink()
                removed.append(path)
            except OSError:
                pass
    return removed


def read(path: Path, key: dict[str, Any], tokens: list[int]) -> tuple[bytes, bytes] | None:
    """The (token ids, state) payload when ``path`` is a sound file for exactly ``key``; else None."""
    try:
        with path.open("rb") as handle:
            found = _read_header(handle)
            if found is None or found[0].get("key") != key:
                return None
            header, header_len = found
            ids_bytes, state_bytes = int(header["ids_bytes"]), int(header["state_bytes"])
            if ids_bytes != 4 * len(tokens) or state_bytes <= 0:
                return None
            expected = len(MAGIC) + _LEN.size + header_len + ids_bytes + state_bytes
            if os.fstat(handle.fileno()).st_size != expected:
                return None
            ids = handle.read(ids_bytes)
            state = handle.read(state_bytes)
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    if hashlib.sha256(ids + state).hexdigest() != header.get("sha256"):
        return None
    if ids != struct.pack(f"<{len(tokens)}i", *tokens):
        return None
    return ids, state


def restore(llama: Llama, key: dict[str, Any], tokens: list[int], path: Path) -> bool:
    """Load a sound cached state into ``llama``; False (and ``llama`` reset) when there is none."""
    import llama_cpp

    payload = read(path, key, tokens)
    if payload is None:
        return False
    _ids, state = payload
    buffer = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
    llama.reset()
    if int(llama_cpp.llama_state_set_data(llama.ctx, buffer, len(state))) != len(state):
        llama.reset()
        llama._ctx.kv_cache_clear()
        return False
    llama.input_ids[: len(tokens)] = tokens
    llama.n_tokens = len(tokens)
    llama._requires_eval = True  # the logits are not from a live decode
    return True
