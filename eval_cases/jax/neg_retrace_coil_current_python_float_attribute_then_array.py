"""Source: https://github.com/PlasmaControl/DESC/pull/1963 (the fix: store the attributes as arrays of the final dtype instead of `float()`; originally: "Prevent weak type promotion to reduce recompilation", resolving DESC#1581: attributes of optimizable objects are cast with `float()`, a Python value that JAX traces as weakly typed, and once the optimizer writes back an array the jitted objective compiles again). Here the coil stores its current as a float32 array."""
import jax
import jax.numpy as jnp


class Coil:
    def __init__(self, current, radius):
        self.current = jnp.asarray(current, jnp.float32)
        self.radius = jnp.asarray(radius, jnp.float32)

    def params(self):
        return {"current": self.current, "radius": self.radius}


@jax.jit
def field_error(params, points, target):
    r = jnp.sqrt(jnp.sum(points ** 2, axis=-1) + params["radius"] ** 2)
    b = params["current"] * params["radius"] ** 2 / (2.0 * r ** 3)
    return jnp.mean((b - target) ** 2)


grad_fn = jax.jit(jax.grad(field_error))


def optimize(coil, points, target, steps=3, lr=0.1):
    for _ in range(steps):
        loss = field_error(coil.params(), points, target)
        g = grad_fn(coil.params(), points, target)
        coil.current = coil.current - lr * g["current"]
        coil.radius = coil.radius - lr * g["radius"]
    return loss


# --- oracle ---
def ENTRY():
    points = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    return field_error, (Coil(2.0, 1.5).params(), points, jnp.full(4, 0.2))


def ALT_ARGS():
    points = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    params = {"current": jnp.asarray(1.97, jnp.float32), "radius": jnp.asarray(1.49, jnp.float32)}
    return [(params, points, jnp.full(4, 0.2))]
