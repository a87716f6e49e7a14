"""Source: https://github.com/climate-analytics-lab/jax-gcm/issues/735
Library: plain-jax
Reported: "Because `self` is static, every physics term and its parameters are baked into the compiled executable as constants. Changing a parameter in place afterwards does not change the model's identity for cache purposes, so JAX reuses the existing executable and the new value never reaches the computation." The model's run method is jitted with `self` among its static_argnums (the decorator carries the note "changing fields assumed static won't propagate"); editing `trvdi` (the vertical-diffusion timescale) of the built model's physics term with `term.params.set_value(...)` and running again gives the temperature of the unedited model, while a model built with the edited value differs (the control).
Transcribed: the report's reproduction (build, run, edit `trvdi` through `term.params.set_value(term.params.get_value().replace(trvdi=jnp.array(2.0)))`, run again). The Model's run/resume/run_from_state chain follows jcm/model.py at commit 74d0156c (its decorator there is `@partial(jax.jit, static_argnums=(0, 3, 4, 5))` on `run_from_state`; the report's version names it `_run_from_state` with static_argnums=(0, 4, 5, 6, 8, 9)); the dycore, coordinates, forcing, diagnostics and post-processing are cut, and the physics is reduced to what the reproduction uses: a container with a `terms` list, one named term whose `params` holder has `get_value`/`set_value`, and a flax.struct parameter record with `trvdi`, relaxing a temperature field with that timescale. The state is a plain temperature array and Predictions (a tree_math struct there) a flax.struct holding it; the control model built with `trvdi=2.0` is added.
Hard: self is static through static_argnums on a method of a plain class (Model keeps object.__hash__); the value read at trace time lives two objects down (`self.physics.terms[i].params`), and the change is made through a method of that holder (`set_value`), not by assigning an attribute of the model.
"""
from functools import partial

import jax
import jax.numpy as jnp
from flax import struct

traces = 0


@struct.dataclass
class VerticalDiffusionParameters:
    trvdi: jax.Array


class ParamsHolder:
    def __init__(self, value):
        self._value = value

    def get_value(self):
        return self._value

    def set_value(self, value):
        self._value = value


class PhysicsTerm:
    def __init__(self, name, params):
        self.name = name
        self.params = ParamsHolder(params)

    def __call__(self, temperature, dt):
        trvdi = self.params.get_value().trvdi
        return -dt * (temperature - 250.0) / (trvdi * 86400.0)


class Physics:
    def __init__(self, terms):
        self.terms = terms


def speedy_physics(trvdi=24.0):
    return Physics([PhysicsTerm("speedy_vertical_diffusion", VerticalDiffusionParameters(trvdi=jnp.array(trvdi)))])


@struct.dataclass
class PhysicsState:
    temperature: jax.Array


@struct.dataclass
class Predictions:
    dynamics: PhysicsState


class Model:
    def __init__(self, coords=None, physics=None, time_step=30.0):
        self.coords = coords
        self.physics = physics or speedy_physics()
        self.dt_si = time_step * 60.0
        self._final_modal_state = None

    # Note: if model fields assumed to be static are changed, the changes will not be picked up here
    @partial(jax.jit, static_argnums=(0, 3, 4, 5))  # expect: static-identity-hash
    def run_from_state(self, initial_state, forcing, save_interval=10.0, total_time=120.0, output_averages=False):
        global traces
        traces += 1
        steps = int(total_time * 86400.0 / self.dt_si)

        def step(temperature, _):
            for term in self.physics.terms:
                temperature = temperature + term(temperature, self.dt_si)
            return temperature, None

        final_state, _ = jax.lax.scan(step, initial_state, None, length=steps)
        return final_state, Predictions(PhysicsState(final_state))

    def resume(self, forcing=None, save_interval=10.0, total_time=120.0, output_averages=False):
        final_modal_state, predictions = self.run_from_state(
            self._final_modal_state, forcing, save_interval, total_time, output_averages
        )
        self._final_modal_state = final_modal_state
        return predictions

    def run(self, initial_state=None, forcing=None, save_interval=10.0, total_time=120.0, output_averages=False):
        self._final_modal_state = jnp.full((8, 16), 300.0) if initial_state is None else initial_state
        return self.resume(forcing=forcing, save_interval=save_interval, total_time=total_time, output_averages=output_averages)


coords = None
m = Model(coords=coords, physics=speedy_physics(), time_step=30.0)
T1 = m.run(save_interval=0.5, total_time=0.5).dynamics.temperature

term = next(t for t in m.physics.terms if t.name == "speedy_vertical_diffusion")
term.params.set_value(term.params.get_value().replace(trvdi=jnp.array(2.0)))

T2 = m.run(save_interval=0.5, total_time=0.5).dynamics.temperature

control = Model(coords=coords, physics=speedy_physics(trvdi=2.0), time_step=30.0)
T3 = control.run(save_interval=0.5, total_time=0.5).dynamics.temperature

print("edited model reproduces the unedited run:", bool(jnp.array_equal(T1, T2)))
print("a model built with trvdi=2 differs by:", float(jnp.max(jnp.abs(T3 - T1))))
print("traces:", traces)
