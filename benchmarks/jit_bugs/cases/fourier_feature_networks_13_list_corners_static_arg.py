"""Source: https://github.com/tancik/fourier-feature-networks/issues/13
Library: plain-jax
Reported: the 3D shape occupancy notebook fails in run_training with 'Non-hashable static arguments are not supported ... an object of type list, [TrackedArray([...]), TrackedArray([...])] ... unhashable type: list': corners, a list of two arrays, is stored in render_args_lr and passed in static position 3 of the jitted render_rays.
Transcribed: from Experiments/3d_shape_occupancy.ipynb at commit 121c69779edc1f868f7627fbb8a5960777531a18: make_network, input_encoder, get_rays, render_rays_native_hier and its jit, render_args_lr, the corners assignment and run_training's render_rays call; jax.experimental.stax and optimizers became jax.example_libraries (moved since), the trimesh mesh became the corners load_mesh computes for it (a list of two numpy arrays: the vertices' min and max), the camera pose from pose_spherical became a plain translation, the network parameters are initialized directly with ab = (None, None) as run_training makes them for the embedding 'none', and the image size is cut to 16x16.
Hard: corners is a list of arrays stored into the list render_args_lr, and it reaches static position 3 only through the star-unpacking *render_args_lr.
"""
import jax
from jax import random, jit
import jax.numpy as np

from jax.example_libraries import stax

import numpy as onp

## Random seed
rand_key = random.PRNGKey(0)


def make_network(num_layers, num_channels):
  layers = []
  for i in range(num_layers-1):
      layers.append(stax.Dense(num_channels))
      layers.append(stax.Relu)
  layers.append(stax.Dense(1))
  return stax.serial(*layers)


input_encoder = jit(lambda x, a, b: (np.concatenate([a * np.sin((2.*np.pi*x) @ b.T), 
                                                     a * np.cos((2.*np.pi*x) @ b.T)], axis=-1) / np.linalg.norm(a)) if a is not None else (x * 2. - 1.))


def get_rays(H, W, focal, c2w):
    i, j = np.meshgrid(np.arange(W), np.arange(H), indexing='xy')
    dirs = np.stack([(i-W*.5)/focal, -(j-H*.5)/focal, -np.ones_like(i)], -1)
    rays_d = np.sum(dirs[..., np.newaxis, :] * c2w[:3,:3], -1)
    rays_o = np.broadcast_to(c2w[:3,-1], rays_d.shape)
    return np.stack([rays_o, rays_d], 0)

get_rays = jit(get_rays, static_argnums=(0, 1, 2,))


def render_rays_native_hier(params, ab, rays, corners, near, far, N_samples, N_samples_2, clip): #, rand=False):
    rays_o, rays_d = rays[0], rays[1]
    c0, c1 = corners

    th = .5
    
    # Compute 3D query points
    z_vals = np.linspace(near, far, N_samples) 
    pts = rays_o[...,None,:] + rays_d[...,None,:] * z_vals[...,:,None]
    
    # Run network
    alpha = jax.nn.sigmoid(np.squeeze(apply_fn(params, input_encoder(.5 * (pts + 1), *ab))))
    if clip:
      mask = np.logical_or(np.any(.5 * (pts + 1) < c0, -1), np.any(.5 * (pts + 1) > c1, -1))
      alpha = np.where(mask, 0., alpha)

    alpha = np.where(alpha > th, 1., 0)

    trans = 1.-alpha + 1e-10
    trans = np.concatenate([np.ones_like(trans[...,:1]), trans[...,:-1]], -1)  
    weights = alpha * np.cumprod(trans, -1)
    
    depth_map = np.sum(weights * z_vals, -1) 
    acc_map = np.sum(weights, -1)

    return depth_map, acc_map

render_rays = jit(render_rays_native_hier, static_argnums=(3,4,5,6,7,8))


init_fn, apply_fn = make_network(8, 256)

R = 2.
c2w = np.eye(4).at[2, 3].set(R)

N_samples = 64
N_samples_2 = 64
H = 16
W = H
focal = H * .9

render_args_lr = [get_rays(H, W, focal, c2w[:3,:4]), None, R-1, R+1, N_samples, N_samples_2, True]

c0, c1 = onp.zeros(3) - 1e-3, onp.ones(3) + 1e-3
corners = [c0, c1]
render_args_lr[1] = corners

ab = (None, None)
_, net_params = init_fn(rand_key, (-1, 3))
renderings = list(render_rays(net_params, ab, *render_args_lr))  # expect: static-unhashable
