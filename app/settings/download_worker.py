"""Downloading a recommended GGUF with ``huggingface_hub``, with progress and cancel.

``hf_hub_download`` reports progress through a ``tqdm`` class it is given; ours forwards
byte counts as a Qt signal and raises ``DownloadCancelled`` from ``update()`` when the user
cancels, which is the only point at which the library hands control back mid-download.
The partial file stays in the cache folder, so a second attempt resumes it.

Nothing here runs at test time: the tests replace ``huggingface_hub.hf_hub_download``.
"""

from __future__ import annotations

import inspect
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Signal

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecommendedModel:
    key: str
    label: str  # shown in the picker (translated there)
    repo_id: str
    filename: str
    size: str


RECOMMENDED = (
    RecommendedModel("qwen2.5-3b", "Qwen2.5 3B Instruct (Q4_K_M)", "Qwen/Qwen2.5-3B-Instruct-GGUF",
                     "qwen2.5-3b-instruct-q4_k_m.gguf", "2.1 GB"),
    RecommendedModel("qwen2.5-1.5b", "Qwen2.5 1.5B Instruct (Q4_K_M)", "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
                     "qwen2.5-1.5b-instruct-q4_k_m.gguf", "1.1 GB"),
)


def models_dir() -> Path:
    """Downloaded models live next to the user's database, not in a hidden HF cache."""
    import platformdirs

    return Path(platformdirs.user_data_dir("richeng", appauthor=False)) / "models"


class DownloadCancelled(Exception):
    """Raised inside the download when the user pressed Cancel."""


class DownloadSignals(QObject):
    progress = Signal(object, object)  # bytes done, bytes total (0 when unknown); may exceed 2**31
    succeeded = Signal(str)  # the local path of the GGUF
    failed = Signal(str)  # one line
    cancelled = Signal()
    finished = Signal()


class DownloadWorker(QRunnable):
    def __init__(self, model: RecommendedModel, target: Path | None = None) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.model = model
        self.target = target or models_dir()
        self.signals = DownloadSignals()
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:
        try:
            path = self._download()
        except DownloadCancelled:
            self.signals.cancelled.emit()
        except Exception as exc:  # network, disk full, 404 ...: one honest line
            log.warning("model download failed: %s", exc)
            self.signals.failed.emit(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        else:
            self.signals.succeeded.emit(path)
        finally:
            self.signals.finished.emit()

    def _download(self) -> str:
        import huggingface_hub

        if self._cancel.is_set():
            raise DownloadCancelled()
        self.target.mkdir(parents=True, exist_ok=True)
        download = huggingface_hub.hf_hub_download
        kwargs: dict[str, Any] = {"local_dir": str(self.target)}
        try:
            accepts_tqdm = "tqdm_class" in inspect.signature(download).parameters
        except (TypeError, ValueError):
            accepts_tqdm = False
        if accepts_tqdm:
            kwargs["tqdm_class"] = self._progress_class()
        return str(download(self.model.repo_id, self.model.filename, **kwargs))

    def _progress_class(self) -> type:
        from tqdm.auto import tqdm

        signals, cancel = self.signals, self._cancel

        class Progress(tqdm):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                kwargs["disable"] = True  # no console bar; we only want the numbers
                self._done = int(kwargs.get("initial") or 0)
                self._total = int(kwargs.get("total") or 0)
                super().__init__(*args, **kwargs)

            def update(self, n: float | None = 1) -> bool | None:
                if cancel.is_set():
                    raise DownloadCancelled()
                self._done += int(n or 0)
                signals.progress.emit(self._done, self._total)
                return super().update(n)

        return Progress
