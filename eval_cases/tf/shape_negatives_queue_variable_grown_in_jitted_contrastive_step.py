"""Source: https://github.com/tensorflow/tensorflow/issues/35667 ("assign() got an unexpected keyword argument 'validate_shape'": in TF2 a variable may only change shape if it was created with `shape=tf.TensorShape(None)`). Here a MoCo-style contrastive step keeps its queue of negative keys in such a variable, starting empty and growing by each batch's keys (`assign(tf.concat(...)[:QUEUE])`) until it is full, inside the jit-compiled step."""
import tensorflow as tf

DIM, QUEUE = 4, 6


class ContrastiveQueue:
    def __init__(self):
        self.encoder = tf.keras.layers.Dense(DIM)
        self.encoder.build((None, 3))
        self.queue = tf.Variable(tf.zeros([0, DIM]), shape=tf.TensorShape(None), trainable=False)

    @tf.function(jit_compile=True)
    def step(self, x_q, x_k):
        q = tf.math.l2_normalize(self.encoder(x_q), axis=-1)
        k = tf.math.l2_normalize(self.encoder(x_k), axis=-1)
        pos = tf.reduce_sum(q * k, axis=-1, keepdims=True)
        neg = tf.matmul(q, self.queue, transpose_b=True)
        logits = tf.concat([pos, neg], axis=1) / 0.1
        loss = tf.reduce_mean(tf.reduce_logsumexp(logits, axis=1) - logits[:, 0])
        self.queue.assign(tf.concat([k, self.queue], axis=0)[:QUEUE])  # XLA: shape
        return loss


# --- oracle ---
_KEEP = []


def _x(k):
    return tf.reshape(tf.range(2 * 3, dtype=tf.float32) + k, [2, 3]) / 6.0


def ENTRY():
    model = ContrastiveQueue()
    _KEEP.append(model)
    return model.step, (_x(0.0), _x(1.0))


def ALT_ARGS():
    return [(_x(2.0), _x(3.0)), (_x(4.0), _x(5.0))]


WRAP = False
