"""Source: https://github.com/google-deepmind/optax/issues/328 ("`_bias_correction` forces recompilation of `integer_pow`": when the optimizer update is not jitted, `1 - decay ** count` with the integer step `count` is dispatched op by op, and `jnp.power` with a concrete integer exponent lowers to `integer_pow` with the exponent baked in, so every new step count compiles a new computation; the reporter measured 72 s against 3.5 s for 1000 steps). Here an Adam-style update that is not jitted applies the bias correction `1 - b1 ** count` with an int32 step counter. (Hand-written Adam update for a linear model's weights, run eagerly in the training loop.)"""
import jax.numpy as jnp


def adam_update(grads, mu, nu, count, lr=1e-2, b1=0.9, b2=0.999, eps=1e-8):
    count = count + 1
    mu = b1 * mu + (1 - b1) * grads
    nu = b2 * nu + (1 - b2) * grads * grads
    mu_hat = mu / (1 - b1 ** count)  # XLA: retrace
    nu_hat = nu / (1 - b2 ** count)  # XLA: retrace
    return -lr * mu_hat / (jnp.sqrt(nu_hat) + eps), mu, nu, count


# --- oracle ---
WRAP = False


def _state(step):
    grads = jnp.linspace(-1.0, 1.0, 8)
    return grads, 0.1 * grads, 0.01 * grads * grads, jnp.asarray(step, jnp.int32)


def ENTRY():
    return adam_update, _state(1)


def ALT_ARGS():
    return [_state(s) for s in (2, 3, 4)]
