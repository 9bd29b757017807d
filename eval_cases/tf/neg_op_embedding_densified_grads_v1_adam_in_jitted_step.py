"""Source: https://github.com/tensorflow/tensorflow/issues/28317 (the workaround named in the thread: make the embedding gradient dense before the optimizer sees it, so no `IndexedSlices` reach `_deduplicate_indexed_slices` and no `Unique` is emitted). Next-item recommender trained with `tf.compat.v1.train.AdamOptimizer`, gradients densified with `tf.convert_to_tensor`."""
import tensorflow as tf

NUM_ITEMS = 40
DIM = 8


class NextItemModel(tf.Module):
    def __init__(self):
        super().__init__()
        init = tf.random.stateless_normal([NUM_ITEMS, DIM], seed=[1, 2]) * 0.1
        self.item_embeddings = tf.Variable(init, name="item_embeddings")
        self.output_bias = tf.Variable(tf.zeros([NUM_ITEMS]), name="output_bias")

    def __call__(self, history):
        session = tf.reduce_mean(tf.gather(self.item_embeddings, history), axis=1)
        return tf.matmul(session, self.item_embeddings, transpose_b=True) + self.output_bias


class Trainer:
    def __init__(self):
        self.model = NextItemModel()
        self.optimizer = tf.compat.v1.train.AdamOptimizer(1e-2)
        self.variables = [self.model.item_embeddings, self.model.output_bias]
        zeros = [tf.zeros_like(v) for v in self.variables]
        self.optimizer.apply_gradients(zip(zeros, self.variables))

    @tf.function(jit_compile=True)
    def train_step(self, history, next_item):
        with tf.GradientTape() as tape:
            logits = self.model(history)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(next_item, logits))
        grads = [tf.convert_to_tensor(g) for g in tape.gradient(loss, self.variables)]
        self.optimizer.apply_gradients(zip(grads, self.variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    history = tf.constant([[1, 5, 5, 9], [3, 3, 7, 2]])
    return t.train_step, (history, tf.constant([4, 11]))
