"""Source: https://github.com/huggingface/diffusers/pull/3833 ("[WIP] Make FlaxLMSDiscreteScheduler jittable": in the Flax stable-diffusion pipeline the `loop_body` run by `jax.lax.fori_loop` must return the same shapes it takes, "However this was not the case ... since the "latents" variable contains an array ("derivatives") whose length increases over time up to size "order"... this raises an error when its size increases"). Here a linear-multistep sampler keeps its derivative history in the `fori_loop` carry and appends to it each step."""
import jax
import jax.numpy as jnp


def denoiser(params, latents, sigma):
    return jnp.tanh(latents @ params["w"]) * sigma


def lms_sample(params, latents, sigmas, order=3):
    def loop_body(step, carry):
        latents, derivatives = carry
        sigma = sigmas[step]
        derivative = (latents - denoiser(params, latents, sigma)) / sigma
        derivatives = jnp.concatenate([derivatives, derivative[None]], axis=0)[-order:]  # XLA: shape
        coeff = jnp.mean(derivatives, axis=0)
        latents = latents + coeff * (sigmas[step + 1] - sigma)
        return latents, derivatives

    derivatives = jnp.zeros((0,) + latents.shape)
    latents, _ = jax.lax.fori_loop(0, sigmas.shape[0] - 1, loop_body, (latents, derivatives))
    return latents


# --- oracle ---
def ENTRY():
    params = {"w": jnp.eye(4) * 0.8}
    latents = jnp.linspace(-1.0, 1.0, 8).reshape(2, 4)
    return lms_sample, (params, latents, jnp.linspace(1.0, 0.1, 6))
