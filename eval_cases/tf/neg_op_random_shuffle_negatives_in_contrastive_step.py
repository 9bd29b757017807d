"""Source: https://github.com/tensorflow/tensorflow/issues/52277 (`tf.random.shuffle` inside a jit-compiled function: the reporter saw the same permutation on every run under XLA; here a contrastive loss draws its negatives by shuffling the batch inside the compiled training step; on TF 2.21 XLA:CPU the step compiles and runs, the report does not reproduce as a failure)."""
import tensorflow as tf


class ContrastiveTrainer:
    def __init__(self):
        self.encoder = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(4)])
        self.encoder.build([None, 6])
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, anchors, positives):
        with tf.GradientTape() as tape:
            za = tf.math.l2_normalize(self.encoder(anchors), axis=-1)
            zp = tf.math.l2_normalize(self.encoder(positives), axis=-1)
            zn = tf.random.shuffle(zp)
            pos = tf.reduce_sum(za * zp, axis=-1)
            neg = tf.reduce_sum(za * zn, axis=-1)
            loss = tf.reduce_mean(tf.nn.relu(0.5 - pos + neg))
        grads = tape.gradient(loss, self.encoder.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.encoder.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False
COMPARE = False


def ENTRY():
    t = ContrastiveTrainer()
    _KEEP.append(t)
    x = tf.reshape(tf.range(48, dtype=tf.float32), [8, 6]) / 48.0
    return t.train_step, (x, x + 0.01)
