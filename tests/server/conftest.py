"""Shared fixtures for the `hearth serve` tests: a real server process on a
free loopback port (--port 0; the port is read from its "listening on"
line), started per module with the options the module needs.

Environment: HEARTH_BIN (the `hearth` executable), HEARTH_MODELS_DIR (the
real models; tests skip when a model is missing)."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
from hearth_server import HEARTH, Server  # noqa: E402,F401  (the suites import both from here)

MODELS = Path(os.environ.get("HEARTH_MODELS_DIR",
                             Path.home() / ".local/share/hearth/models"))
SMOL = MODELS / "SmolLM2-135M-Instruct.Q4_1.gguf"
GEMMA = MODELS / "gemma-3-270m-q4_k_m.gguf"
THREADS = os.environ.get("HEARTH_TEST_THREADS", "2")


def need(path):
    if not path.is_file():
        pytest.skip(f"model missing: {path} (scripts/setup)")
    return path


@pytest.fixture(scope="module")
def smol():
    """SmolLM2 with 4 slots of 512 tokens."""
    need(SMOL)
    s = Server(["-m", str(SMOL), "-c", "2048", "-np", "4", "-t", THREADS, "--alias", "smol"])
    yield s
    s.stop()
