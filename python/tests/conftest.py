import os

import numpy as np
import porta
import pytest


@pytest.fixture(scope="session")
def dev():
    """The device under test: PORTA_BACKEND (set by ctest per backend), else the best device."""
    return porta.open()


@pytest.fixture
def rng():
    return np.random.default_rng(20)


def backend_name() -> str:
    return os.environ.get("PORTA_BACKEND", "")
