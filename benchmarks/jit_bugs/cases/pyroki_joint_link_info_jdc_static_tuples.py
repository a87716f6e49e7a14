"""Source: https://github.com/chungmin99/pyroki/blob/33cd119ca086aacc5fee3e921f30c698a2fcb64c/src/pyroki/_robot_urdf_parser.py
Library: jax_dataclasses
Correct: pyroki's kinematic tables are `jdc.pytree_dataclass`es whose static fields are `jdc.Static[int]` and `jdc.Static[tuple[str, ...]]`; the URDF parser collects names in lists and stores `tuple(joint_name_list)`, so the static metadata hashes and compares by value and two robots parsed from the same URDF share compiled code. A checker must stay silent on static tuples converted from lists at construction and on the array fields beside them.
Transcribed: `JointInfo` (fields, `_map_to_full_joint_space`, `get_full_config`) and `LinkInfo` from src/pyroki/_robot_urdf_parser.py at 33cd119c, unchanged but for field docstrings, which are dropped. yourdfpy is not installed: the driver builds the tables as `RobotURDFParser.parse` does (lists turned into tuples and arrays) for a three-joint chain, twice, as two loads of one URDF, and evaluates `get_full_config` through a `@jdc.jit` function with a `jdc.Static[bool]` flag, the signature of pyroki's `Robot.forward_kinematics`; a trace counter was added.
"""
import jax_dataclasses as jdc
import jax.numpy as jnp
from jax import Array
from jaxtyping import Float, Int


@jdc.pytree_dataclass
class JointInfo:
    """Contains joint-related information for a robot."""

    num_joints: jdc.Static[int]
    num_actuated_joints: jdc.Static[int]
    names: jdc.Static[tuple[str, ...]]
    actuated_names: jdc.Static[tuple[str, ...]]

    # Joint parameters.
    twists: Float[Array, "n_joints 6"]
    parent_transforms: Float[Array, "n_joints 7"]
    parent_indices: Int[Array, " n_joints"]
    actuated_indices: Int[Array, " n_joints"]

    # Limits for actuated joints.
    lower_limits: Float[Array, " n_act_joints"]
    upper_limits: Float[Array, " n_act_joints"]
    velocity_limits: Float[Array, " n_act_joints"]

    # Effective limits for ALL joints (including mimics and fixed).
    lower_limits_all: Float[Array, " n_joints"]
    upper_limits_all: Float[Array, " n_joints"]
    velocity_limits_all: Float[Array, " n_joints"]

    # Mimic joint parameters.
    mimic_multiplier: Float[Array, " n_joints"]
    mimic_offset: Float[Array, " n_joints"]
    mimic_act_indices: Int[Array, " n_joints"]

    _topo_sort_inv: Int[Array, " n_joints"]

    def _map_to_full_joint_space(
        self,
        value_actuated: Float[Array, "*batch n_act_joints"],
        apply_offset: bool,
    ) -> Float[Array, "*batch n_joints"]:
        """Internal helper to map actuated values to full joint space,
        optionally applying mimic offset."""
        batch_axes = value_actuated.shape[:-1]
        assert value_actuated.shape == (*batch_axes, self.num_actuated_joints)

        # Pad input vector to handle fixed joints (index -1) safely.
        value_padded = jnp.concatenate(
            [value_actuated, jnp.zeros((*batch_axes, 1))], axis=-1
        )

        # Replace mimic indices with the actuated joint index they refer to.
        replace_mimic_indices = jnp.where(
            self.mimic_act_indices == -1,
            self.actuated_indices,
            self.mimic_act_indices,
        )

        safe_actuated_indices = jnp.where(
            replace_mimic_indices == -1,
            self.num_actuated_joints,  # Point to the zero padding.
            replace_mimic_indices,
        )

        # value_referenced contains the value of the joint each joint index refers to.
        value_referenced = value_padded[..., safe_actuated_indices]
        assert value_referenced.shape == (*batch_axes, self.num_joints)

        # Apply mimic multiplier.
        value_multiplied = value_referenced * self.mimic_multiplier

        # Conditionally add mimic offset.
        value_full = jnp.where(
            apply_offset, value_multiplied + self.mimic_offset, value_multiplied
        )
        assert value_full.shape == (*batch_axes, self.num_joints)

        return value_full

    def get_full_config(
        self,
        cfg_actuated: Float[Array, "*batch n_act_joints"],
    ) -> Float[Array, "*batch n_joints"]:
        """Compute the full joint configuration vector (for all n_joints)
        from the configuration of the actuated joints (n_act_joints)."""
        return self._map_to_full_joint_space(cfg_actuated, apply_offset=True)


@jdc.pytree_dataclass
class LinkInfo:
    """Contains link-related information for a robot."""

    num_links: jdc.Static[int]
    names: jdc.Static[tuple[str, ...]]
    parent_joint_indices: Int[Array, "n_links"]


def parse_chain():  # what RobotURDFParser.parse builds for a 3-joint chain (yourdfpy not installed)
    joint_name_list = ["j0", "j1", "j2"]
    actuated_name_list = ["j0", "j1"]
    link_name_list = ["base", "l0", "l1", "l2"]
    joint_info = JointInfo(
        num_joints=len(joint_name_list),
        num_actuated_joints=len(actuated_name_list),
        twists=jnp.zeros((3, 6)),
        parent_transforms=jnp.zeros((3, 7)),
        parent_indices=jnp.array([-1, 0, 1], dtype=jnp.int32),
        actuated_indices=jnp.array([0, 1, -1], dtype=jnp.int32),
        lower_limits=jnp.array([-1.0, -1.0]),
        upper_limits=jnp.array([1.0, 1.0]),
        velocity_limits=jnp.array([1.0, 1.0]),
        names=tuple(joint_name_list),
        actuated_names=tuple(actuated_name_list),
        lower_limits_all=jnp.array([-1.0, -1.0, 0.0]),
        upper_limits_all=jnp.array([1.0, 1.0, 0.0]),
        velocity_limits_all=jnp.array([1.0, 1.0, 0.0]),
        mimic_multiplier=jnp.ones(3),
        mimic_offset=jnp.zeros(3),
        mimic_act_indices=jnp.array([-1, -1, -1]),
        _topo_sort_inv=jnp.arange(3, dtype=jnp.int32),
    )
    link_info = LinkInfo(
        num_links=len(link_name_list),
        names=tuple(link_name_list),
        parent_joint_indices=jnp.array([-1, 0, 1, 2], dtype=jnp.int32),
    )
    return joint_info, link_info


traces = 0


@jdc.jit
def full_config(joints: JointInfo, cfg: Array, unroll_fk: jdc.Static[bool] = False) -> Array:
    global traces
    traces += 1
    return joints.get_full_config(cfg)


for _ in range(2):  # two robots loaded from the same URDF
    joints, links = parse_chain()
    full_config(joints, jnp.array([0.1, 0.2]))
print("traces:", traces)  # 1
