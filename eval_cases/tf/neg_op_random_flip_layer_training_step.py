"""Source: https://github.com/keras-team/keras/issues/15655 (near miss, RandomFlip compiles on TF 2.21 XLA:CPU: [TPU, keras preprocessing layer] RandomFlip: "StatelessRandomUniformV2 must be a compile-time constant" inside the compiled train function)."""
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.layers.RandomFlip("horizontal"),
    tf.keras.layers.Conv2D(2, 3, padding="same"),
    tf.keras.layers.GlobalAveragePooling2D(),
])


@tf.function(jit_compile=True)
def augmented_features(images):
    return model(images, training=True)


# --- oracle ---
COMPARE = False


def ENTRY():
    return augmented_features, (tf.reshape(tf.range(2 * 4 * 4 * 3, dtype=tf.float32) / 96.0, [2, 4, 4, 3]),)
