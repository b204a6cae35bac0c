"""Run the doctests of every hardware module (pytest collects doctests only under engines/)."""

import doctest
import importlib
import pkgutil

import pytest

import hardware

MODULES = sorted(m.name for m in pkgutil.iter_modules(hardware.__path__, "hardware."))


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
