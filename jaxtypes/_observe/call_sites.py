"""Where in the user's code something happened: the first frame outside jax, jaxtypes, the
libraries installed beside them and the standard library.

A finding names two places: the line that jitted the function and the line whose call went
wrong. Both are frames of the user's program, found by walking out of the frames of the
libraries that wrapped the call (equinox's ``filter_jit``, flax's ``nnx.jit``, jax itself).
"""

from __future__ import annotations

import functools
import linecache
import os
import sys
import sysconfig
from types import CodeType, FrameType
from typing import NamedTuple


class Place(NamedTuple):
    """A line of the user's code."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


UNKNOWN = Place("<unknown>", 0)


@functools.cache
def _library_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    roots.add(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))  # jaxtypes itself
    return tuple(os.path.join(os.path.realpath(root), "") for root in roots)


@functools.lru_cache(maxsize=4096)
def is_user_file(filename: str) -> bool:
    """A file of the user's program: a real file outside the installed libraries and jaxtypes."""
    if filename.startswith("<") and not filename.startswith("<ipython-input"):
        return False
    return not os.path.realpath(filename).startswith(_library_roots())


def is_user_code(code: CodeType) -> bool:
    return is_user_file(code.co_filename)


def user_place(skip: int = 1) -> Place:
    """The innermost frame of the user's code on the stack, above ``skip`` frames of the caller."""
    frame: FrameType | None = sys._getframe(skip + 1)
    while frame is not None:
        if is_user_file(frame.f_code.co_filename):
            return Place(_relative(frame.f_code.co_filename), frame.f_lineno)
        frame = frame.f_back
    return UNKNOWN


def jit_place(fun: object, skip: int = 1) -> Place:
    """Where ``fun`` is being jitted: the user's line, above ``skip`` frames of the caller.

    Python 3.10 runs a decorator at the line of its function's ``def``; there the definition's
    first line, its first decorator, is named, as later versions name the decorator's own line.
    """
    place = user_place(skip + 1)
    code = getattr(fun, "__code__", None)
    if (
        isinstance(code, CodeType)
        and place.line > code.co_firstlineno
        and _relative(code.co_filename) == place.path
        and linecache.getline(code.co_filename, place.line).lstrip().startswith(("def ", "async def "))
    ):
        return Place(place.path, code.co_firstlineno)
    return place


def definition_place(code: CodeType) -> Place:
    """Where a function is defined."""
    return Place(_relative(code.co_filename), code.co_firstlineno)


def _relative(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if relative.startswith("..") else relative
