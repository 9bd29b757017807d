"""Source: https://github.com/tensorflow/tensorflow/issues/108080 ("`tf.function(..., jit_compile=True)` inside `tf.GradientTape` fails with `UNIMPLEMENTED: TensorList crossing XLA/TF boundary`": a Conv2D -> Reshape -> LSTM -> Dense model whose forward pass is jit-compiled, called under an eager `GradientTape` whose gradient is taken outside the compiled function). Here a spectrogram classifier trained with an eager step that records a jit-compiled forward pass on the tape."""
import tensorflow as tf


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
        tf.keras.layers.Reshape((6, 5 * 4)),
        tf.keras.layers.LSTM(8),
        tf.keras.layers.Dense(3),
    ])


class Trainer:
    def __init__(self):
        self.model = build_model()
        self.model.build([None, 6, 5, 1])
        self.compiled_forward = tf.function(self.model, jit_compile=True)
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    def train_step(self, spectrograms, labels):
        with tf.GradientTape() as tape:
            logits = self.compiled_forward(spectrograms, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)  # XLA: op
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    spectrograms = tf.reshape(tf.range(2 * 30, dtype=tf.float32), [2, 6, 5, 1]) / 60.0
    return t.train_step, (spectrograms, tf.constant([0, 2]))
