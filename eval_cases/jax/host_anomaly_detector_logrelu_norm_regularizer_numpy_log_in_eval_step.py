"""Source: https://github.com/bsc-quantic/tn4ml/issues/4 ("`tnad.loss.loss` crashes for `reg=tnad.loss.reg_norm_logrelu` and JAX backend": training worked with the quadratic norm regulariser but failed with the log-ReLU one, with TracerArrayConversionError, because the log-ReLU regulariser called NumPy on the traced norm inside the differentiated, jitted loss). Here the jitted evaluation step of a small anomaly-detection model computes the regularised loss, whose log-ReLU norm regulariser is `np.log` of the traced squared norm (under `jax.grad` the same call fails even without `jit`)."""
import jax
import jax.numpy as jnp
import numpy as np


def reg_norm_quad(params):
    return (jnp.sum(params["w"] ** 2) - 1.0) ** 2


def reg_norm_logrelu(params):
    norm_sq = jnp.sum(params["w"] ** 2)
    return np.maximum(np.log(norm_sq), 0.0)  # XLA: host


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
