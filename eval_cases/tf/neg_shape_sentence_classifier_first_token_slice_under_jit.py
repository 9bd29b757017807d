"""Source: https://github.com/tensorflow/tensorflow/issues/24412 ("TPU support is incomplete": training a custom Keras model with TPUStrategy on tf-nightly 2.0, the output layer's `return x[:, 0, :]`, the first token of the sequence, failed with "FetchOutputs node strided_slice/stack:0: not found"; moving the slice into the loss worked around it). No longer reproduces on TF 2.21: a strided slice of the first position compiles under XLA. Here a sentence classifier pools its encoder output by taking the first token inside the model and is trained in a jit-compiled step. (Transformer-style sentence classifier pooling the [CLS] position.)"""
import tensorflow as tf


class FirstTokenClassifier(tf.keras.Model):
    def __init__(self, vocab=50, dim=16, n_classes=3):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(vocab, dim)
        self.mix = tf.keras.layers.Dense(dim, activation="tanh")
        self.out = tf.keras.layers.Dense(n_classes)

    def call(self, ids):
        x = self.mix(self.embed(ids))
        cls = x[:, 0, :]
        return self.out(cls)


class Trainer:
    def __init__(self):
        self.model = FirstTokenClassifier()
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    @tf.function(jit_compile=True)
    def train_step(self, ids, labels):
        with tf.GradientTape() as tape:
            logits = self.model(ids)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    ids = tf.reshape(tf.range(4 * 7) % 50, [4, 7])
    return t.train_step, (ids, tf.constant([0, 1, 2, 1]))
