"""Source: https://github.com/liesel-devs/liesel/issues/364 (the fix discussed there: convert the Python scalars of the initial state to strongly typed arrays before the first step; originally: "Conversion to strongly typed values": a sampler's state starts with Python scalars, which are weakly typed; the jitted step returns the state without the weak flags, so the next call of the step compiles a second time). Here the initial state holds `jnp.float32`/`jnp.int32` arrays."""
import jax
import jax.numpy as jnp


def log_density(theta):
    return -0.5 * jnp.sum(theta ** 2)


@jax.jit
def rwm_step(state, key):
    prop = state["theta"] + state["step_size"] * jax.random.normal(key, state["theta"].shape)
    log_ratio = log_density(prop) - log_density(state["theta"])
    accept = jnp.log(jax.random.uniform(jax.random.fold_in(key, 1))) < log_ratio
    theta = jnp.where(accept, prop, state["theta"])
    step_size = state["step_size"] * jnp.where(accept, 1.02, 0.98)
    return {"theta": theta, "step_size": step_size, "n_accepted": state["n_accepted"] + accept}


def init_state(theta0):
    state = {"theta": theta0, "step_size": jnp.asarray(0.5, jnp.float32),
             "n_accepted": jnp.asarray(0, jnp.int32)}
    return state


def run_chain(theta0, key, n_steps=100):
    state = init_state(theta0)
    for k in jax.random.split(key, n_steps):
        state = rwm_step(state, k)
    return state


# --- oracle ---
COMPARE = False


def ENTRY():
    return rwm_step, (init_state(jnp.zeros(3)), jax.random.PRNGKey(0))


def ALT_ARGS():
    # the state the first step returns, fed back in
    state = {"theta": jnp.full(3, 0.1, jnp.float32), "step_size": jnp.asarray(0.51, jnp.float32),
             "n_accepted": jnp.asarray(1, jnp.int32)}
    return [(state, jax.random.PRNGKey(1))]
