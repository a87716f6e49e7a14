"""Source: https://github.com/google/flax/issues/4312
Library: flax
Correct: a flax.struct dataclass with a plain int field and its generated replace; Pylance reports that replace does not exist.
"""
from flax.struct import dataclass

@dataclass
class c123:
    variable1: int = 0


c123instance = c123(variable1=0).replace(variable1=1) 

print(c123instance)
