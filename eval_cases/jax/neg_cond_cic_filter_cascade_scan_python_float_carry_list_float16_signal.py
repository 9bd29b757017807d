"""Source: https://github.com/jax-ml/jax/pull/9046 ("generalize scan weak type handling to fixpoint": a `lax.scan` carry of weakly typed Python floats fed float16 inputs ends in a carry type mismatch; giving the carry the input dtype up front avoids it). Near miss: the jitted cascaded-integrator filter starts every stage as a float16 zero of the signal's dtype."""
import jax
import jax.numpy as jnp
from jax import lax

N_STAGES = 3


@jax.jit
def cic_integrate(signal):
    def stage(carry, x):
        new = [carry[0] + x] + [c + p for c, p in zip(carry[1:], carry[:-1])]
        return new, None

    state0 = [jnp.zeros((), signal.dtype) for _ in range(N_STAGES)]
    state, _ = lax.scan(stage, state0, signal)
    return state[-1]


# --- oracle ---
def ENTRY():
    signal = (0.1 * jnp.sin(jnp.arange(32) * 0.4)).astype(jnp.float16)
    return cic_integrate, (signal,)
