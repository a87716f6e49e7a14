"""Source: https://github.com/iory/scikit-robot/issues/871
Library: plain-jax
Reported: "`AugmentedLagrangianSolver` rebuilds and recompiles its cost functions on every `solve()`.
The compiled executables are never reused": `_build_functions` "returns freshly `jax.jit`-wrapped
closures. `jax.jit` keys on function identity, so every `solve()` compiles from scratch", and its
`_jit_cache` is an instance attribute, so "callers that build a solver per solve never hit it";
`solve()` also jits its local `inner_loop` anew on each call. Fixed in PR 872.
Transcribed: `AugmentedLagrangianSolver.solve` and `_build_functions` from
skrobot/planner/trajectory_optimization/solvers/augmented_lagrangian.py at commit
ece6f3f323f3816485a5e0d6233c81b70c9691e2 (before the fix), docstrings and comments dropped.
`_build_functions` is abridged to its smoothness cost and joint-limit constraint branches: the FK
set-up, the collision, Cartesian, velocity and end-effector branches and their skrobot imports are
left out, the `return jax.jit(objective_fn), jax.jit(constraint_fn), n_constraints` line is kept.
Added minimal stand-ins: `BaseSolver` (with `_validate_trajectory`, verbatim), `SolverResult`, the two
key helpers of solver_utils.py (verbatim, imported there inside the methods), a `ResidualSpec` and
`TrajectoryProblem` holding the attributes used, and three solves each with a new solver (as the
report's callers do), counting XLA compiles with a jax.monitoring listener.
Hard: both jits happen inside methods: `inner_loop` is a `@jax.jit` local function of `solve`, and
`_build_functions` (called from `solve`, its result cached only on the instance) jits two local
closures; the checker must see that the module's loop calls `solve` again and again.
"""
import hashlib
from abc import ABC, abstractmethod

import jax
import jax.numpy as jnp
import numpy as np

compiles = 0


def _count(event, duration, **kwargs):
    global compiles
    if event == "/jax/core/compile/backend_compile_duration":
        compiles += 1


jax.monitoring.register_event_duration_secs_listener(_count)


class SolverResult:
    def __init__(self, trajectory, success=True, cost=0.0, iterations=0, message='', info=None):
        self.trajectory = np.asarray(trajectory)
        self.success = success
        self.cost = cost
        self.iterations = iterations
        self.message = message
        self.info = info or {}


class BaseSolver(ABC):
    def __init__(self, verbose=False):
        self.verbose = verbose

    @abstractmethod
    def solve(self, problem, initial_trajectory, **kwargs):
        pass

    def _validate_trajectory(self, trajectory, problem):
        trajectory = np.asarray(trajectory)
        n_total = getattr(problem, 'n_total_dof', problem.n_joints)
        expected_shape = (problem.n_waypoints, n_total)

        if trajectory.shape != expected_shape:
            raise ValueError(
                f"Trajectory shape {trajectory.shape} does not match "
                f"expected shape {expected_shape}"
            )

        return trajectory


def get_problem_structure_key(problem):
    residual_names = tuple(sorted(r.name for r in problem.residuals))
    residual_weights = tuple(
        (r.name, r.weight) for r in problem.residuals
    )
    wp_constraint_indices = tuple(
        idx for idx, _ in problem.waypoint_constraints
    )
    n_obstacles = 0
    if problem.world_obstacles:
        n_obstacles = len(problem.world_obstacles)
    ee_wp_structure = tuple(
        (c['waypoint_index'], c['position_weight'], c['rotation_weight'])
        for c in problem.ee_waypoint_costs
    )
    has_cartesian = any(
        spec.name == 'cartesian_path' for spec in problem.residuals
    )
    return (
        problem.n_waypoints,
        problem.n_joints,
        residual_names,
        residual_weights,
        problem.fixed_start,
        problem.fixed_end,
        problem.collision_spheres is not None,
        wp_constraint_indices,
        n_obstacles,
        ee_wp_structure,
        has_cartesian,
    )


def get_problem_value_hash(problem):
    hash_parts = []
    if problem.world_obstacles:
        for obs in problem.world_obstacles:
            hash_parts.append(str(obs.get('center', [])))
            hash_parts.append(str(obs.get('radius', 0)))
    for c in problem.ee_waypoint_costs:
        hash_parts.append(c['target_position'].tobytes())
        hash_parts.append(c['target_rotation'].tobytes())
    for spec in problem.residuals:
        if spec.name == 'cartesian_path':
            params = spec.params
            target_pos = params.get('target_positions')
            if target_pos is not None:
                hash_parts.append(target_pos.tobytes())
            target_rot = params.get('target_rotations')
            if target_rot is not None:
                hash_parts.append(target_rot.tobytes())
    for _, angles in problem.waypoint_constraints:
        hash_parts.append(angles.tobytes())
    if not hash_parts:
        return None
    combined = b''.join(
        p if isinstance(p, bytes) else p.encode() for p in hash_parts
    )
    return hashlib.md5(combined).hexdigest()[:16]


class ResidualSpec:
    def __init__(self, name, weight, kind='soft', params=None):
        self.name = name
        self.weight = weight
        self.kind = kind
        self.params = params or {}


class TrajectoryProblem:
    def __init__(self, n_waypoints, n_joints):
        self.n_waypoints = n_waypoints
        self.n_joints = n_joints
        self.dt = 0.1
        self.joint_limits_lower = -np.ones(n_joints)
        self.joint_limits_upper = np.ones(n_joints)
        self.fixed_start = True
        self.fixed_end = True
        self.waypoint_constraints = []
        self.world_obstacles = []
        self.ee_waypoint_costs = []
        self.collision_spheres = None
        self.residuals = [
            ResidualSpec('smoothness', 1.0),
            ResidualSpec('joint_limits', 1.0, kind='geq', params={
                'lower': self.joint_limits_lower, 'upper': self.joint_limits_upper}),
        ]


class AugmentedLagrangianSolver(BaseSolver):
    def __init__(
        self,
        max_outer_iterations=20,
        max_inner_iterations=100,
        max_iterations=None,
        learning_rate=0.01,
        initial_penalty=1.0,
        penalty_multiplier=2.0,
        max_penalty=1e6,
        constraint_tolerance=1e-4,
        verbose=False,
    ):
        super().__init__(verbose=verbose)
        self.max_outer_iterations = max_outer_iterations
        if max_iterations is not None:
            self.max_inner_iterations = max_iterations
        else:
            self.max_inner_iterations = max_inner_iterations
        self.learning_rate = learning_rate
        self.initial_penalty = initial_penalty
        self.penalty_multiplier = penalty_multiplier
        self.max_penalty = max_penalty
        self.constraint_tolerance = constraint_tolerance
        self._jit_cache = {}

    def _get_problem_structure_key(self, problem):
        return get_problem_structure_key(problem)

    def _get_problem_value_hash(self, problem):
        return get_problem_value_hash(problem)

    def solve(
        self,
        problem,
        initial_trajectory,
        **kwargs,
    ):
        initial_trajectory = self._validate_trajectory(
            initial_trajectory, problem
        )

        max_outer = kwargs.get('max_outer_iterations', self.max_outer_iterations)
        max_inner = kwargs.get('max_inner_iterations', self.max_inner_iterations)
        learning_rate = kwargs.get('learning_rate', self.learning_rate)

        structure_key = self._get_problem_structure_key(problem)
        value_hash = self._get_problem_value_hash(problem)

        need_rebuild = False
        if structure_key not in self._jit_cache:
            need_rebuild = True
        elif self._jit_cache[structure_key].get('value_hash') != value_hash:
            need_rebuild = True

        if need_rebuild:
            self._jit_cache[structure_key] = {
                'value_hash': value_hash,
                'functions': self._build_functions(problem),
            }

        objective_fn, constraint_fn, n_constraints = \
            self._jit_cache[structure_key]['functions']

        trajectory = jnp.array(initial_trajectory, dtype=jnp.float32)
        lower = jnp.array(problem.joint_limits_lower, dtype=jnp.float32)
        upper = jnp.array(problem.joint_limits_upper, dtype=jnp.float32)

        lambdas = jnp.zeros(n_constraints, dtype=jnp.float32)
        rho = jnp.float32(self.initial_penalty)

        def augmented_lagrangian(traj, lam, penalty):
            obj = objective_fn(traj)
            g = constraint_fn(traj)

            violation = jnp.maximum(0.0, lam / penalty - g)
            al_penalty = (penalty / 2.0) * jnp.sum(violation ** 2)

            return obj + al_penalty

        al_grad = jax.grad(augmented_lagrangian)

        beta1 = 0.9
        beta2 = 0.999
        eps = 1e-8

        wp_constraints = [
            (idx, jnp.array(angles, dtype=jnp.float32))
            for idx, angles in problem.waypoint_constraints
        ]

        @jax.jit  # expect: jit-fresh-function
        def inner_loop(traj, lam, penalty, lr, n_iters):
            traj_shape = traj.shape

            def body_fn(i, state):
                t, m, v, best_t, best_cost = state
                grad = al_grad(t, lam, penalty)

                grad_norm = jnp.sqrt(jnp.sum(grad ** 2) + 1e-10)
                grad = jnp.where(
                    grad_norm > 100.0,
                    grad * (100.0 / grad_norm),
                    grad
                )

                m_new = beta1 * m + (1 - beta1) * grad
                v_new = beta2 * v + (1 - beta2) * (grad ** 2)

                step = i + 1
                m_hat = m_new / (1 - beta1 ** step)
                v_hat = v_new / (1 - beta2 ** step)

                new_t = t - lr * m_hat / (jnp.sqrt(v_hat) + eps)

                new_t = jnp.clip(new_t, lower, upper)

                if problem.fixed_start:
                    new_t = new_t.at[0].set(traj[0])
                if problem.fixed_end:
                    new_t = new_t.at[-1].set(traj[-1])

                for wp_idx, wp_angles in wp_constraints:
                    new_t = new_t.at[wp_idx].set(wp_angles)

                new_cost = augmented_lagrangian(new_t, lam, penalty)
                is_better = new_cost < best_cost
                new_best_t = jnp.where(is_better, new_t, best_t)
                new_best_cost = jnp.where(is_better, new_cost, best_cost)

                return (new_t, m_new, v_new, new_best_t, new_best_cost)

            init_cost = augmented_lagrangian(traj, lam, penalty)
            m_init = jnp.zeros(traj_shape, dtype=jnp.float32)
            v_init = jnp.zeros(traj_shape, dtype=jnp.float32)
            _, _, _, best_traj, best_cost = jax.lax.fori_loop(
                0, n_iters, body_fn,
                (traj, m_init, v_init, traj, init_cost)
            )
            return best_traj, best_cost

        total_inner_iters = 0
        prev_max_violation = float('inf')

        lr_f32 = jnp.float32(learning_rate)

        for outer_iter in range(max_outer):
            trajectory, al_cost = inner_loop(
                trajectory, lambdas, rho, lr_f32, max_inner
            )
            total_inner_iters += max_inner

            g = constraint_fn(trajectory)
            violations = jnp.maximum(0.0, -g)
            max_violation = float(jnp.max(violations))

            if self.verbose:
                obj_val = float(objective_fn(trajectory))
                print(f"Outer iter {outer_iter + 1}: "
                      f"obj={obj_val:.6f}, "
                      f"max_violation={max_violation:.6f}, "
                      f"ρ={rho:.1f}")

            if max_violation < self.constraint_tolerance:
                if self.verbose:
                    print("Converged: constraints satisfied")
                break

            lambdas = jnp.maximum(jnp.float32(0.0), lambdas - rho * g)

            if max_violation > 0.25 * prev_max_violation:
                rho = jnp.float32(min(float(rho) * self.penalty_multiplier, self.max_penalty))

            prev_max_violation = max_violation

        final_cost = float(objective_fn(trajectory))
        g_final = constraint_fn(trajectory)
        final_violation = float(jnp.max(jnp.maximum(0.0, -g_final)))

        success = final_violation < self.constraint_tolerance

        return SolverResult(
            trajectory=np.array(trajectory),
            success=success,
            cost=final_cost,
            iterations=total_inner_iters,
            message=f'AL completed: violation={final_violation:.2e}',
            info={
                'constraint_violation': final_violation,
                'outer_iterations': outer_iter + 1,
                'final_penalty': rho,
            }
        )

    def _build_functions(self, problem):
        dt = problem.dt

        soft_costs = []
        hard_constraints = []
        for spec in problem.residuals:
            if spec.kind == 'geq':
                hard_constraints.append(spec)
            else:
                soft_costs.append(spec)

        n_constraints = 0
        constraint_specs = []
        for spec in hard_constraints:
            if spec.name == 'joint_limits':
                n_jl = 2 * problem.n_joints * problem.n_waypoints
                constraint_specs.append(('joint_limits', spec, n_jl))
                n_constraints += n_jl

        if n_constraints == 0:
            n_constraints = 1

        def objective_fn(trajectory):
            total_cost = 0.0

            for spec in soft_costs:
                name = spec.name
                weight = spec.weight
                params = spec.params

                if name == 'smoothness':
                    diff = trajectory[1:] - trajectory[:-1]
                    total_cost = total_cost + weight * jnp.sum(diff ** 2)

                elif name == 'acceleration':
                    acc = (trajectory[2:] - 2 * trajectory[1:-1]
                           + trajectory[:-2]) / (dt ** 2)
                    total_cost = total_cost + weight * jnp.sum(acc ** 2)

            return total_cost

        def constraint_fn(trajectory):
            all_constraints = []

            for name, spec, _ in constraint_specs:
                params = spec.params

                if name == 'joint_limits':
                    lower = jnp.array(params['lower'])
                    upper = jnp.array(params['upper'])

                    g_lower = (trajectory - lower[None, :]).flatten()
                    g_upper = (upper[None, :] - trajectory).flatten()
                    all_constraints.append(g_lower)
                    all_constraints.append(g_upper)

            if all_constraints:
                return jnp.concatenate(all_constraints)
            else:
                return jnp.array([1.0])

        return jax.jit(objective_fn), jax.jit(constraint_fn), n_constraints  # expect: jit-fresh-function


problem = TrajectoryProblem(n_waypoints=5, n_joints=3)
initial = np.linspace(-0.5, 0.5, 5)[:, None] * np.ones((1, 3))
for i in range(3):
    solver = AugmentedLagrangianSolver(max_outer_iterations=2, max_inner_iterations=10)
    result = solver.solve(problem, initial)
    print("solve", i, "cost", round(result.cost, 4), "XLA compiles so far:", compiles)
