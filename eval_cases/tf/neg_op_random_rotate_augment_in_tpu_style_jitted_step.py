"""Source: https://github.com/tensorflow/addons/issues/2057 (the XLA-friendly augmentation: random quarter-turn rotations with `tf.image.rot90`, a transpose and reverse that compile, chosen per batch with `tf.switch_case`). Jit-compiled training step with random 90-degree rotations."""
import tensorflow as tf


def random_quarter_turns(images):
    k = tf.random.uniform([], 0, 4, dtype=tf.int32)
    return tf.switch_case(k, [lambda: images,
                              lambda: tf.image.rot90(images, 1),
                              lambda: tf.image.rot90(images, 2),
                              lambda: tf.image.rot90(images, 3)])


class Trainer:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
            tf.keras.layers.Dense(3),
        ])
        self.model.build([None, 8, 8, 1])
        self.optimizer = tf.keras.optimizers.SGD(1e-2)

    @tf.function(jit_compile=True)
    def train_step(self, images, labels):
        images = random_quarter_turns(images)
        with tf.GradientTape() as tape:
            logits = self.model(images, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False
COMPARE = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 64, dtype=tf.float32), [2, 8, 8, 1]) / 128.0
    return t.train_step, (images, tf.constant([0, 2]))
