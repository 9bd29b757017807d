"""Source: https://github.com/huggingface/diffusers/pull/3833 (a derivative history that grows inside `fori_loop` breaks the loop's fixed carry shapes; "I have hardcoded the shape to the correct value"). Here the sampler keeps a fixed-size history of `order` derivatives, rolled each step, with a count of the valid entries, so the carry keeps its shape."""
import jax
import jax.numpy as jnp


def denoiser(params, latents, sigma):
    return jnp.tanh(latents @ params["w"]) * sigma


def lms_sample(params, latents, sigmas, order=3):
    def loop_body(step, carry):
        latents, derivatives, count = carry
        sigma = sigmas[step]
        derivative = (latents - denoiser(params, latents, sigma)) / sigma
        derivatives = jnp.roll(derivatives, -1, axis=0).at[-1].set(derivative)
        count = jnp.minimum(count + 1, order)
        valid = (jnp.arange(order) >= order - count)[:, None, None]
        coeff = jnp.sum(jnp.where(valid, derivatives, 0.0), axis=0) / count
        latents = latents + coeff * (sigmas[step + 1] - sigma)
        return latents, derivatives, count

    derivatives = jnp.zeros((order,) + latents.shape)
    latents, _, _ = jax.lax.fori_loop(0, sigmas.shape[0] - 1, loop_body, (latents, derivatives, 0))
    return latents


# --- oracle ---
def ENTRY():
    params = {"w": jnp.eye(4) * 0.8}
    latents = jnp.linspace(-1.0, 1.0, 8).reshape(2, 4)
    return lms_sample, (params, latents, jnp.linspace(1.0, 0.1, 6))
