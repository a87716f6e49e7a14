"""Source: https://github.com/AshishKumar4/FlaxDiff/blob/5f99a9d3b151b59e403d6a1439fe1853495d9fe5/flaxdiff/samplers/common.py
Library: plain-jax
Correct: FlaxDiff's sampler after commit 5f99a9d ("fix: fixed recompilation on each generate sample call"). `DiffusionSampler.__init__` defines `sample_model` as a local function closing over `self` (and, for guidance, over `guidance_scale` and `null_labels_seq`), jits it once with `jax.jit(sample_model)` and keeps the result on the instance; `generate_images` still defines the local wrapper `sample_model_fn`, now without `@jax.jit`, so each call only adds a Python closure around the one jitted function. A sampler is built once and `generate_images` is called for every batch: three calls with the same shapes compile nothing after the first (backend compilations 45, 45, 45). A checker that reports `jax.jit` of a function defined in a method, or of a closure over `self`, without seeing that `__init__` runs once per sampler and the result is kept, would flag the fix.
Transcribed: the same code as the bug case `flaxdiff_5f99a9d_generate_images_jits_local_wrapper_per_call.py`, with the commit's one-line change applied (the `@jax.jit` over `sample_model_fn` commented out); the same stand-ins, driver and compilation count.
"""
from typing import Union

import jax
import jax.numpy as jnp
from flax import linen as nn
from flax import struct


class tqdm:  # stand-in for the tqdm module (not installed): a pass-through progress bar
    tqdm = staticmethod(lambda iterable: iterable)


compiles = 0
def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1
jax.monitoring.register_event_duration_secs_listener(_count)


# flaxdiff/utils.py
class MarkovState(struct.PyTreeNode):
    pass

class RandomMarkovState(MarkovState):
    rng: jax.random.PRNGKey

    def get_random_key(self):
        rng, subkey = jax.random.split(self.rng)
        return RandomMarkovState(rng), subkey

def clip_images(images, clip_min=-1, clip_max=1):
    return jnp.clip(images, clip_min, clip_max)


# flaxdiff/schedulers/common.py
def get_coeff_shapes_tuple(array):
    shape_tuple = (-1,) + (1,) * (array.ndim - 1)
    return shape_tuple

def reshape_rates(rates:tuple[jnp.ndarray, jnp.ndarray], shape=(-1, 1, 1, 1)) -> tuple[jnp.ndarray, jnp.ndarray]:
    signal_rates, noise_rates = rates
    signal_rates = jnp.reshape(signal_rates, shape)
    noise_rates = jnp.reshape(noise_rates, shape)
    return signal_rates, noise_rates

class NoiseScheduler():
    def __init__(self, timesteps,
                    dtype=jnp.float32,
                    clip_min=-1.0,
                    clip_max=1.0,
                    *args, **kwargs):
        self.max_timesteps = timesteps
        self.dtype = dtype
        self.clip_min = clip_min
        self.clip_max = clip_max

    def get_rates(self, steps, shape=(-1, 1, 1, 1)) -> tuple[jnp.ndarray, jnp.ndarray]:
        raise NotImplementedError

    def transform_inputs(self, x, steps):
        return x, steps


# flaxdiff/schedulers/continuous.py, cosine.py
class ContinuousNoiseScheduler(NoiseScheduler):
    """
    General Continuous Noise Scheduler
    """
    def __init__(self, *args, **kwargs):
        super().__init__(timesteps=1, *args, **kwargs)

class CosineContinuousNoiseScheduler(ContinuousNoiseScheduler):
    def get_rates(self, steps, shape=(-1, 1, 1, 1)) -> tuple[jnp.ndarray, jnp.ndarray]:
        signal_rates = jnp.cos((jnp.pi * steps) / (2 * self.max_timesteps))
        noise_rates = jnp.sin((jnp.pi * steps) / (2 * self.max_timesteps))
        return reshape_rates((signal_rates, noise_rates), shape=shape)


# flaxdiff/predictors/__init__.py
class DiffusionPredictionTransform():
    def pred_transform(self, x_t, preds, rates) -> jnp.ndarray:
        return preds

    def __call__(self, x_t, preds, current_step, noise_schedule:NoiseScheduler) -> Union[jnp.ndarray, jnp.ndarray]:
        rates = noise_schedule.get_rates(current_step, shape=get_coeff_shapes_tuple(x_t))
        preds = self.pred_transform(x_t, preds, rates)
        x_0, epsilon = self.backward_diffusion(x_t, preds, rates)
        return x_0, epsilon

    def backward_diffusion(self, x_t, preds, rates: tuple[jnp.ndarray, jnp.ndarray]) -> Union[jnp.ndarray, jnp.ndarray]:
        raise NotImplementedError

    def get_input_scale(self, rates: tuple[jnp.ndarray, jnp.ndarray]) -> jnp.ndarray:
        return 1

class EpsilonPredictionTransform(DiffusionPredictionTransform):
    def backward_diffusion(self, x_t, preds, rates: tuple[jnp.ndarray, jnp.ndarray]) -> Union[jnp.ndarray, jnp.ndarray]:
        # preds is the predicted noise
        epsilon = preds
        signal_rates, noise_rates = rates
        x_0 = (x_t - epsilon * noise_rates) / signal_rates
        return x_0, epsilon


# flaxdiff/samplers/common.py
class DiffusionSampler():
    def __init__(self, model:nn.Module, params:dict,  
                 noise_schedule:NoiseScheduler, 
                 model_output_transform:DiffusionPredictionTransform,
                 guidance_scale:float = 0.0,
                 null_labels_seq:jax.Array=None,
                 autoencoder=None,
                 image_size=256,
                 autoenc_scale_reduction=8,
                 autoenc_latent_channels=4,
                 ):
        self.model = model
        self.noise_schedule = noise_schedule
        self.params = params
        self.model_output_transform = model_output_transform
        self.guidance_scale = guidance_scale
        self.image_size = image_size
        self.autoenc_scale_reduction = autoenc_scale_reduction
        self.autoencoder = autoencoder
        self.autoenc_latent_channels = autoenc_latent_channels
        
        if self.guidance_scale > 0:
            # Classifier free guidance
            assert null_labels_seq is not None, "Null labels sequence is required for classifier-free guidance"
            print("Using classifier-free guidance")
            def sample_model(params, x_t, t, *additional_inputs):
                # Concatenate unconditional and conditional inputs
                x_t_cat = jnp.concatenate([x_t] * 2, axis=0)
                t_cat = jnp.concatenate([t] * 2, axis=0)
                rates_cat = self.noise_schedule.get_rates(t_cat)
                c_in_cat = self.model_output_transform.get_input_scale(rates_cat)
                
                text_labels_seq, = additional_inputs
                text_labels_seq = jnp.concatenate([text_labels_seq, jnp.broadcast_to(null_labels_seq, text_labels_seq.shape)], axis=0)
                model_output = self.model.apply(params, *self.noise_schedule.transform_inputs(x_t_cat * c_in_cat, t_cat), text_labels_seq)
                # Split model output into unconditional and conditional parts
                model_output_cond, model_output_uncond = jnp.split(model_output, 2, axis=0)
                model_output = model_output_uncond + guidance_scale * (model_output_cond - model_output_uncond)
                
                x_0, eps = self.model_output_transform(x_t, model_output, t, self.noise_schedule)
                return x_0, eps, model_output
        else:
            # Unconditional sampling
            def sample_model(params, x_t, t, *additional_inputs):
                rates = self.noise_schedule.get_rates(t)
                c_in = self.model_output_transform.get_input_scale(rates)
                model_output = self.model.apply(params, *self.noise_schedule.transform_inputs(x_t * c_in, t), *additional_inputs)
                x_0, eps = self.model_output_transform(x_t, model_output, t, self.noise_schedule)
                return x_0, eps, model_output
            
        # if jax.device_count() > 1:
        #     mesh = jax.sharding.Mesh(jax.devices(), 'data')
        #     sample_model = shard_map(sample_model, mesh=mesh, in_specs=(P('data'), P('data'), P('data')),
        #                              out_specs=(P('data'), P('data'), P('data')))
        sample_model = jax.jit(sample_model)
        self.sample_model = sample_model

    # Used to sample from the diffusion model
    def sample_step(self, sample_model_fn, current_samples:jnp.ndarray, current_step, model_conditioning_inputs, next_step=None, state:MarkovState=None) -> tuple[jnp.ndarray, MarkovState]:
        # First clip the noisy images
        step_ones = jnp.ones((len(current_samples), ), dtype=jnp.int32)
        current_step = step_ones * current_step
        next_step = step_ones * next_step
        pred_images, pred_noise, _ = sample_model_fn(current_samples, current_step, *model_conditioning_inputs)
        # plotImages(pred_images)
        # pred_images = clip_images(pred_images)
        new_samples, state =  self.take_next_step(current_samples=current_samples, reconstructed_samples=pred_images, 
                                pred_noise=pred_noise, current_step=current_step, next_step=next_step, state=state,
                                model_conditioning_inputs=model_conditioning_inputs,
                                sample_model_fn=sample_model_fn,
                             )
        return new_samples, state

    def take_next_step(self, current_samples, reconstructed_samples, model_conditioning_inputs,
                 pred_noise, current_step, state:RandomMarkovState, sample_model_fn, next_step=1,) -> tuple[jnp.ndarray, RandomMarkovState]:
        # estimate the q(x_{t-1} | x_t, x_0). 
        # pred_images is x_0, noisy_images is x_t, steps is t
        return NotImplementedError
    
    def scale_steps(self, steps):
        scale_factor = self.noise_schedule.max_timesteps / 1000
        return steps * scale_factor

    def get_steps(self, start_step, end_step, diffusion_steps):
        step_range = start_step - end_step
        if diffusion_steps is None or diffusion_steps == 0:
            diffusion_steps = start_step - end_step
        diffusion_steps = min(diffusion_steps, step_range)
        steps = jnp.linspace(end_step, start_step, diffusion_steps, dtype=jnp.int16)[::-1]
        return steps
    
    def get_initial_samples(self, num_images, rngs:jax.random.PRNGKey, start_step):
        start_step = self.scale_steps(start_step)
        alpha_n, sigma_n = self.noise_schedule.get_rates(start_step)
        variance = jnp.sqrt(alpha_n ** 2 + sigma_n ** 2) 
        image_size = self.image_size
        image_channels = 3
        if self.autoencoder is not None:
            image_size = image_size // self.autoenc_scale_reduction
            image_channels = self.autoenc_latent_channels
        return jax.random.normal(rngs, (num_images, image_size, image_size, image_channels)) * variance

    def generate_images(self,
                        params:dict=None,
                        num_images=16, 
                        diffusion_steps=1000, 
                        start_step:int = None,
                        end_step:int = 0,
                        steps_override=None,
                        priors=None, 
                        rngstate:RandomMarkovState=None,
                        model_conditioning_inputs:tuple=()
                        ) -> jnp.ndarray:
        if rngstate is None:
            rngstate = RandomMarkovState(jax.random.PRNGKey(42))
        if priors is None:
            rngstate, newrngs = rngstate.get_random_key()
            samples = self.get_initial_samples(num_images, newrngs, start_step)
        else:
            print("Using priors")
            if self.autoencoder is not None:
                priors = self.autoencoder.encode(priors)
            samples = priors
            
        params = params if params is not None else self.params
        
        # @jax.jit
        def sample_model_fn(x_t, t, *additional_inputs):
            return self.sample_model(params, x_t, t, *additional_inputs)

        # @jax.jit
        def sample_step(sample_model_fn, state:RandomMarkovState, samples, current_step, next_step):
            samples, state = self.sample_step(sample_model_fn=sample_model_fn, current_samples=samples,
                                              current_step=current_step, 
                                              model_conditioning_inputs=model_conditioning_inputs,
                                              state=state, next_step=next_step)
            return samples, state

        if start_step is None:
            start_step = self.noise_schedule.max_timesteps

        if steps_override is not None:
            steps = steps_override
        else:
            steps = self.get_steps(start_step, end_step, diffusion_steps)

        # print("Sampling steps", steps)
        for i in tqdm.tqdm(range(0, len(steps))):
            current_step = self.scale_steps(steps[i])
            next_step = self.scale_steps(steps[i+1] if i+1 < len(steps) else 0)
            if i != len(steps) - 1:
                # print("normal step")
                samples, rngstate = sample_step(sample_model_fn, rngstate, samples, current_step, next_step)
            else:
                # print("last step")
                step_ones = jnp.ones((num_images, ), dtype=jnp.int32)
                samples, _, _ = sample_model_fn(samples, current_step * step_ones, *model_conditioning_inputs)
        if self.autoencoder is not None:
            samples = self.autoencoder.decode(samples)
        samples = clip_images(samples)
        return samples


# flaxdiff/samplers/ddim.py
class DDIMSampler(DiffusionSampler):
    def take_next_step(self, current_samples, reconstructed_samples, model_conditioning_inputs,
                 pred_noise, current_step, state:RandomMarkovState, sample_model_fn, next_step=1) -> tuple[jnp.ndarray, RandomMarkovState]:
        next_signal_rate, next_noise_rate = self.noise_schedule.get_rates(next_step)
        return reconstructed_samples * next_signal_rate + pred_noise * next_noise_rate, state


class TinyDenoiser(nn.Module):  # stand-in for a FlaxDiff UNet: predicts the noise from (x_t, t)
    @nn.compact
    def __call__(self, x, t):
        return nn.Dense(x.shape[-1])(x) * jnp.reshape(t, (-1, 1, 1, 1)).astype(x.dtype)


model = TinyDenoiser()
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 8, 8, 3)), jnp.ones((1,)))
sampler = DDIMSampler(model, params, CosineContinuousNoiseScheduler(), EpsilonPredictionTransform(), image_size=8)

counts = []
for seed in range(3):
    images = sampler.generate_images(num_images=4, diffusion_steps=4, start_step=1000,
                                     rngstate=RandomMarkovState(jax.random.PRNGKey(seed)))
    images.block_until_ready()
    counts.append(compiles)
print("backend compilations after each generate_images call:", counts)  # flat after the first call
