"""Source: https://github.com/jax-ml/jax/pull/9046 ("generalize scan weak type handling to fixpoint": a `lax.scan` whose carry is a list of weakly typed Python floats `[0.] * N`, fed float16 inputs, crashes with a carry type mismatch when N > 1, because each stage only becomes float16 one iteration after the stage before it). Here a jitted cascaded-integrator (CIC) filter runs a float16 audio signal through three integrator stages whose state starts as `[0.0] * N_STAGES`."""
import jax
import jax.numpy as jnp
from jax import lax

N_STAGES = 3


@jax.jit
def cic_integrate(signal):
    def stage(carry, x):
        new = [carry[0] + x] + [c + p for c, p in zip(carry[1:], carry[:-1])]
        return new, None

    state0 = [0.0] * N_STAGES
    state, _ = lax.scan(stage, state0, signal)  # XLA: cond
    return state[-1]


# --- oracle ---
def ENTRY():
    signal = (0.1 * jnp.sin(jnp.arange(32) * 0.4)).astype(jnp.float16)
    return cic_integrate, (signal,)
