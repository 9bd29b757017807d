"""Source: https://github.com/tensorflow/similarity/issues/240 (SimCLR's contrastive loss builds `tf.one_hot(tf.range(batch), 2 * batch)` from `tf.shape(h)[0]`; on TPU with an unknown batch dimension OneHot's depth was not a compile-time constant. With the batch size known at trace time, as in this compiled step, the depth folds to a constant and the loss compiles)."""
import tensorflow as tf


def nt_xent_loss(h1, h2, temperature=0.5):
    batch = tf.shape(h1)[0]
    h1 = tf.math.l2_normalize(h1, axis=1)
    h2 = tf.math.l2_normalize(h2, axis=1)
    labels = tf.one_hot(tf.range(batch), batch * 2)
    masks = tf.one_hot(tf.range(batch), batch)
    logits_aa = tf.matmul(h1, h1, transpose_b=True) / temperature - masks * 1e9
    logits_ab = tf.matmul(h1, h2, transpose_b=True) / temperature
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels, tf.concat([logits_ab, logits_aa], 1)))


class Trainer:
    def __init__(self):
        self.encoder = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(4)])
        self.optimizer = tf.keras.optimizers.SGD(0.05)

    @tf.function(jit_compile=True)
    def train_step(self, view1, view2):
        with tf.GradientTape() as tape:
            loss = nt_xent_loss(self.encoder(view1), self.encoder(view2))
        grads = tape.gradient(loss, self.encoder.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.encoder.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    v1 = tf.reshape(tf.range(18, dtype=tf.float32), [3, 6]) / 18.0
    return t.train_step, (v1, v1[::-1] * 0.9)
