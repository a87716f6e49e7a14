"""Source: https://github.com/google/flax/issues/5548
Library: flax
Reported: A training step wrapped in `@nnx.jit` takes an `nnx.Module` and an `nnx.Optimizer`; the
discriminator and its `nnx.Optimizer(dis, optax.adam(...), wrt=nnx.Param)` are rebuilt at the start of
every epoch with the same architecture, and `train_one_epoch` is retraced and recompiled every epoch
(jax_log_compiles prints "Finished tracing train_one_epoch ... Compiling" each time), until GPU memory
runs out. Not recreating them made the recompilation go away. The optax transformation (a NamedTuple of
fresh closures) is held by the optimizer as static graph data, so each new one is a new cache key.
Transcribed: The reported minimal pattern is kept (loop, constructor calls, argument list). Added a tiny
`Discriminator`/`Generator`, a body for `train_one_epoch` that updates the discriminator, an
`nnx.metrics.Average` for `metrics`, a learning rate for the elided `optax.adam(...)`, and a trace counter.
Hard: The checker must see that `dis_opt` is an `nnx.Optimizer` built in the loop around a fresh
`optax.adam(...)` GradientTransformation (closures), and that `nnx.jit` puts the optimizer's
non-array attributes (the `tx`) into the static graphdef, so a fresh callable sits in a static position.
"""
import jax.numpy as jnp
import optax
from flax import nnx

traces = 0
n_epochs = 3


class Discriminator(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(4, 1, rngs=rngs)

    def __call__(self, x):
        return self.linear(x)


class Generator(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 4, rngs=rngs)

    def __call__(self, z):
        return self.linear(z)


@nnx.jit
def train_one_epoch(gen, dis, gen_opt, dis_opt, metrics, rngs):
    global traces
    traces += 1
    z = jnp.ones((8, 2))

    def dis_loss(dis):
        return jnp.mean(dis(gen(z)) ** 2)

    loss, grads = nnx.value_and_grad(dis_loss)(dis)
    dis_opt.update(dis, grads)
    metrics.update(values=loss)


rngs = nnx.Rngs(0)
gen = Generator(rngs=rngs)
gen_opt = nnx.Optimizer(gen, optax.adam(1e-3), wrt=nnx.Param)
metrics = nnx.metrics.Average()

for epoch in range(n_epochs):
    dis = Discriminator(rngs=rngs)
    dis_opt = nnx.Optimizer(
        dis,
        optax.adam(1e-3),
        wrt=nnx.Param,
    )

    train_one_epoch(
        gen,
        dis,
        gen_opt,
        dis_opt,  # expect: static-fresh-callable
        metrics,
        rngs,
    )

print("traces:", traces)  # 3: retraced/recompiled every epoch
