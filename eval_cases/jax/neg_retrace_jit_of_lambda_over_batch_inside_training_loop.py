"""Source: https://github.com/jax-ml/jax/pull/1605 (the pattern that avoids it: jit the loss gradient once and pass the batch as an argument; originally: "fix a leak where compiled results lived too long": the reproduction rebinds `f = jit(lambda: 1. * np.ones((300, 1024, 1024)))` at every iteration of a loop; each new lambda is a new function to `jit`, so every iteration traces and compiles again and, before the fix, kept its cache entry alive). Here the gradient is jitted once at module level."""
import jax
import jax.numpy as jnp


def mse_loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


grad_fn = jax.jit(jax.grad(mse_loss))


def train(w, xs, ys, lr=0.1):
    for i in range(xs.shape[0]):
        x, y = xs[i], ys[i]
        w = w - lr * grad_fn(w, x, y)
    return w


# --- oracle ---
WRAP = False


def ENTRY():
    xs = jnp.linspace(-1.0, 1.0, 36).reshape(3, 4, 3)
    return train, (jnp.zeros(3), xs, jnp.ones((3, 4)))


def ALT_ARGS():
    xs = jnp.linspace(-0.5, 1.5, 36).reshape(3, 4, 3)
    return [(jnp.zeros(3), xs, jnp.ones((3, 4)))]
