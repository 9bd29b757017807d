"""Source: https://github.com/jax-ml/jax/issues/1007 ("lax.dynamic_slice inside jit"; the second alternative given by the maintainers: keep the shape fixed and mask, `np.where(np.arange(n) < k, a, 0)`, which XLA fuses into the reduction). Here the same jitted trading signal masks the last `window` returns instead of slicing them."""
import jax
import jax.numpy as jnp


@jax.jit
def momentum_signal(returns, window):
    n = returns.shape[0]
    mask = jnp.arange(n) >= n - window
    mean = jnp.sum(jnp.where(mask, returns, 0.0)) / window
    vol = jnp.std(returns) + 1e-6
    return jnp.tanh(mean / vol)


# --- oracle ---
def ENTRY():
    rets = 0.01 * jnp.sin(jnp.linspace(0.0, 9.0, 20))
    return momentum_signal, (rets, 5)
