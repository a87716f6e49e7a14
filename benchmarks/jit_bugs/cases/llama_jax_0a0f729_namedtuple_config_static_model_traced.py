"""Source: https://github.com/stickshift/llama-jax/blob/0a0f729c84c64df6e03e5242b79f02b680acc25e/src/llama_jax/model.py
Library: plain-jax
Correct: `forward` is jitted with `static_argnames=("config",)` where config is `ModelConfig(NamedTuple)` of ints, floats, a Path, a dtype and a str Enum (all hashable by value), and the model state is `Model(NamedTuple)` of arrays, traced as a pytree; two configs loaded separately are equal and hash equal, so they share one compilation. A checker that treats a class instance in a static position as identity-hashed, or that reports a NamedTuple whose fields are declared `Sequence[...]` as possibly unhashable when only the traced argument has such a field, would be wrong here.
Transcribed: ModelConfig, TrainingLevel and load_config from src/llama_jax/checkpoint.py and Model/create/forward from src/llama_jax/model.py at the same commit; load_config builds the config from literals instead of reading params.json; the embeddings, layer and head modules are reduced to one weight array each and the kv cache is left out; a trace counter was added.
"""
from collections.abc import Sequence
from enum import Enum
from functools import partial
from pathlib import Path
from typing import NamedTuple

import jax
from jax import Array
from jax import numpy as jnp
from jax.dtypes import bfloat16
from jax.typing import ArrayLike, DTypeLike

TRACES = [0]


class TrainingLevel(str, Enum):
    """Llama3 training level."""

    PRETRAINED = "pretrained"
    INSTRUCT = "instruct"


class ModelConfig(NamedTuple):
    """Llama3 model config."""

    checkpoint_path: Path

    vocab_size: int

    d_model: int

    n_layers: int

    rms_norm_eps: float

    dtype: DTypeLike

    training: TrainingLevel


def load_config(checkpoint_name: str, **kwargs) -> ModelConfig:
    checkpoint_path = Path("~/.llama/checkpoints").expanduser() / checkpoint_name
    data = {
        "checkpoint_path": checkpoint_path,
        "vocab_size": 32,
        "d_model": 8,
        "n_layers": 2,
        "rms_norm_eps": 1e-5,
        "dtype": bfloat16,
        "training": TrainingLevel.INSTRUCT if checkpoint_name.endswith("-Instruct") else TrainingLevel.PRETRAINED,
    }
    data |= kwargs
    return ModelConfig(**data)


class Layer(NamedTuple):
    weight: Array


class Model(NamedTuple):
    """Model state."""

    embeddings: Array

    layers: Sequence[Layer]

    head: Array


def create(config: ModelConfig, key) -> Model:
    keys = jax.random.split(key, config.n_layers + 2)
    embeddings = jax.random.normal(keys[0], (config.vocab_size, config.d_model))
    layers = tuple(Layer(jax.random.normal(keys[i + 1], (config.d_model, config.d_model))) for i in range(config.n_layers))
    head = jax.random.normal(keys[-1], (config.d_model, config.vocab_size))
    return Model(embeddings=embeddings, layers=layers, head=head)


@partial(jax.jit, static_argnames=("config",))
def forward(config: ModelConfig, state: Model, token_ids: ArrayLike) -> Array:
    """Transform token ids into next token logits."""
    TRACES[0] += 1
    x = state.embeddings[token_ids].astype(config.dtype)
    for layer in state.layers:
        x = jax.nn.relu(x @ layer.weight.astype(config.dtype)) + x
    x = x / jnp.sqrt(jnp.mean(x.astype(jnp.float32) ** 2, axis=-1, keepdims=True) + config.rms_norm_eps)
    return x @ state.head


config = load_config("Llama3.2-1B")
state = create(config, jax.random.PRNGKey(0))
token_ids = jnp.array([[1, 2, 3]])
forward(config, state, token_ids)
forward(load_config("Llama3.2-1B"), create(config, jax.random.PRNGKey(1)), token_ids)
assert TRACES[0] == 1, TRACES
print("OK: equal NamedTuple configs share one compilation")
