"""Source: https://github.com/energnn/energnn/pull/75 ("Perf/speedup trainer jit caching": "Cache JIT-compiled forward+VJP and optimizer-update functions once in `Trainer.__init__` instead of rebuilding them inside every `training_step`"). Here the fixed trainer: the jitted loss-and-gradient is a module-level function taking the batch as arguments, so every step and every trainer reuse one compiled program."""
import jax
import jax.numpy as jnp


def message_passing(params, node_feats, adjacency):
    h = jnp.tanh(node_feats @ params["w_in"])
    h = h + adjacency @ h @ params["w_msg"]
    return jnp.sum(h @ params["w_out"], axis=-1)


def _loss(p, node_feats, adjacency, target):
    return jnp.mean((message_passing(p, node_feats, adjacency) - target) ** 2)


_loss_and_grad = jax.jit(jax.value_and_grad(_loss))


class Trainer:
    def __init__(self, params, lr=0.05):
        self.params = params
        self.lr = lr

    def training_step(self, node_feats, adjacency, target):
        value, grads = _loss_and_grad(self.params, node_feats, adjacency, target)
        self.params = jax.tree_util.tree_map(lambda p, g: p - self.lr * g, self.params, grads)
        return value


def train(params, batches):
    trainer = Trainer(params)
    losses = [trainer.training_step(*b) for b in batches]
    return jnp.stack(losses)


# --- oracle ---
WRAP = False


def _params():
    return {"w_in": jnp.full((3, 4), 0.1), "w_msg": jnp.eye(4) * 0.5, "w_out": jnp.full((4, 1), 0.2)}


def _batches(shift):
    adj = jnp.array([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
    feats = jnp.linspace(-1.0 + shift, 1.0 + shift, 9).reshape(3, 3)
    return [(feats, adj, jnp.array([0.1, 0.2, 0.3])), (feats * 0.5, adj, jnp.array([0.0, 0.1, 0.0]))]


def ENTRY():
    return train, (_params(), _batches(0.0))


def ALT_ARGS():
    return [(_params(), _batches(0.2))]
