"""Source: https://github.com/bsc-quantic/tn4ml/issues/4 (the log-ReLU norm regulariser failed only because it used NumPy on traced values; written with `jax.numpy` it differentiates and compiles like the quadratic one). Here the jitted evaluation step's log-ReLU regulariser uses `jnp.log` and `jnp.maximum`."""
import jax
import jax.numpy as jnp


def reg_norm_quad(params):
    return (jnp.sum(params["w"] ** 2) - 1.0) ** 2


def reg_norm_logrelu(params):
    norm_sq = jnp.sum(params["w"] ** 2)
    return jnp.maximum(jnp.log(norm_sq), 0.0)


def loss(params, x, reg=reg_norm_logrelu, alpha=0.4):
    embedded = jnp.tanh(x @ params["w"] + params["b"])
    return jnp.mean(embedded ** 2) + alpha * reg(params)


@jax.jit
def evaluate(params, x):
    embedded = jnp.tanh(x @ params["w"] + params["b"])
    return {"loss": loss(params, x), "anomaly_score": jnp.sum(embedded ** 2, axis=-1)}


# --- oracle ---
def ENTRY():
    params = {"w": jnp.linspace(-0.8, 0.9, 12).reshape(4, 3), "b": jnp.zeros(3)}
    x = jnp.cos(jnp.arange(24, dtype=jnp.float32)).reshape(6, 4)
    return evaluate, (params, x)
