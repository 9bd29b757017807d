"""Source: https://github.com/tensorflow/tensorflow/issues/103438 ("tf.nn.max_pool_with_argmax not working on GPU": a SegNet-style model whose encoder pools with `tf.nn.max_pool_with_argmax` and whose decoder unpools with the argmax indices fails in `model.fit` once Keras compiles the train step with XLA, "tf2xla conversion failed"). Here a small SegNet block, pool-with-argmax then scatter-based unpooling, trained in a jit-compiled step."""
import tensorflow as tf


def unpool(pooled, argmax, out_shape):
    flat = tf.zeros([tf.reduce_prod(out_shape)], pooled.dtype)
    idx = tf.reshape(argmax, [-1, 1])
    return tf.reshape(tf.tensor_scatter_nd_update(flat, idx, tf.reshape(pooled, [-1])), out_shape)


class SegNetBlock(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.enc = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")
        self.dec = tf.keras.layers.Conv2D(2, 3, padding="same")

    def call(self, x):
        h = self.enc(x)
        pooled, argmax = tf.nn.max_pool_with_argmax(  # XLA: op
            h, ksize=2, strides=2, padding="SAME", include_batch_in_index=True)
        return self.dec(unpool(pooled, argmax, tf.shape(h, out_type=tf.int64)))


class Trainer:
    def __init__(self):
        self.model = SegNetBlock()
        self.model.build([None, 8, 8, 1])
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, images, masks):
        with tf.GradientTape() as tape:
            logits = self.model(images, training=True)
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(masks, logits, from_logits=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    images = tf.reshape(tf.range(2 * 64, dtype=tf.float32), [2, 8, 8, 1]) / 128.0
    masks = tf.cast(images > 0.5, tf.int32)[..., 0]
    return t.train_step, (images, masks)
