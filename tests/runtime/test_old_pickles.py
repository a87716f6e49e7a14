"""Pickles written before the runtime moved into subpackages name ``jaxtypes._classes.constructors.rebuild``;
they still load, through the constructor that validates them."""

from __future__ import annotations

import importlib
import pickle

import jaxtypes as jt


@jt.static_dataclass
class Settings:
    steps: int = 10
    method: str = "euler"


@jt.pytree_dataclass
class Point:
    x: float
    label: jt.Static[str] = "p"


SETTINGS_PICKLE = (
    b"\x80\x04\x95t\x00\x00\x00\x00\x00\x00\x00\x8c\x15jaxtypes.constructors\x94\x8c\x07rebuild\x94\x93\x94"
    b"\x8c\x1etests.runtime.test_old_pickles\x94\x8c\x08Settings\x94\x93\x94}\x94(\x8c\x05steps\x94K\x03"
    b"\x8c\x06method\x94\x8c\x03rk4\x94u\x86\x94R\x94."
)
POINT_PICKLE = (
    b"\x80\x04\x95q\x00\x00\x00\x00\x00\x00\x00\x8c\x15jaxtypes.constructors\x94\x8c\x07rebuild\x94\x93\x94"
    b"\x8c\x1etests.runtime.test_old_pickles\x94\x8c\x05Point\x94\x93\x94}\x94(\x8c\x01x\x94G?\xf8\x00\x00"
    b"\x00\x00\x00\x00\x8c\x05label\x94\x8c\x01q\x94u\x86\x94R\x94."
)
"""Written by jaxtypes 0.1.0 (``pickle.dumps(value, protocol=4)``), whose constructors lived in
``jaxtypes/_classes/constructors.py``."""


PICKLED = importlib.import_module("tests.runtime.test_old_pickles")
"""This module under the name the pickles give it (pytest may import it under another)."""


def test_an_old_static_pickle_loads_as_the_interned_value() -> None:
    loaded = pickle.loads(SETTINGS_PICKLE)
    assert loaded is PICKLED.Settings(steps=3, method="rk4")


def test_an_old_pytree_pickle_loads_through_the_constructor() -> None:
    loaded = pickle.loads(POINT_PICKLE)
    assert type(loaded) is PICKLED.Point and (loaded.x, loaded.label) == (1.5, "q")


def test_new_pickles_name_where_the_constructors_live_now() -> None:
    written = pickle.dumps(Settings(steps=4), protocol=4)
    assert b"jaxtypes.constructors" not in written
    assert pickle.loads(written) is Settings(steps=4)
