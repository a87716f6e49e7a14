"""Source: https://github.com/graphcore-research/pyscf-ipu/issues/18
Library: plain-jax
Reported: "The structure optimization in nanoDFT.py takes 5s wallclock each iteration (the call jitted_nanoDFT(*tensors)), but the popvision profile is ~100ms"; a maintainer traced it to the use of `partial`: every call of nanoDFT jits a new functools.partial of _nanoDFT, so every structure-optimization step traces and compiles _nanoDFT again, and caching the jitted function made the steps fast.
Transcribed: nanoDFT (up to the jitted call) and the signature of _nanoDFT from nanoDFT/nanoDFT.py at 8f3d243e, the commit the issue links, and the structure-optimization loop of its __main__ (20 steps, a new molecule built each step) cut to 3 steps without the plotting. PySCF is not installed: `Mole`/`build_mol` and init_dft_tensors_cpu are stand-ins returning small tensors of the molecule's size; _nanoDFT keeps its signature but its body (XC, ERI contraction, DIIS in a fori_loop) is reduced to one einsum per iteration; the post-processing of the logged energies is left out; opts, a jsonargparse Namespace, is a types.SimpleNamespace; a trace counter was added.
Hard: jax.jit is given functools.partial(_nanoDFT, opts=opts, mol=mol), made afresh inside nanoDFT, which the structure-optimization loop calls once per step.
"""
import types
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

traces = 0


class Mole:  # stand-in for pyscf.gto.mole.Mole
    def __init__(self, atom, basis):
        self.atom = atom
        self.basis = basis
        self.natm = len([a for a in atom.split(";") if a.strip()])
        self.nelectron = 2 * self.natm

    def nao_nr(self):
        return 2 * self.natm


def build_mol(mol_str, basis_name):
    mol = Mole(mol_str, basis_name)  # pyscf.gto.mole.Mole(); mol.build(atom=mol_str, ...)
    return mol


def init_dft_tensors_cpu(mol, opts, DIIS_iters=9):  # stand-in: PySCF integrals replaced by random tensors
    N = mol.nao_nr()
    n_electrons_half = mol.nelectron // 2
    E_nuc = 1.0
    rng = np.random.default_rng(0)
    density_matrix = np.eye(N)
    kinetic = rng.normal(size=(N, N))
    nuclear = rng.normal(size=(N, N))
    O = np.eye(N)
    grid_AO = rng.normal(size=(4, 8, N))
    ERI = rng.normal(size=(N, N, N, N))
    grid_weights = np.ones(8)
    mask = np.concatenate([np.ones(n_electrons_half), np.zeros(N - n_electrons_half)])
    L_inv = np.linalg.inv(np.linalg.cholesky(O))
    input_floats, input_ints = np.zeros(1), np.zeros(1, dtype=np.int32)
    diis_history = (np.zeros((DIIS_iters, N**2)), np.zeros((DIIS_iters, N**2)), np.zeros((DIIS_iters + 1, DIIS_iters + 1)))
    tensors = (E_nuc, density_matrix, kinetic, nuclear, O, grid_AO, ERI,
               grid_weights, mask, input_floats, input_ints, L_inv, diis_history)
    return tensors, n_electrons_half, E_nuc, N, L_inv, grid_weights, np.zeros((8, 3))


def _nanoDFT(E_nuc, density_matrix, kinetic, nuclear, O, grid_AO, ERI, grid_weights,
              mask, _input_floats, _input_ints, L_inv, diis_history, opts, mol):
    global traces
    traces += 1
    H_core = kinetic + nuclear
    N = H_core.shape[0]
    log = {"matrices": jnp.zeros((opts.its, 4, N, N)), "energy": jnp.zeros((opts.its, 6))}

    def iteration(i, vals):  # stand-in for nanoDFT_iteration
        density_matrix, log = vals
        J = jnp.einsum('ijkl,ji->kl', ERI, density_matrix)
        density_matrix = L_inv @ (H_core + J) @ L_inv.T * 1e-3
        log["matrices"] = log["matrices"].at[i].set(jnp.stack((density_matrix, J, J, H_core)))
        log["energy"] = log["energy"].at[i].set(jnp.sum(density_matrix * H_core) + E_nuc)
        return density_matrix, log

    log = jax.lax.fori_loop(0, opts.its, iteration, (density_matrix, log))[-1]
    return log["matrices"], H_core, log["energy"]


def nanoDFT(mol, opts):
    # Init DFT tensors on CPU using PySCF.
    tensors, n_electrons_half, E_nuc, N, L_inv, grid_weights, grid_coords = init_dft_tensors_cpu(mol, opts)

    # Run DFT algorithm (can be hardware accelerated).
    jitted_nanoDFT = jax.jit(partial(_nanoDFT, opts=opts, mol=mol), backend=opts.backend)  # expect: jit-fresh-function
    vals = jitted_nanoDFT(*tensors)
    logged_matrices, H_core, logged_energies = [np.asarray(a).astype(np.float64) for a in vals] # Ensure CPU
    return logged_energies


opts = types.SimpleNamespace(its=4, backend="cpu", basis="6-31G", diis=True)
p = np.array([[0, 1, 1], [0, 2, 2], [0, 3, 3],
              [0, 4, 4], [0, 5, 5], [0, 6, 6]], dtype=float)
A = ["H", "O", "H", "H", "O", "H"]
natm = p.shape[0]
for i in range(3):
    mol_str = "".join([f"{A[i]} {p[i]};".replace("[", "]").replace("]", "") for i in range(natm)])
    mol = build_mol(mol_str, opts.basis)
    nanoDFT_E = nanoDFT(mol, opts)
    p = p - 0.01  # stand-in for p = p - nanoDFT_forces
print("traces:", traces)  # 3: _nanoDFT traced and compiled again at every structure-optimization step
