"""Source: https://github.com/tensorflow/tensorflow/issues/53685 ("How to debug xla": after porting XLA's `dynamic_partition` support, a model fails with "Expected instruction to have shape equal to (s64[40960]) ... actual shape is (s64[<=40960])" when partition outputs leave the compiled cluster). Here a multi-domain model splits its per-example losses by domain with `tf.dynamic_partition` inside a jit-compiled step and returns the partitions and their means; on TF 2.21 XLA:CPU the bounded-dynamic outputs compile and match eager."""
import tensorflow as tf

NUM_DOMAINS = 2


@tf.function(jit_compile=True)
def domain_losses(per_example_loss, domain_ids):
    parts = tf.dynamic_partition(per_example_loss, domain_ids, NUM_DOMAINS)
    means = tf.stack([tf.reduce_sum(p) / tf.maximum(tf.cast(tf.size(p), tf.float32), 1.0) for p in parts])
    return parts, means


# --- oracle ---
def ENTRY():
    return domain_losses, (tf.constant([0.5, 1.5, 2.0, 0.25, 1.0]), tf.constant([0, 1, 1, 0, 1], tf.int32))
