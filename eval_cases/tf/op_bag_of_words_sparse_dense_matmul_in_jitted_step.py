"""Source: https://github.com/keras-team/keras/pull/19122 ("Fix TensorFlow sparse tests on GPU": some TensorFlow sparse operations are not supported with XLA, so jit compilation is turned off for the sparse-tensor tests of the TensorFlow backend). Here a bag-of-words classifier whose input is a `tf.sparse.SparseTensor` multiplied into a dense weight with `tf.sparse.sparse_dense_matmul` inside a jit-compiled training step."""
import tensorflow as tf

VOCAB = 30


class SparseLinear(tf.Module):
    def __init__(self, units):
        super().__init__()
        self.kernel = tf.Variable(tf.random.stateless_normal([VOCAB, units], seed=[3, 4]) * 0.1)
        self.bias = tf.Variable(tf.zeros([units]))

    def __call__(self, counts):
        return tf.sparse.sparse_dense_matmul(counts, self.kernel) + self.bias  # XLA: op


class Trainer:
    def __init__(self):
        self.layer = SparseLinear(2)
        self.optimizer = tf.keras.optimizers.SGD(0.1)
        self.optimizer.build(self.layer.trainable_variables)

    @tf.function(jit_compile=True)
    def train_step(self, indices, values, labels):
        counts = tf.sparse.SparseTensor(indices, values, dense_shape=[2, VOCAB])
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
