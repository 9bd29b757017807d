"""Source: https://github.com/keras-team/keras-hub/pull/1137 (the fix made in the port: compute the rotary dimension with Python arithmetic, `int(head_dim * rotary_pct)`, so the `arange` bound stays static; originally: "Ports GPTNeoX to KerasCore": on the JAX backend the rotary embedding's `ops.arange(0, rotary_dim, 2, "float32")` fails under `jit` with `ConcretizationTypeError ... It arose in the jnp.arange argument 'stop'`, because `rotary_dim` was computed with a tensor op from the head size and the rotary percentage, which makes it a tracer). Here the rotary dimension is a Python int."""
import jax
import jax.numpy as jnp

HEAD_DIM = 16
ROTARY_PCT = 0.5


def rotary_cos_sin(seq_len, head_dim, rotary_pct, max_wavelength=10000.0):
    rotary_dim = int(head_dim * rotary_pct)
    inv_freq = 1.0 / max_wavelength ** (jnp.arange(0, rotary_dim, 2, dtype=jnp.float32) / rotary_dim)
    t = jnp.arange(seq_len, dtype=jnp.float32)
    freqs = jnp.einsum("i,j->ij", t, inv_freq)
    emb = jnp.concatenate([freqs, freqs], axis=-1)
    return jnp.cos(emb), jnp.sin(emb)


def apply_rotary(x, cos, sin):
    rot = cos.shape[-1]
    x_rot, x_pass = x[..., :rot], x[..., rot:]
    half = rot // 2
    rotated = jnp.concatenate([-x_rot[..., half:], x_rot[..., :half]], axis=-1)
    return jnp.concatenate([x_rot * cos + rotated * sin, x_pass], axis=-1)


@jax.jit
def attention_scores(q, k):
    cos, sin = rotary_cos_sin(q.shape[0], HEAD_DIM, ROTARY_PCT)
    q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
    return jax.nn.softmax(q @ k.T / jnp.sqrt(HEAD_DIM), axis=-1)


# --- oracle ---
def ENTRY():
    q = jnp.linspace(-1.0, 1.0, 6 * HEAD_DIM).reshape(6, HEAD_DIM)
    return attention_scores, (q, q[::-1])
