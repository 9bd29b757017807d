"""Source: https://github.com/jax-ml/jax/issues/1007 ("lax.dynamic_slice inside jit": summing the first `k` entries with `np.sum(lax.dynamic_slice(a, (0,), (k,)))` under `jit` fails because the slice size `k` is traced; the maintainers: either make `k` static (recompiling per value) or mask with `np.where(np.arange(n) < k, a, 0)`). Here a jitted trading-signal function averages the most recent `window` returns with a dynamic slice whose size is the traced window length."""
import jax
import jax.numpy as jnp


@jax.jit
def momentum_signal(returns, window):
    recent = jax.lax.dynamic_slice(returns, (returns.shape[0] - window,), (window,))  # XLA: shape
    mean = jnp.mean(recent)
    vol = jnp.std(returns) + 1e-6
    return jnp.tanh(mean / vol)


# --- oracle ---
def ENTRY():
    rets = 0.01 * jnp.sin(jnp.linspace(0.0, 9.0, 20))
    return momentum_signal, (rets, 5)
