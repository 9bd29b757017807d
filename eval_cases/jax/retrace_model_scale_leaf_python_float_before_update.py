"""Source: https://github.com/patrick-kidger/equinox/issues/640 ("Best way to check why a function is recompiled under `filter_jit`?": "this step function is compiling _twice_. I assume this is due to some type promotion on a leaf"; the shapes and dtypes of the model's array leaves did not differ before and after a step). Here an optical-model fit keeps a scalar parameter initialised as a Python float; the first jitted step returns it as a float32 array, so the second step sees a different (non-weak) type and compiles again."""
import jax
import jax.numpy as jnp


def init_model(n_pix):
    return {"pupil": jnp.ones((n_pix, n_pix)), "log_flux": 0.0}  # XLA: retrace


def psf(model, aberration):
    field = model["pupil"] * jnp.exp(1j * aberration)
    intensity = jnp.abs(jnp.fft.fft2(field)) ** 2
    return jnp.exp(model["log_flux"]) * intensity / jnp.sum(intensity)


def loss_fn(model, aberration, data):
    return jnp.mean((psf(model, aberration) - data) ** 2)


@jax.jit
def step_fn(model, aberration, data):
    loss, grads = jax.value_and_grad(loss_fn)(model, aberration, data)
    model = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, model, grads)
    return model, loss


def fit(aberration, data, n_steps=4):
    model = init_model(aberration.shape[0])
    for _ in range(n_steps):
        model, loss = step_fn(model, aberration, data)
    return model, loss


# --- oracle ---
def _inputs():
    ab = jnp.linspace(-0.3, 0.3, 16).reshape(4, 4)
    return ab, jnp.full((4, 4), 1.0 / 16, jnp.float32)


def ENTRY():
    return step_fn, (init_model(4), *_inputs())


def ALT_ARGS():
    # the model the first step hands back: log_flux is now a float32 array
    return [({"pupil": jnp.full((4, 4), 0.99, jnp.float32), "log_flux": jnp.asarray(0.01, jnp.float32)}, *_inputs())]
