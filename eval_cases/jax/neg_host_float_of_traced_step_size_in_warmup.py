"""Source: https://github.com/blackjax-devs/blackjax/issues/1029 (the fix: pass the moving-average step size on as an array; originally: "chees_adaptation: float() on a traced step_size makes mass_matrix_estimation unusable under jit": `_apply_length_floor(..., float(step_size_ma))` where `step_size_ma = jnp.exp(log_step_size_moving_average)` is a tracer when the warmup is jitted, so it raises `ConcretizationTypeError`). Here the warmup passes `step_size_ma` without `float()`."""
import jax
import jax.numpy as jnp


def apply_length_floor(trajectory_length, lambda_max, floor_scale, max_steps, step_size):
    floor = floor_scale / jnp.sqrt(lambda_max)
    capped = jnp.minimum(jnp.maximum(trajectory_length, floor), max_steps * step_size)
    return capped, capped < floor


@jax.jit
def finish_warmup(log_step_size_ma, trajectory_length_ma, inverse_mass):
    step_size_ma = jnp.exp(log_step_size_ma)
    lambda_max = jnp.max(1.0 / inverse_mass)
    length, clipped = apply_length_floor(
        trajectory_length_ma, lambda_max, 0.5, 64, step_size_ma
    )
    n_leapfrog = jnp.ceil(length / step_size_ma).astype(jnp.int32)
    return step_size_ma, length, n_leapfrog, clipped


# --- oracle ---
def ENTRY():
    return finish_warmup, (jnp.log(0.1), jnp.float32(1.3), jnp.array([0.5, 1.0, 2.0]))
