"""Source: https://github.com/tensorflow/tensorflow/issues/55610 ("Fail to proof the equality of two dimensions at compile time" in a jit-compiled evaluation step on TF 2.8 GPU; near miss: the mask-selected predictions reshaped into one row per display id compile and match eager on TF 2.21 XLA:CPU when every row is kept)."""
import tensorflow as tf

ADS_PER_DISPLAY = 3


@tf.function(jit_compile=True)
def evaluation_step(display_ids, labels, predictions):
    predictions = tf.reshape(tf.cast(predictions, tf.float64), [-1])
    valid = tf.reshape(display_ids, [-1]) >= 0
    kept_preds = tf.boolean_mask(predictions, valid)
    kept_labels = tf.boolean_mask(tf.reshape(labels, [-1]), valid)
    per_display = tf.reshape(kept_preds, [-1, ADS_PER_DISPLAY])
    clicked = tf.reshape(kept_labels, [-1, ADS_PER_DISPLAY])
    best = tf.argmax(per_display, axis=1, output_type=tf.int32)
    return tf.reduce_mean(tf.cast(tf.gather(clicked, best, batch_dims=1), tf.float64))


# --- oracle ---
def ENTRY():
    display_ids = tf.constant([[7], [7], [7], [9], [9], [9]])
    labels = tf.constant([[0], [1], [0], [1], [0], [0]])
    predictions = tf.constant([[0.2], [0.9], [0.1], [0.4], [0.5], [0.3]])
    return evaluation_step, (display_ids, labels, predictions)
