"""Source: https://github.com/keras-team/keras/pull/19122 (the XLA-friendly form of the same layer: densify the bag-of-words counts with `tf.scatter_nd` into a fixed `[batch, vocab]` shape and use a dense matmul inside the jit-compiled step). Bag-of-words classifier trained on dense counts."""
import tensorflow as tf

VOCAB = 30


class DenseLinear(tf.Module):
    def __init__(self, units):
        super().__init__()
        self.kernel = tf.Variable(tf.random.stateless_normal([VOCAB, units], seed=[3, 4]) * 0.1)
        self.bias = tf.Variable(tf.zeros([units]))

    def __call__(self, counts):
        return tf.matmul(counts, self.kernel) + self.bias


class Trainer:
    def __init__(self):
        self.layer = DenseLinear(2)
        self.optimizer = tf.keras.optimizers.SGD(0.1)
        self.optimizer.build(self.layer.trainable_variables)

    @tf.function(jit_compile=True)
    def train_step(self, indices, values, labels):
        counts = tf.scatter_nd(indices, values, shape=[2, VOCAB])
        with tf.GradientTape() as tape:
            logits = self.layer(counts)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
        grads = tape.gradient(loss, self.layer.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.layer.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    indices = tf.constant([[0, 3], [0, 7], [1, 2], [1, 19]], tf.int64)
    return t.train_step, (indices, tf.constant([2.0, 1.0, 1.0, 3.0]), tf.constant([1, 0]))
