"""Source: https://github.com/genjax-community/genjax/issues/1179 (the usual fix: a tuple, which is hashable, as the static argument; originally: "jax.jit with a static argument of a `genjax.Pytree.const(list)` causes an error": the reduced repro `jax.jit(foo, static_argnums=(0,))` called with `[2]` raises `ValueError: Non-hashable static arguments are not supported`). Here the decoder takes its hidden layer sizes as a static tuple."""
import jax
import jax.numpy as jnp


def decode(layer_sizes, params, z):
    h = z
    for i, _ in enumerate(layer_sizes):
        h = jax.nn.softplus(h @ params[f"w{i}"] + params[f"b{i}"])
    return h @ params["out"]


decode_jit = jax.jit(decode, static_argnums=(0,))


def log_likelihood(params, z, x):
    recon = decode_jit((8, 8), params, z)
    return -0.5 * jnp.sum((recon - x) ** 2)


# --- oracle ---
WRAP = False


def ENTRY():
    ks = jax.random.split(jax.random.PRNGKey(4), 3)
    params = {"w0": jax.random.normal(ks[0], (2, 8)), "b0": jnp.zeros(8),
              "w1": jax.random.normal(ks[1], (8, 8)), "b1": jnp.zeros(8),
              "out": jax.random.normal(ks[2], (8, 5))}
    return log_likelihood, (params, jnp.ones((3, 2)), jnp.zeros((3, 5)))
