"""The return normalizer of tf2rl#99 with its history in a fixed-size tf.Variable window (a ring
buffer written at a position): every episode passes the same shapes, one trace and one
compilation.

Fix for keiohta/tf2rl#99 (https://github.com/keiohta/tf2rl/issues/99) in the form of its PR #100
(tensors, not Python objects, reach the graph functions), with a fixed window so the shape stays.
"""
import tensorflow as tf

WINDOW = 8


class ReturnNormalizer:
    def __init__(self):
        self.window = tf.Variable(tf.zeros([WINDOW]))
        self.count = tf.Variable(0)

    @tf.function(jit_compile=True)
    def normalized(self, episode_return):
        self.window.scatter_nd_update([[self.count % WINDOW]], [episode_return])
        self.count.assign_add(1)
        n = tf.cast(tf.minimum(self.count, WINDOW), tf.float32)
        mask = tf.cast(tf.range(WINDOW) < tf.minimum(self.count, WINDOW), tf.float32)
        mean = tf.reduce_sum(self.window * mask) / n
        var = tf.reduce_sum(tf.square(self.window - mean) * mask) / n
        return (episode_return - mean) / tf.sqrt(var + 1e-6)

    def end_episode(self, episode_return):
        return self.normalized(episode_return)


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
