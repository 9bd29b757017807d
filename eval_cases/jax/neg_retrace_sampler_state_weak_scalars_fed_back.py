"""Source: https://github.com/liesel-devs/liesel/issues/364 ("Conversion to strongly typed values": a sampler's state starts with Python scalars, which are weakly typed; the report says the jitted step returns the state without the weak flags, so the next call compiles a second time). Here a random-walk Metropolis kernel keeps its step size and acceptance count as Python numbers in the initial state, but every update of them is weak too (`weak * jnp.where(accept, 1.02, 0.98)` of Python scalars, `weak int + bool`), so the returned state keeps the weak flags and the step compiles once when driven by its own output (measured, jax 0.10.2). Was `retrace_sampler_state_weak_scalar_then_strong`, whose ALT_ARGS fed back a hand-built strongly typed state that the step never returns."""
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
    state = {"theta": theta0, "step_size": 0.5, "n_accepted": 0}
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
    # the state the jitted step really returns, fed back in: the same step body under its own jit (a wrapper,
    # so the measured first call of rwm_step still compiles) runs the first steps
    step = jax.jit(lambda state, key: rwm_step.__wrapped__(state, key))
    state = init_state(jnp.zeros(3))
    for i in range(3):
        state = step(state, jax.random.PRNGKey(i))
    return [(state, jax.random.PRNGKey(9))]
