"""Source: https://github.com/patrick-kidger/equinox/issues/640 ("Best way to check why a function is recompiled under `filter_jit`?": "this step function is compiling _twice_. I assume this is due to some type promotion on a leaf"; the shapes and dtypes of the model's array leaves did not differ before and after a step). Here an optical-model fit keeps a scalar parameter initialised as a Python float; the Adam-style update of the jitted step (bias corrections from an int32 step count) returns it as a strongly typed float32 array, so the second step sees a different type and compiles again (and the moments, created weakly typed by `zeros_like`, once more at the third)."""
import jax
import jax.numpy as jnp


def init_model(n_pix):
    return {"pupil": jnp.ones((n_pix, n_pix)), "log_flux": 0.0}  # XLA: retrace


def init_adam(model):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, model)
    return {"mu": zeros, "nu": zeros, "count": jnp.zeros((), jnp.int32)}


def psf(model, aberration):
    field = model["pupil"] * jnp.exp(1j * aberration)
    intensity = jnp.abs(jnp.fft.fft2(field)) ** 2
    return jnp.exp(model["log_flux"]) * intensity / jnp.sum(intensity)


def loss_fn(model, aberration, data):
    return jnp.mean((psf(model, aberration) - data) ** 2)


@jax.jit
def step_fn(model, opt_state, aberration, data):
    loss, grads = jax.value_and_grad(loss_fn)(model, aberration, data)
    count = opt_state["count"] + 1
    mu = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, opt_state["mu"], grads)
    nu = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, opt_state["nu"], grads)
    c1 = 1 - 0.9 ** count
    c2 = 1 - 0.999 ** count
    model = jax.tree_util.tree_map(lambda p, m, v: p - 0.01 * (m / c1) / (jnp.sqrt(v / c2) + 1e-8), model, mu, nu)
    return model, {"mu": mu, "nu": nu, "count": count}, loss


def fit(aberration, data, n_steps=4):
    model = init_model(aberration.shape[0])
    opt_state = init_adam(model)
    for _ in range(n_steps):
        model, opt_state, loss = step_fn(model, opt_state, aberration, data)
    return model, loss


# --- oracle ---
def _inputs():
    ab = jnp.linspace(-0.3, 0.3, 16).reshape(4, 4)
    return ab, jnp.full((4, 4), 1.0 / 16, jnp.float32)


def ENTRY():
    model = init_model(4)
    return step_fn, (model, init_adam(model), *_inputs())


def _f32(v):
    return jnp.asarray(v, jnp.float32)


def ALT_ARGS():
    # the model and optimizer state as the first and the second step hand them back
    model = {"pupil": jnp.full((4, 4), 0.99, jnp.float32), "log_flux": _f32(0.01)}
    weak_moments = {"pupil": jnp.full((4, 4), 0.001, jnp.float32), "log_flux": jnp.asarray(0.001)}
    moments = {"pupil": jnp.full((4, 4), 0.001, jnp.float32), "log_flux": _f32(0.001)}
    state1 = {"mu": weak_moments, "nu": weak_moments, "count": jnp.asarray(1, jnp.int32)}
    state2 = {"mu": moments, "nu": moments, "count": jnp.asarray(2, jnp.int32)}
    return [(model, state1, *_inputs()), (model, state2, *_inputs())]
