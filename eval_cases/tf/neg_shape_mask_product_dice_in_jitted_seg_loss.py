"""Source: https://github.com/yingkaisha/keras-unet-collection/issues/49 ("Issues running these models on TPU": a data-dependent selection reaching `tf.squeeze` cannot be compiled; the dice loss the models use does not need the selection). Here the segmentation loss multiplies the probabilities by the mask instead of listing foreground pixels, so every shape in the jit-compiled loss is static."""
import tensorflow as tf

H = W = 4


@tf.function(jit_compile=True)
def foreground_dice_loss(mask, probs):
    flat_mask = tf.reshape(mask, [-1])
    flat_probs = tf.reshape(probs, [-1])
    inter = tf.reduce_sum(flat_probs * flat_mask)
    return 1.0 - 2.0 * inter / (tf.reduce_sum(flat_probs) + tf.reduce_sum(flat_mask) + 1e-6)


# --- oracle ---
def ENTRY():
    mask = tf.cast(tf.reshape(tf.range(H * W) % 3 == 0, [H, W]), tf.float32)
    probs = tf.reshape(tf.range(H * W, dtype=tf.float32), [H, W]) / 16.0
    return foreground_dice_loss, (mask, probs)
