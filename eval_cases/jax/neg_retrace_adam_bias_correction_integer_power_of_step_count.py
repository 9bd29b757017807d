"""Source: https://github.com/google-deepmind/optax/issues/328 ("`_bias_correction` forces recompilation of `integer_pow`": an optimizer update that is not jitted recompiles `integer_pow` for every new integer step count). The float form: the step count is cast to float32 before the power, so `jnp.power` is a `pow` of two arrays whose values do not enter the compiled computation. (Hand-written Adam update for a linear model's weights, run eagerly in the training loop.)"""
import jax.numpy as jnp


def adam_update(grads, mu, nu, count, lr=1e-2, b1=0.9, b2=0.999, eps=1e-8):
    count = count + 1
    mu = b1 * mu + (1 - b1) * grads
    nu = b2 * nu + (1 - b2) * grads * grads
    step = count.astype(jnp.float32)
    mu_hat = mu / (1 - b1 ** step)
    nu_hat = nu / (1 - b2 ** step)
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
