"""Source: https://github.com/jax-ml/jax/issues/9463 ("Error upon compilation while using jax.jit": a function that packs per-row parameters into one flat vector computes the vector length as `num_rows*num_cols - (num_cols-1) * jnp.sum(jnp.isinf(smf))` and the row offsets with `jnp.cumsum`, then writes `par0_col.at[kvals[i]:kvals[i+1]].set(...)`; it works eagerly but fails under `jax.jit`, because the length and the slice bounds are traced values). Here a spline fitter packs each parameter either once (infinite smoothing: one shared value) or once per knot, with the packed size and offsets computed with `jnp` from the smoothing factors passed to the jitted function."""
import jax
import jax.numpy as jnp

NUM_ROWS = 5
NUM_COLS = 20


@jax.jit
def pack_parameters(par_init, smf, lower, upper):
    par = jnp.broadcast_to(par_init[:, None], (NUM_ROWS, NUM_COLS))
    kvals = jnp.where(jnp.isinf(smf), 1, NUM_COLS)
    kvals = jnp.cumsum(jnp.insert(kvals, 0, 0))
    size = NUM_ROWS * NUM_COLS - (NUM_COLS - 1) * jnp.sum(jnp.isinf(smf))
    par0 = jnp.zeros(size)  # XLA: shape
    lb = jnp.zeros(size)
    ub = jnp.zeros(size)
    for i in range(NUM_ROWS):
        par0 = par0.at[kvals[i]:kvals[i + 1]].set(par[i, :kvals[i + 1] - kvals[i]])
        lb = lb.at[kvals[i]:kvals[i + 1]].set(lower[i])
        ub = ub.at[kvals[i]:kvals[i + 1]].set(upper[i])
    return par0, lb, ub


# --- oracle ---
def ENTRY():
    par_init = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0])
    smf = jnp.array([jnp.inf, 0.1, 0.1, 0.1, 0.1])
    lower = jnp.full((NUM_ROWS,), 0.1)
    upper = jnp.full((NUM_ROWS,), 10.0)
    return pack_parameters, (par_init, smf, lower, upper)
