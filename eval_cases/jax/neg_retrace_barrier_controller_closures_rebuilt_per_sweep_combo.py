"""Source: https://github.com/bardhh/cbfkit/pull/333 ("perf: eliminate JIT recompilation in parameter sweeps (65x / 3.2x speedup)"; the fix: one parameterised simulation kernel, compiled once, with `alpha` and `control_limit` as dynamic array inputs instead of values captured by fresh closures). Here the same barrier-function sweep calls one module-level jitted kernel that takes alpha and the limit as arguments."""
import jax
import jax.numpy as jnp


def barrier_filter(x, u_nom, alpha):
    h = 1.0 - x[0] ** 2
    lf_h = -2.0 * x[0] * x[1]
    lg_h = -2.0 * x[0]
    slack = lf_h + lg_h * u_nom + alpha * h
    return u_nom - jnp.minimum(slack, 0.0) / (lg_h + 1e-6)


def controller(x, target, limit):
    return jnp.clip(-2.0 * (x[0] - target) - x[1], -limit, limit)


def simulate(x0, alpha, limit):
    def step(x, _):
        u = barrier_filter(x, controller(x, 0.9, limit), alpha)
        x = x + 0.05 * jnp.stack([x[1], u])
        return x, x[0]
    return jax.lax.scan(step, x0, None, length=20)[1]


batch_simulate = jax.jit(jax.vmap(simulate, in_axes=(0, None, None)))


def conduct_monte_carlo(x0s, alpha, limit):
    return batch_simulate(x0s, jnp.float32(alpha), jnp.float32(limit))


# --- oracle ---
WRAP = False


def ENTRY():
    x0s = jnp.array([[0.0, 0.0], [0.2, 0.1], [-0.3, 0.0]])
    return conduct_monte_carlo, (x0s, 1.0, 2.0)


def ALT_ARGS():
    x0s = jnp.array([[0.0, 0.0], [0.2, 0.1], [-0.3, 0.0]])
    return [(x0s, 2.0, 2.0), (x0s, 1.0, 4.0)]
