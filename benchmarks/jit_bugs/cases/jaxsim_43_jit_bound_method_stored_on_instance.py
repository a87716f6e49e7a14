"""Source: https://github.com/gbionics/jaxsim/issues/43
Library: plain-jax
Reported: jitting the simulator's step method, stored back on the simulator as sim.step = jax.jit(sim.step), raises jax.errors.UnexpectedTracerError (with JAX_CHECK_TRACER_LEAKS=1): the simulator was made mutable and step changes its state, so the jitted bound method leaks tracers into the object; unjitted, the same step is correct.
Transcribed: as reported.
Hard: sim is a JaxSim object built by a library (made mutable by .mutable(mutable=True)); the jitted bound method is stored as an attribute of the same mutable object.
Run: no (needs jaxsim and robot_descriptions, not installed)
"""
import pathlib

import robot_descriptions.double_pendulum_description

import jax
import jaxsim
from jaxsim.simulation.ode_integration import IntegratorType
from jaxsim.simulation.simulator import VelRepr

sim = jaxsim.JaxSim.build(
    step_size=0.001,
    steps_per_run=1,
    velocity_representation=VelRepr.Inertial,
    integrator_type=IntegratorType.EulerSemiImplicit,
).mutable(mutable=True, validate=False)

urdf_model = pathlib.Path(robot_descriptions.double_pendulum_description.URDF_PATH)

model = sim.insert_model_from_description(model_description=urdf_model)

# The problem occurs only if we jit-compile the method
sim.step = jax.jit(sim.step)  # expect: jit-bound-method

step_data = sim.step()

print(step_data)
