"""Source: https://github.com/patrick-kidger/equinox/issues/640 ("Best way to check why a function is recompiled under `filter_jit`?": a step compiled twice because of type promotion on a leaf). Here the fix: the scalar parameter is created as an explicitly typed float32 array, so the model the step returns has exactly the leaf types it was given."""
import jax
import jax.numpy as jnp


def init_model(n_pix):
    return {"pupil": jnp.ones((n_pix, n_pix)), "log_flux": jnp.zeros((), jnp.float32)}


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
    return [({"pupil": jnp.full((4, 4), 0.99, jnp.float32), "log_flux": jnp.asarray(0.01, jnp.float32)}, *_inputs())]
