"""Source: https://github.com/ChrisWaites/jax-flows/issues/1 (fix twin: the reporter's own package computes the spline for all inputs and then replaces the out-of-bound outputs, so nothing is gathered with a boolean mask). The same jitted coupling-flow likelihood transforms every input and selects the spline or the identity with `jnp.where`. (Piecewise-linear spline coupling layer of a normalizing flow.)"""
import jax
import jax.numpy as jnp

BOUND = 3.0
BINS = 4


def spline_forward(x, widths, heights):
    edges_x = jnp.concatenate([jnp.array([-BOUND]), -BOUND + 2 * BOUND * jnp.cumsum(widths)])
    edges_y = jnp.concatenate([jnp.array([-BOUND]), -BOUND + 2 * BOUND * jnp.cumsum(heights)])
    idx = jnp.clip(jnp.searchsorted(edges_x, x) - 1, 0, BINS - 1)
    slope = heights[idx] / widths[idx]
    return edges_y[idx] + slope * (x - edges_x[idx]), jnp.log(slope)


def unconstrained_spline(x, widths, heights):
    inside = (x >= -BOUND) & (x <= BOUND)
    y_all, logdet_all = spline_forward(x, widths, heights)
    return jnp.where(inside, y_all, x), jnp.where(inside, logdet_all, 0.0)


@jax.jit
def flow_nll(params, x):
    cond, trans = x[:, :1], x[:, 1:]
    logits_w = cond @ params["w"]
    logits_h = cond @ params["h"]
    widths = jax.nn.softmax(jnp.mean(logits_w, axis=0))
    heights = jax.nn.softmax(jnp.mean(logits_h, axis=0))
    z, logdet = unconstrained_spline(trans, widths, heights)
    return jnp.mean(0.5 * jnp.sum(z ** 2, axis=1) - jnp.sum(logdet, axis=1))


# --- oracle ---
def ENTRY():
    params = {"w": jnp.linspace(-0.5, 0.5, BINS).reshape(1, BINS), "h": jnp.linspace(0.3, -0.3, BINS).reshape(1, BINS)}
    x = jnp.stack([jnp.linspace(-1.0, 1.0, 8), jnp.linspace(-4.0, 4.0, 8)], axis=1)
    return flow_nll, (params, x)
