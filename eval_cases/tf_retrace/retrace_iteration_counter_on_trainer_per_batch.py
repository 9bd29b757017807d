"""An interpolation-consistency trainer counts its iterations on `self` and hands the count to
the compiled train step, which ramps the consistency weight up from it: the Python int is new on
every call of `train_on_batch`, so every batch traces and compiles the step again.

Rebuilt from ryancheunggit/tensorflow2_model_zoo#13
(https://github.com/ryancheunggit/tensorflow2_model_zoo/issues/13): the ICT example passes a
Python weight `w`, computed from the epoch, to the tf.function `train_step` ("every time the value
of `w` changes, a new graph will be generated"); here the step receives the counter itself.
"""
import tensorflow as tf

RAMP_UP = 10


class ConsistencyTrainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(3)])
        self.model.build((None, 5))
        self.optimizer = tf.keras.optimizers.SGD(0.05)
        self.iteration = 0

    @tf.function(jit_compile=True)
    def train_step(self, x, y, x_mix, iteration):
        weight = tf.minimum(tf.cast(iteration, tf.float32) / RAMP_UP, 1.0)
        with tf.GradientTape() as tape:
            logits = self.model(x)
            ce = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
            consistency = tf.reduce_mean(tf.square(tf.nn.softmax(self.model(x_mix)) - tf.nn.softmax(logits)))
            loss = ce + weight * consistency
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    def train_on_batch(self, x, y):
        self.iteration += 1
        x_mix = 0.5 * x + 0.5 * tf.reverse(x, axis=[0])
        return self.train_step(x, y, x_mix, self.iteration)  # XLA: retrace


# --- oracle ---
WRAP = False
_KEEP = []


def _batch(scale):
    return tf.reshape(tf.range(10, dtype=tf.float32), [2, 5]) * scale, tf.constant([0, 2])


def ENTRY():
    trainer = ConsistencyTrainer()
    _KEEP.append(trainer)
    return trainer.train_on_batch, _batch(0.1)


def ALT_ARGS():
    return [_batch(0.2), _batch(0.3)]
