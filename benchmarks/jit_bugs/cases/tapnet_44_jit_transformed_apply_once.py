"""Source: https://github.com/google-deepmind/tapnet/issues/44
Library: plain-jax
Correct: the Haiku model's apply function is jitted once, outside the loop over videos (model_apply = jax.jit(model.apply)), and the loop only calls it; model.apply is a plain function held by the TransformedWithState tuple, not a bound method of a mutable object, so jit compiles it once per input shape. The reporter asked where recompilation happens: only when the frames or query points change shape.
Transcribed: the question's code, with its markdown bold around `inference` removed and its "highlight" notes kept as comments; inference is given the two parameters it is called with, and build_model, params, state, videos, frames and query_points are minimal stand-ins (TAPNet's model and the videos are not available).
Run: no (needs dm-haiku and the TAPNet model, which are not installed)
"""
import haiku as hk
import jax
import jax.numpy as jnp


def build_model(frames, query_points):
    return hk.Linear(2)(frames)


params, state = {}, {}
videos = [jnp.zeros((4, 8)), jnp.zeros((4, 8))]


def inference(frames, query_points):
    ...
    rng = jax.random.PRNGKey(42)
    outputs, _ = model_apply(params, state, rng, frames, query_points)   ## highlight 1
    ...
    return outputs, outputs


model = hk.transform_with_state(build_model)
model_apply = jax.jit(model.apply)   ## highlight 2

for video in videos:
    frames, query_points = video, jnp.zeros((4, 3))
    tracks, visibles = inference(frames, query_points)  ## highlight 3
