"""Source: https://github.com/patrick-kidger/equinox/issues/862
Library: equinox
Correct: a Module subclass narrows a field's type, as a frozen dataclass may; pyright reports the override because it cannot tell Module fields are frozen.
"""
from dataclasses import dataclass

import equinox as eqx


class A(eqx.Module):
    f: int | str


class B(A):
    f: str   # pyright complains here


@dataclass(frozen=True)
class ADC:
    f: int | str


class BDC(ADC):
    f: str
