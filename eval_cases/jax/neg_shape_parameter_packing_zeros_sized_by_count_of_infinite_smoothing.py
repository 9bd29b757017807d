"""Source: https://github.com/jax-ml/jax/issues/9463 (the way out: the smoothing factors are configuration, not data, so the packed length and the row offsets can be computed with NumPy outside the trace, leaving only the parameter values traced). Here the spline fitter takes its smoothing factors as a module-level NumPy constant, so the packed size and every slice bound are Python integers under `jax.jit`."""
import jax
import jax.numpy as jnp
import numpy as np

NUM_ROWS = 5
NUM_COLS = 20
SMF = np.array([np.inf, 0.1, 0.1, 0.1, 0.1])
KVALS = np.cumsum(np.insert(np.where(np.isinf(SMF), 1, NUM_COLS), 0, 0)).tolist()
SIZE = NUM_ROWS * NUM_COLS - (NUM_COLS - 1) * int(np.sum(np.isinf(SMF)))


@jax.jit
def pack_parameters(par_init, lower, upper):
    par = jnp.broadcast_to(par_init[:, None], (NUM_ROWS, NUM_COLS))
    par0 = jnp.zeros(SIZE)
    lb = jnp.zeros(SIZE)
    ub = jnp.zeros(SIZE)
    for i in range(NUM_ROWS):
        par0 = par0.at[KVALS[i]:KVALS[i + 1]].set(par[i, :KVALS[i + 1] - KVALS[i]])
        lb = lb.at[KVALS[i]:KVALS[i + 1]].set(lower[i])
        ub = ub.at[KVALS[i]:KVALS[i + 1]].set(upper[i])
    return par0, lb, ub


# --- oracle ---
def ENTRY():
    par_init = jnp.array([1.0, 2.0, 3.0, 4.0, 5.0])
    lower = jnp.full((NUM_ROWS,), 0.1)
    upper = jnp.full((NUM_ROWS,), 10.0)
    return pack_parameters, (par_init, lower, upper)
