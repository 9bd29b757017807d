"""Source: https://github.com/google-deepmind/tapnet/issues/44 ("what is going on when recompilation happens in a for loop": the jitted model.apply is called once per video and each video has a different number of frames, so every new length compiles again)."""
import jax
import jax.numpy as jnp


@jax.jit
def track_points(params, frames, query_points):  # XLA: retrace
    features = jnp.tanh(frames.reshape(frames.shape[0], -1) @ params)
    return query_points @ features.T


# --- oracle ---
def _video(n_frames):
    return jnp.arange(n_frames * 4 * 4, dtype=jnp.float32).reshape(n_frames, 4, 4) / (16.0 * n_frames)


def ENTRY():
    return track_points, (jnp.ones((16, 3)) * 0.1, _video(5), jnp.ones((2, 3)))


def ALT_ARGS():
    return [(jnp.ones((16, 3)) * 0.1, _video(7), jnp.ones((2, 3))),
            (jnp.ones((16, 3)) * 0.1, _video(6), jnp.ones((2, 3)))]
