"""Source: https://github.com/google/lightweight_mmm/issues/198 (the jitted budget objective failed on a traced `jnp.array` budget; the check belongs outside the compiled objective, on the concrete budget, before optimisation starts). Here the media-mix objective is jitted without the Python check and the budget is validated eagerly in the caller."""
import jax
import jax.numpy as jnp


def hill_response(spend, half_saturation, slope):
    return spend ** slope / (spend ** slope + half_saturation ** slope)


@jax.jit
def _negative_kpi(media_share, budget, coefficients):
    spend = budget * jax.nn.softmax(media_share)
    return -jnp.sum(coefficients * hill_response(spend, 500.0, 1.5))


def negative_kpi(media_share, budget, lower_bounds, coefficients):
    if float(budget) < float(jnp.sum(lower_bounds)):
        raise ValueError("Budget given is smaller than the lower bounds of the constraints.")
    return _negative_kpi(media_share, budget, coefficients)


# --- oracle ---
WRAP = False


def ENTRY():
    return negative_kpi, (jnp.array([0.1, 0.5, -0.2]), jnp.array(2000.0), jnp.array([100.0, 200.0, 50.0]),
                          jnp.array([3.0, 1.5, 2.0]))
