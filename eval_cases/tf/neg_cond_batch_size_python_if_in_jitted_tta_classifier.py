"""Source: https://github.com/tensorflow/tensorflow/issues/105133 ("[AutoGraph/XLA] OperatorNotAllowedInGraphError when using tf.shape()[0] in conditional with jit_compile=True", reported with Keras 3). Here a tf-keras image classifier averages its logits with a horizontally flipped copy only when the batch holds more than one image, deciding with a Python `if` on `tf.shape(x)[0]`; the model is called from a jit-compiled serving function with AutoGraph on, so tf-keras converts `call` and the `if` becomes a `tf.cond`."""
import tensorflow as tf


class FlipTTAClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")
        self.pool = tf.keras.layers.GlobalAveragePooling2D()
        self.head = tf.keras.layers.Dense(3)

    def call(self, x):
        logits = self.head(self.pool(self.conv(x)))
        n = tf.shape(x)[0]
        if n > 1:
            flipped = self.head(self.pool(self.conv(tf.image.flip_left_right(x))))
            logits = 0.5 * (logits + flipped)
        return logits


model = FlipTTAClassifier()
model(tf.zeros([1, 8, 8, 3]))


@tf.function(jit_compile=True)
def serve(images):
    return tf.nn.softmax(model(images))


# --- oracle ---
def ENTRY():
    images = tf.reshape(tf.range(2 * 8 * 8 * 3, dtype=tf.float32), [2, 8, 8, 3]) / 384.0
    return serve, (images,)
