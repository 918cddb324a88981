"""Shared fixtures of the commsim Python tests (run by the ctest `python`)."""

import json

import pytest

import commsim


@pytest.fixture
def quick():
    """The quickstart scenario as a dict, cut to 20 iterations and 5 workers (seconds to run)."""
    with open(commsim.quickstart) as f:
        doc = json.load(f)
    doc["iterations"] = 20
    doc["workers"] = 5
    return doc
