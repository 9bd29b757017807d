"""Source: https://github.com/yingkaisha/keras-unet-collection/issues/49 ("Issues running these models on TPU": training fails with "Squeeze op does not support bounded dynamic" once a tensor whose size depends on the data reaches `tf.squeeze`). Here a segmentation loss lists the foreground pixels with `tf.where` and removes the index axis with a bare `tf.squeeze` inside the jit-compiled loss, so the squeeze sees a dimension whose size is only bounded."""
import tensorflow as tf

H = W = 4


@tf.function(jit_compile=True)
def foreground_dice_loss(mask, probs):
    flat_mask = tf.reshape(mask, [-1])
    flat_probs = tf.reshape(probs, [-1])
    fg = tf.squeeze(tf.where(flat_mask > 0.5))  # XLA: shape
    fg_probs = tf.gather(flat_probs, fg)
    inter = tf.reduce_sum(fg_probs)
    return 1.0 - 2.0 * inter / (tf.reduce_sum(flat_probs) + tf.reduce_sum(flat_mask) + 1e-6)


# --- oracle ---
def ENTRY():
    mask = tf.cast(tf.reshape(tf.range(H * W) % 3 == 0, [H, W]), tf.float32)
    probs = tf.reshape(tf.range(H * W, dtype=tf.float32), [H, W]) / 16.0
    return foreground_dice_loss, (mask, probs)
