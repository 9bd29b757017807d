"""An RL agent normalizes each episode's return against the history of returns, kept in a Python
list on the agent and passed whole to a compiled function: the list is one item longer after
every episode, so every episode traces and compiles the normalizer again.

Rebuilt from keiohta/tf2rl#99 (https://github.com/keiohta/tf2rl/issues/99), "A lot of warning for
tf.function retracing" in an RL library, fixed in keiohta/tf2rl#100 by passing tensors "instead
of pure Python object[s]" to the graph functions.
"""
import tensorflow as tf


class ReturnNormalizer:
    def __init__(self):
        self.episode_returns = []

    @tf.function(jit_compile=True)
    def normalized(self, returns):
        history = tf.stack(returns)
        mean, var = tf.nn.moments(history, axes=[0])
        return (history[-1] - mean) / tf.sqrt(var + 1e-6)

    def end_episode(self, episode_return):
        self.episode_returns.append(episode_return)
        return self.normalized(self.episode_returns)  # XLA: retrace


def run_episodes(normalizer, returns):
    return [normalizer.end_episode(r) for r in returns]


# --- oracle ---
WRAP = False
_KEEP = []


def ENTRY():
    normalizer = ReturnNormalizer()
    _KEEP.append(normalizer)
    return (lambda rs: run_episodes(normalizer, rs)), ([tf.constant(1.0), tf.constant(3.0)],)


def ALT_ARGS():
    return [([tf.constant(2.0), tf.constant(5.0)],)]
