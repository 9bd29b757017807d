"""Source: https://github.com/PlasmaControl/DESC/pull/1963 ("Prevent weak type promotion to reduce recompilation", resolving DESC#1581: attributes of optimizable objects are cast with `float()`, a Python value that JAX traces as weakly typed, and once the optimizer writes back an array the jitted objective compiles again). Here a magnetic coil stores its current with `float()` and the optimizer writes back `current - lr * grad`, but that array is weakly typed too (the gradient of a weakly typed input is weakly typed, and so is its difference with a Python float), so the objective compiles once when driven by its own loop (measured, jax 0.10.2). Was `retrace_coil_current_python_float_attribute_then_array`, whose ALT_ARGS fed back a hand-built strongly typed current that the loop never writes."""
import jax
import jax.numpy as jnp


class Coil:
    def __init__(self, current, radius):
        self.current = float(current)
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
    # the parameters the optimisation loop really writes back after one step (grad_fn's own gradient)
    points = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    target = jnp.full(4, 0.2)
    coil = Coil(2.0, 1.5)
    g = grad_fn(coil.params(), points, target)
    coil.current = coil.current - 0.1 * g["current"]
    coil.radius = coil.radius - 0.1 * g["radius"]
    return [(coil.params(), points, target)]
