"""Source: https://github.com/google/lightweight_mmm/issues/198 (`optimize_media.find_optimal_budgets(..., budget=jnp.array(budget), ...)` fails with ConcretizationTypeError "Abstract tracer value encountered where concrete value is expected" once the budget is an array that the jitted objective traces). Here a media-mix budget objective is jitted with the budget as a traced argument and validates it with a Python `if` against the lower bounds."""
import jax
import jax.numpy as jnp


def hill_response(spend, half_saturation, slope):
    return spend ** slope / (spend ** slope + half_saturation ** slope)


@jax.jit
def negative_kpi(media_share, budget, lower_bounds, coefficients):
    if budget < jnp.sum(lower_bounds):  # XLA: cond
        raise ValueError("Budget given is smaller than the lower bounds of the constraints.")
    spend = budget * jax.nn.softmax(media_share)
    return -jnp.sum(coefficients * hill_response(spend, 500.0, 1.5))


# --- oracle ---
def ENTRY():
    return negative_kpi, (jnp.array([0.1, 0.5, -0.2]), jnp.array(2000.0), jnp.array([100.0, 200.0, 50.0]),
                          jnp.array([3.0, 1.5, 2.0]))
