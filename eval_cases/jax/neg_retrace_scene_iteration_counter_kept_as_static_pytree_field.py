"""Source: https://github.com/patrick-kidger/equinox/issues/1062 ("`filter_jit` cache missing issues when using non-array variables with an `equinox` class": scarlet2 kept an integer that changes during fitting as a plain int field of an `equinox.Module`; non-array fields are static, so the jitted `_make_step` recompiled whenever the value changed, from `MyModule(x=0)` to `MyModule(x=1)` and so on; turning the integers into arrays fixed it). This is that fix: the step counter is an int32 array data field. Here a source-fitting scene keeps its step counter as a field of a registered dataclass pytree and a fitter advances it through a jitted step."""
import dataclasses
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.tree_util.register_dataclass, data_fields=["morphology", "spectrum", "step"], meta_fields=[])
@dataclasses.dataclass
class Scene:
    morphology: jnp.ndarray
    spectrum: jnp.ndarray
    step: jnp.ndarray


def render(morphology, spectrum):
    return spectrum[:, None, None] * morphology[None, :, :]


@jax.jit
def _make_step(scene, observation, weights):
    def loss_fn(params):
        return jnp.sum(weights * (render(*params) - observation) ** 2)

    loss, (g_morph, g_spec) = jax.value_and_grad(loss_fn)((scene.morphology, scene.spectrum))
    lr = 0.05 / (1.0 + 0.01 * scene.step)
    return Scene(morphology=jnp.clip(scene.morphology - lr * g_morph, 0.0, None),
                 spectrum=scene.spectrum - lr * g_spec,
                 step=scene.step + 1), loss


class Fitter:
    def __init__(self, scene, weights):
        self.scene = scene
        self.weights = weights

    def fit(self, observation, max_iter=2):
        losses = []
        for _ in range(max_iter):
            self.scene, loss = _make_step(self.scene, observation, self.weights)
            losses.append(loss)
        return jnp.stack(losses), self.scene.spectrum


# --- oracle ---
WRAP = False


def _observation(shift):
    morph = jnp.exp(-((jnp.arange(5.0)[:, None] - 2.0) ** 2 + (jnp.arange(5.0)[None, :] - 2.0 - shift) ** 2))
    return jnp.array([1.0, 2.0, 0.5])[:, None, None] * morph[None]


def ENTRY():
    scene = Scene(morphology=jnp.full((5, 5), 0.5, jnp.float32), spectrum=jnp.ones(3), step=jnp.zeros((), jnp.int32))
    fitter = Fitter(scene, jnp.ones((3, 5, 5)))
    return fitter.fit, (_observation(0.0),)


def ALT_ARGS():
    return [(_observation(0.2),), (_observation(0.4),)]
