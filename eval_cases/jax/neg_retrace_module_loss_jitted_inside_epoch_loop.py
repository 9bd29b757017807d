"""Source: https://github.com/patrick-kidger/equinox/issues/1141 (the answer to "jax loops use": `jax.jit(fun_name)` of one module-level function inside the loop is looked up in the jit cache by the function object, so the loop compiles the step once; only a new function per iteration recompiles). Here the epoch loop jits the module-level step function each epoch."""
import jax
import jax.numpy as jnp


def mlp(params, x):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def mse(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


loss_and_grad = jax.value_and_grad(mse)


def fit(params, x, y, epochs=3, lr=0.05):
    for _ in range(epochs):
        step = jax.jit(loss_and_grad)
        loss, grads = step(params, x, y)
        params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return loss, params


# --- oracle ---
WRAP = False


def _params():
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    return {"w1": 0.1 * jax.random.normal(k1, (3, 8)), "b1": jnp.zeros(8),
            "w2": 0.1 * jax.random.normal(k2, (8, 1)), "b2": jnp.zeros(1)}


def ENTRY():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    return fit, (_params(), x, jnp.sum(x, axis=1, keepdims=True))


def ALT_ARGS():
    x = jnp.linspace(-0.5, 1.5, 12).reshape(4, 3)
    return [(_params(), x, jnp.sum(x, axis=1, keepdims=True))]
