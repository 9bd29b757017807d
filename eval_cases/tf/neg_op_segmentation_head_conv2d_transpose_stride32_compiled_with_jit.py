"""Source: https://github.com/keras-team/keras/issues/19061 (training a Keras application with a `Conv2DTranspose` head of kernel and stride (32, 32) seems to hang on the TensorFlow backend; the maintainers trace it to XLA compiling and autotuning the large transposed convolution under Keras 3's default jit compilation and suggest `jit_compile=False`). On XLA:CPU it compiles and trains, so this case is a negative. Here a small segmentation model with a stride-32 encoder and a stride-32 `Conv2DTranspose` head is compiled with `jit_compile=True` and trained with `train_on_batch`."""
import tensorflow as tf


def build_segmenter():
    inputs = tf.keras.Input((32, 32, 3))
    features = tf.keras.layers.Conv2D(8, 32, strides=32, activation="relu")(inputs)
    mask = tf.keras.layers.Conv2DTranspose(1, (32, 32), strides=(32, 32), name="upsample")(features)
    return tf.keras.Model(inputs, mask)


_KEEP = []


def fit_batch(images, masks):
    return _KEEP[0].train_on_batch(images, masks)


# --- oracle ---
COMPARE = False
WRAP = False


def ENTRY():
    model = build_segmenter()
    model.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), jit_compile=True)
    _KEEP[:] = [model]
    images = tf.reshape(tf.range(2 * 32 * 32 * 3, dtype=tf.float32), [2, 32, 32, 3]) / 6144.0
    masks = tf.cast(images[..., :1] > 0.5, tf.float32)
    return fit_batch, (images, masks)
