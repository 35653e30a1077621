"""Downloading a recommended GGUF with ``huggingface_hub``, with progress and cancel.

``hf_hub_download`` reports progress through a ``tqdm`` class it is given; ours reports
byte counts to the worker running it and raises ``DownloadCancelled`` from ``update()`` when the
user cancels, which is the only point at which the library hands control back mid-download.
The partial file stays in the cache folder, so a second attempt resumes it.

Nothing here runs at test time: the tests replace ``huggingface_hub.hf_hub_download``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.worker import Channel


@dataclass(frozen=True)
class RecommendedModel:
    key: str
    label: str  # shown in the picker (translated there)
    repo_id: str
    filename: str
    size: str


RECOMMENDED = (
    RecommendedModel(
        "qwen2.5-3b", "Qwen2.5 3B Instruct (Q4_K_M)", "Qwen/Qwen2.5-3B-Instruct-GGUF", "qwen2.5-3b-instruct-q4_k_m.gguf", "2.1 GB"
    ),
    RecommendedModel(
        "qwen2.5-1.5b",
        "Qwen2.5 1.5B Instruct (Q4_K_M)",
        "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
        "qwen2.5-1.5b-instruct-q4_k_m.gguf",
        "1.1 GB",
    ),
)


def models_dir() -> Path:
    """Downloaded models live next to the user's database, not in a hidden HF cache."""
    import platformdirs

    return Path(platformdirs.user_data_dir("richeng", appauthor=False)) / "models"


class DownloadCancelled(Exception):
    """Raised inside the download when the user pressed Cancel."""


def download_model(model: RecommendedModel, channel: Channel[tuple[int, int]], target: Path | None = None) -> str | None:
    """Fetch ``model`` into ``target``; the local path, or None when the user cancelled.

    Runs on a worker (``app.background_op.BackgroundOp``): byte counts go out as ``(done, total)``
    through ``channel.report`` (total 0 when unknown; both may exceed 2**31), and Cancel is
    the worker's quit, read in the progress hook, the one place the library hands back
    control mid-download. Any other failure propagates to the op's ``failure``.
    """
    import huggingface_hub

    if channel.quit_requested:
        return None
    folder = target or models_dir()
    folder.mkdir(parents=True, exist_ok=True)
    download = huggingface_hub.hf_hub_download
    kwargs: dict[str, Any] = {"local_dir": str(folder)}
    try:
        accepts_tqdm = "tqdm_class" in inspect.signature(download).parameters
    except (TypeError, ValueError):
        accepts_tqdm = False
    if accepts_tqdm:
        kwargs["tqdm_class"] = _progress_class(channel)
    try:
        return str(download(model.repo_id, model.filename, **kwargs))
    except DownloadCancelled:
        return None


def _progress_class(channel: Channel[tuple[int, int]]) -> type:
    from tqdm.auto import tqdm

    class Progress(tqdm):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True  # no console bar; we only want the numbers
            self._done = int(kwargs.get("initial") or 0)
            self._total = int(kwargs.get("total") or 0)
            super().__init__(*args, **kwargs)

        def update(self, n: float | None = 1) -> bool | None:
            if channel.quit_requested:
                raise DownloadCancelled()
            self._done += int(n or 0)
            channel.report((self._done, self._total))
            return super().update(n)

    return Progress
