"""An evaluation helper that defines its jit-compiled step inside and maps it over the batches:
every evaluation builds a new tf.function and compiles it again.

Rebuilt from YosefLab/epitome#43 (https://github.com/YosefLab/epitome/issues/43) (a tf.function
defined in the body of a prediction method and called over the batches retraced on every call);
here as a module-level helper, as evaluation scripts write it.
"""
import tensorflow as tf

w = tf.Variable(tf.ones([4, 2]))


def evaluate(batches):
    @tf.function(jit_compile=True)  # XLA: retrace
    def eval_step(x):
        return tf.reduce_mean(tf.nn.sigmoid(tf.matmul(x, w)))

    scores = [eval_step(x) for x in batches]
    return tf.stack(scores)


# --- oracle ---
WRAP = False


def ENTRY():
    return evaluate, ([tf.ones([2, 4]), tf.zeros([2, 4])],)


def ALT_ARGS():
    return [([tf.fill([2, 4], 0.5), tf.ones([2, 4])],)]
