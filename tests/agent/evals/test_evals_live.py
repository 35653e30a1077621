"""The live runner end to end with real models: the bundled GGUF in-process (the CI smoke) and
an OpenAI-compatible llama.cpp server on loopback.

These prove the *harness* — the runner reaches a real model through the same runtime, the
report is written, the last line has its format, no unverified claim reaches a reply — and
never judge the 270M model's choices: it has no judgment, so its pass rate means nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.cli.main import main
from agent.models.bundled import MODEL_NAME, bundled_gguf_path
from agent.models.llama_backend import clear_cache
from tests.support.model_fixtures import THREADS, llama_server

# Small budgets: the 270M model on two cores spends ~1-2 minutes on the first 5k-token prompt
# and ~30 s per later case (the prompt prefix is reused).
MAX_TOKENS = "16"


def _assert_harness_ran(report_dir: Path, output: str, *, cases: int) -> dict[str, Any]:
    lines = output.strip().splitlines()
    assert re.fullmatch(r"\d+ passed, \d+ failed", lines[-1]), lines[-3:]
    report = json.loads((report_dir / "live-smoke.json").read_text(encoding="utf-8"))
    markdown = (report_dir / "live-smoke.md").read_text(encoding="utf-8")
    assert "## Latency per timeline segment" in markdown and "## Model calls per case" in markdown
    assert report["totals"]["cases"] == cases and report["smoke"] is True
    assert {"context_build", "model_request_sent", "finish"} <= set(report["latency_ms"])
    assert report["totals"]["failed"] == 0, report["failed"]  # the invariants held on every turn
    assert all(case["model_calls"] >= 1 for case in report["cases"])
    return report


@pytest.fixture
def own_bundled_instance() -> Iterator[None]:
    """The smoke loads the GGUF with an 8k context (the agent's prompt is ~5k tokens); drop
    it afterwards so model tests that rely on the 2k instance's limits get theirs back."""
    yield
    clear_cache()


@pytest.mark.model
@pytest.mark.slow
def test_bundled_smoke_runs_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str], own_bundled_instance: None) -> None:
    code = main(["eval", "live", "--model", "bundled", "--smoke", "--limit", "2", "--max-tokens", MAX_TOKENS,
                 "--threads", str(THREADS), "--report", str(tmp_path)])  # fmt: skip
    output = capsys.readouterr().out
    print(output)
    report = _assert_harness_ran(tmp_path, output, cases=2)
    assert code == 0
    assert report["model"].startswith("bundled:")


@pytest.mark.model
@pytest.mark.slow
def test_live_runner_against_a_llama_cpp_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with llama_server(bundled_gguf_path(), extra=["--n_ctx", "8192"], timeout_s=180) as base_url:
        assert base_url.startswith("http://127.0.0.1:")
        spec = f"openai:{MODEL_NAME}@{base_url}"
        code = main(["eval", "live", "--model", spec, "--smoke", "--limit", "1", "--max-tokens", MAX_TOKENS,
                     "--timeout", "600", "--report", str(tmp_path), "--json"])  # fmt: skip
    output = capsys.readouterr().out
    report = _assert_harness_ran(tmp_path, output, cases=1)
    assert code == 0
    assert json.loads(output.splitlines()[0])["model"] == f"openai:{MODEL_NAME}@{base_url}"
    assert report["model"].startswith("openai:")
