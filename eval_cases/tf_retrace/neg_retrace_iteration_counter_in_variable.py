"""The consistency trainer of tensorflow2_model_zoo#13 with its iteration count in a tf.Variable:
the step reads the same variable on every call, one trace and one compilation.

Fix for ryancheunggit/tensorflow2_model_zoo#13
(https://github.com/ryancheunggit/tensorflow2_model_zoo/issues/13): state that changes per batch
lives in a variable (or reaches the step as a tensor), not in a Python int.
"""
import tensorflow as tf

RAMP_UP = 10


class ConsistencyTrainer:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(3)])
        self.model.build((None, 5))
        self.optimizer = tf.keras.optimizers.SGD(0.05)
        self.iteration = tf.Variable(0, dtype=tf.int64)

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
        self.iteration.assign_add(1)
        x_mix = 0.5 * x + 0.5 * tf.reverse(x, axis=[0])
        return self.train_step(x, y, x_mix, self.iteration)


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
