"""Source: https://github.com/google-deepmind/optax/blob/d44e5c17193fdc7834cde86510b4adac53848b99/docs/getting_started.ipynb
Library: plain-jax
Correct: the jitted step takes params, a dict with the string keys 'hidden' and 'output' (keys are pytree structure, the arrays are the leaves), opt_state, the optimizer's state (optax states are NamedTuples and tuples of them, e.g. ScaleByAdamState with its int32 count, or InjectHyperparamsState whose hyperparams is a dict of arrays), and a batch and labels that are a numpy uint8 array and a jax array: all valid traced arguments. The optimizer itself (a GradientTransformation of closures) is not an argument; step closes over it and is made once per fit call.
Transcribed: the code cells of the notebook's 'Example: Fitting a MLP', 'Weight Decay, Schedules and Clipping' and 'Accessing learning rate' sections (data, net, loss, fit, then the adam, chain(clip, adamw) and inject_hyperparams(adamw) runs), in order; NUM_TRAIN_STEPS was cut from 1000 to 300 and np.random got a seed.
"""
import optax
import jax.numpy as jnp
import jax
import numpy as np

np.random.seed(0)

BATCH_SIZE = 5
NUM_TRAIN_STEPS = 300
RAW_TRAINING_DATA = np.random.randint(255, size=(NUM_TRAIN_STEPS, BATCH_SIZE, 1))

TRAINING_DATA = np.unpackbits(RAW_TRAINING_DATA.astype(np.uint8), axis=-1)
LABELS = jax.nn.one_hot(RAW_TRAINING_DATA % 2, 2).astype(jnp.float32).reshape(NUM_TRAIN_STEPS, BATCH_SIZE, 2)

initial_params = {
    'hidden': jax.random.normal(shape=[8, 32], key=jax.random.PRNGKey(0)),
    'output': jax.random.normal(shape=[32, 2], key=jax.random.PRNGKey(1)),
}


def net(x: jnp.ndarray, params: optax.Params) -> jnp.ndarray:
  x = jnp.dot(x, params['hidden'])
  x = jax.nn.relu(x)
  x = jnp.dot(x, params['output'])
  return x


def loss(params: optax.Params, batch: jnp.ndarray, labels: jnp.ndarray) -> jnp.ndarray:
  y_hat = net(batch, params)

  # optax also provides a number of common loss functions.
  loss_value = optax.sigmoid_binary_cross_entropy(y_hat, labels).sum(axis=-1)

  return loss_value.mean()


def fit(params: optax.Params, optimizer: optax.GradientTransformation) -> optax.Params:
  opt_state = optimizer.init(params)

  @jax.jit
  def step(params, opt_state, batch, labels):
    loss_value, grads = jax.value_and_grad(loss)(params, batch, labels)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss_value

  for i, (batch, labels) in enumerate(zip(TRAINING_DATA, LABELS)):
    params, opt_state, loss_value = step(params, opt_state, batch, labels)
    if i % 100 == 0:
      print(f'step {i}, loss: {loss_value}')

  return params, opt_state

# Finally, we can fit our parametrized function using the Adam optimizer
# provided by optax.
optimizer = optax.adam(learning_rate=1e-2)
_ = fit(initial_params, optimizer)

schedule = optax.warmup_cosine_decay_schedule(
  init_value=0.0,
  peak_value=1.0,
  warmup_steps=50,
  decay_steps=1_000,
  end_value=0.0,
)

optimizer = optax.chain(
  optax.clip(1.0),
  optax.adamw(learning_rate=schedule),
)

_ = fit(initial_params, optimizer)

optimizer = optax.inject_hyperparams(optax.adamw)(learning_rate=schedule)

params = initial_params
state = optimizer.init(params)
print('initial learning rate:', state.hyperparams['learning_rate'])

_, state = fit(initial_params, optimizer)

print('final learning rate:', state.hyperparams['learning_rate'])
