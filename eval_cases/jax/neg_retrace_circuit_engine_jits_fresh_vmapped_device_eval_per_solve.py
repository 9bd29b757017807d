"""Source: https://github.com/ChipFlow/vajax/issues/17 ("JAX function recompilation causing unnecessary XLA compilation overhead"; the proposed fix: build and cache the compiled device-evaluation function once instead of re-creating it per call). Here the same DC solver builds its `jax.jit(jax.vmap(...))` once, in the engine's constructor, and reuses it in every solve."""
import jax
import jax.numpy as jnp


def diode_current(v, i_s, n_vt):
    return i_s * (jnp.exp(v / n_vt) - 1.0)


class CircuitEngine:
    def __init__(self, i_s, n_vt, conductance):
        self.i_s, self.n_vt, self.g = i_s, n_vt, conductance
        self.eval_devices = jax.jit(jax.vmap(diode_current, in_axes=(0, 0, None)))

    def solve(self, v_source, v_guess):
        v = v_guess
        for _ in range(4):
            i_d = self.eval_devices(v, self.i_s, self.n_vt)
            di = self.eval_devices(v + 1e-4, self.i_s, self.n_vt) - i_d
            residual = self.g * (v_source - v) - i_d
            v = v + residual / (self.g + di / 1e-4)
        return v


# --- oracle ---
WRAP = False
_KEEP = []


def ENTRY():
    eng = CircuitEngine(jnp.array([1e-12, 2e-12, 5e-13]), 0.026, 1e-2)
    _KEEP.append(eng)
    return eng.solve, (jnp.array([1.0, 1.2, 0.9]), jnp.full((3,), 0.6))


def ALT_ARGS():
    return [(jnp.array([1.1, 1.0, 0.8]), jnp.full((3,), 0.6)), (jnp.array([0.9, 1.3, 1.0]), jnp.full((3,), 0.6))]
