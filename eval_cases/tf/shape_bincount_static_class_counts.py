"""Source: https://github.com/keras-team/keras-cv/issues/141 (COCO mean average precision under XLA hit "No registered 'Bincount' OpKernel for XLA_CPU_JIT" in 2022, then "Bincount must be a compile-time constant"; even with static minlength/maxlength, tf.math.bincount sizes its output from max(arr), so on TF 2.21 the compiled step needs the argument values)."""
import tensorflow as tf

NUM_CLASSES = 4


@tf.function(jit_compile=True)
def class_recall(pred_classes, gt_classes, matched):
    gt_counts = tf.math.bincount(gt_classes, minlength=NUM_CLASSES, maxlength=NUM_CLASSES)  # XLA: shape
    tp_counts = tf.math.bincount(tf.where(matched, pred_classes, NUM_CLASSES), minlength=NUM_CLASSES,
                                 maxlength=NUM_CLASSES)
    return tf.math.divide_no_nan(tf.cast(tp_counts, tf.float32), tf.cast(gt_counts, tf.float32))


# --- oracle ---
def ENTRY():
    return class_recall, (tf.constant([0, 1, 1, 3, 2]), tf.constant([0, 1, 2, 3, 2]),
                          tf.constant([True, True, False, True, True]))
