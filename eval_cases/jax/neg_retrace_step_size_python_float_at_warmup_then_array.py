"""Source: https://github.com/pyro-ppl/numpyro/issues/463 (the fix: convert the user's scalars to arrays of a fixed dtype before the first call, so warmup and sampling share one compilation; originally: "Model compilation happens twice with the latest JAX version": the arguments of the jitted sample function are Python scalars, weakly typed, when warmup starts and arrays when sampling starts, so the model compiles once per phase). Here the initial step size is converted with `jnp.asarray(..., jnp.float32)` before warmup."""
import jax
import jax.numpy as jnp


def potential(q):
    return 0.5 * jnp.sum(q ** 2) + 0.1 * jnp.sum(q ** 4)


@jax.jit
def hmc_transition(q, key, step_size):
    p = jax.random.normal(key, q.shape)
    grad = jax.grad(potential)
    q_new, p_new = q, p - 0.5 * step_size * grad(q)
    for _ in range(5):
        q_new = q_new + step_size * p_new
        p_new = p_new - step_size * grad(q_new)
    p_new = p_new + 0.5 * step_size * grad(q_new)
    h_old = potential(q) + 0.5 * jnp.sum(p ** 2)
    h_new = potential(q_new) + 0.5 * jnp.sum(p_new ** 2)
    accept = jnp.log(jax.random.uniform(jax.random.fold_in(key, 7))) < h_old - h_new
    return jnp.where(accept, q_new, q), jnp.minimum(1.0, jnp.exp(h_old - h_new))


def run(q0, key, init_step_size=0.1, num_warmup=3, num_samples=3):
    step_size = jnp.asarray(init_step_size, jnp.float32)
    q = q0
    for k in jax.random.split(key, num_warmup):
        q, acc = hmc_transition(q, k, step_size)
        step_size = step_size * jnp.exp(acc - 0.8)
    samples = []
    for k in jax.random.split(jax.random.fold_in(key, 1), num_samples):
        q, _ = hmc_transition(q, k, step_size)
        samples.append(q)
    return jnp.stack(samples)


# --- oracle ---
COMPARE = False


def ENTRY():
    return hmc_transition, (jnp.zeros(2), jax.random.PRNGKey(0), jnp.float32(0.1))


def ALT_ARGS():
    return [(jnp.array([0.1, -0.2]), jax.random.PRNGKey(1), jnp.float32(0.095))]
