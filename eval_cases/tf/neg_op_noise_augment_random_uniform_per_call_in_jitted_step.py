"""Source: https://github.com/tensorflow/tensorflow/issues/6854 ("XLA: random numbers are the same across `session.run` calls": with TF 1 `jit_scope`, TensorFlow constant-folded the compiled cluster holding `tf.random_uniform`, so every run returned the same draw; fixed by marking the launch op stateful). Does not reproduce on TF 2.21: a stateful random op inside a `jit_compile` function draws anew on each call. Here a denoising autoencoder's jit-compiled step that corrupts its input with fresh uniform noise each step."""
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Dense(4, activation="relu"),
            tf.keras.layers.Dense(6),
        ])
        self.model.build([None, 6])
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    @tf.function(jit_compile=True)
    def train_step(self, clean):
        noise = tf.random.uniform(tf.shape(clean), -0.1, 0.1)
        with tf.GradientTape() as tape:
            recon = self.model(clean + noise)
            loss = tf.reduce_mean(tf.square(recon - clean))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss, noise


# --- oracle ---
_KEEP = []
WRAP = False
COMPARE = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, (tf.reshape(tf.range(12, dtype=tf.float32), [2, 6]) / 12.0,)


def ALT_ARGS():
    return [(tf.reshape(tf.range(12, dtype=tf.float32), [2, 6]) / 12.0,)]
