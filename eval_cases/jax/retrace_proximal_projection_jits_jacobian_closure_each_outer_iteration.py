"""Source: https://github.com/PlasmaControl/DESC/issues/1191 ("Excessive recompilation in `ProximalProjection`": with `JAX_LOG_COMPILES=1`, `jac_scaled`, `compute_scaled_error`, `project` and `recover` were traced and compiled again between every outer iteration, because the wrapper rebuilt its jitted functions around the updated constants each time). Here an outer Gauss-Newton iteration rebuilds `jax.jit` of a Jacobian closure over the current constants on every call."""
import jax
import jax.numpy as jnp


def residual(x, constants):
    return jnp.tanh(constants["A"] @ x) - constants["target"]


class ProximalProjection:
    def __init__(self, A, target):
        self.constants = {"A": A, "target": target}

    def update_constants(self, target):
        self.constants = {"A": self.constants["A"], "target": target}
        constants = self.constants
        self.jac_scaled = jax.jit(lambda x: jax.jacfwd(residual)(x, constants))  # XLA: retrace
        self.compute_error = jax.jit(lambda x: residual(x, constants))

    def outer_step(self, x, target):
        self.update_constants(target)
        J = self.jac_scaled(x)
        r = self.compute_error(x)
        return x - jnp.linalg.lstsq(J, r)[0]


problem = ProximalProjection(jnp.array([[1.0, 0.2], [0.3, 0.8], [0.5, -0.4]]), jnp.zeros(3))


# --- oracle ---
WRAP = False


def ENTRY():
    return problem.outer_step, (jnp.array([0.1, -0.2]), jnp.array([0.1, 0.2, 0.0]))


def ALT_ARGS():
    return [(jnp.array([0.2, -0.1]), jnp.array([0.1, 0.25, 0.0])),
            (jnp.array([0.3, -0.1]), jnp.array([0.15, 0.2, 0.05]))]
