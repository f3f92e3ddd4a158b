"""Fixtures for the offline runner's tests: a tiny lesson that grades fast, and a sandboxed host."""

from __future__ import annotations

import pytest
from offline_support import MINI_LESSON, TEST_LIMITS

from runner.core.bundle import load_bundle
from runner.offline.sandbox.host import ChildProcessHost


@pytest.fixture(scope="session")
def mini_bundle():
    return load_bundle(MINI_LESSON)


@pytest.fixture(scope="module")
def host():
    """One host (one zygote) per module; every load() still forks a fresh child."""
    with ChildProcessHost(TEST_LIMITS) as shared:
        yield shared
