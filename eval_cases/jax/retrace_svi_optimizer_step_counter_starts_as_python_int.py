"""Source: https://github.com/pyro-ppl/numpyro/issues/602 ("_NumpyroOptim causes double jit-compilation": the optimizer's `init` returned a tuple whose first entry, the iteration count, was the Python integer `0`; after the first update it was a JAX int32 array, and the change of type made JAX trace and compile the jitted SVI update again in the second epoch). Here a variational-inference loop keeps an Adam optimizer state whose step count starts as a Python int, and a jitted SVI update advances it once per call."""
import jax
import jax.numpy as jnp


class Adam:
    def __init__(self, step_size, b1=0.9, b2=0.999, eps=1e-8):
        self.step_size, self.b1, self.b2, self.eps = step_size, b1, b2, eps

    def init(self, params):
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return 0, (params, zeros, zeros)  # XLA: retrace

    def update(self, grads, state):
        i, (params, m, v) = state
        t = jnp.asarray(i, jnp.int32) + 1
        m = jax.tree_util.tree_map(lambda m, g: self.b1 * m + (1 - self.b1) * g, m, grads)
        v = jax.tree_util.tree_map(lambda v, g: self.b2 * v + (1 - self.b2) * g ** 2, v, grads)
        corr = jnp.sqrt(1 - self.b2 ** t) / (1 - self.b1 ** t)
        params = jax.tree_util.tree_map(lambda p, m, v: p - self.step_size * corr * m / (jnp.sqrt(v) + self.eps),
                                        params, m, v)
        return t, (params, m, v)


def elbo_loss(params, rng_key, data):
    eps = jax.random.normal(rng_key, (8,))
    z = params["loc"] + jnp.exp(params["log_scale"]) * eps
    log_lik = -0.5 * jnp.sum((data[None, :] - z[:, None]) ** 2, axis=1)
    log_prior = -0.5 * z ** 2
    entropy = params["log_scale"]
    return -jnp.mean(log_lik + log_prior) - entropy


optim = Adam(1e-2)


@jax.jit
def svi_update(svi_state, rng_key, data):
    params = svi_state[1][0]
    loss, grads = jax.value_and_grad(elbo_loss)(params, rng_key, data)
    return optim.update(grads, svi_state), loss


class SVI:
    def __init__(self, init_params):
        self.svi_state = optim.init(init_params)

    def step(self, rng_key, data):
        self.svi_state, loss = svi_update(self.svi_state, rng_key, data)
        return loss


# --- oracle ---
WRAP = False


def ENTRY():
    svi = SVI({"loc": jnp.zeros((), jnp.float32), "log_scale": jnp.zeros((), jnp.float32)})
    return svi.step, (jax.random.PRNGKey(0), jnp.linspace(0.5, 1.5, 10))


def ALT_ARGS():
    return [(jax.random.PRNGKey(1), jnp.linspace(0.5, 1.5, 10)), (jax.random.PRNGKey(2), jnp.linspace(0.4, 1.4, 10))]
