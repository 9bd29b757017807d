"""Source: https://github.com/tensorflow/tensorflow/issues/32240 (TPU has unsupported tensorflow op "LogUniformCandidateSampler" using XLA: NCE loss of an NLP model), here a word2vec step that still calls the TF1 tf.compat.v1.nn.nce_loss, compiled with jit_compile=True."""
import tensorflow as tf


class SkipGram:
    def __init__(self, vocab=20, dim=4):
        self.embed = tf.Variable(tf.random.stateless_uniform([vocab, dim], seed=(1, 2)))
        self.nce_w = tf.Variable(tf.random.stateless_uniform([vocab, dim], seed=(3, 4)))
        self.nce_b = tf.Variable(tf.zeros([vocab]))
        self.opt = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def step(self, centers, contexts):
        with tf.GradientTape() as tape:
            vectors = tf.nn.embedding_lookup(self.embed, centers)
            loss = tf.reduce_mean(tf.compat.v1.nn.nce_loss(  # XLA: op
                self.nce_w, self.nce_b, contexts, vectors, num_sampled=3, num_classes=20))
        variables = [self.embed, self.nce_w, self.nce_b]
        self.opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False
COMPARE = False


def ENTRY():
    t = SkipGram()
    _KEEP.append(t)
    return t.step, (tf.constant([1, 2, 3]), tf.constant([[2], [3], [4]], tf.int64))
