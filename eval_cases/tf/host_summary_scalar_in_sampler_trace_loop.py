"""Source: https://github.com/tensorflow/probability/issues/905 (a sampler's trace function writes `tf.summary` values from inside the compiled sampling loop: "No registered 'WriteSummary' OpKernel for XLA_CPU_JIT" and string constants XLA cannot hold)."""
import tempfile

import tensorflow as tf

WRITER = tf.summary.create_file_writer(tempfile.mkdtemp())


def target_log_prob(x):
    return -0.5 * tf.reduce_sum(tf.square(x), axis=-1)


def langevin_chain(init, step_size, num_steps=5):
    def body(i, state, total):
        grad = -state
        state = state + step_size * grad
        with WRITER.as_default(step=tf.cast(i, tf.int64)):
            tf.summary.scalar("target_log_prob", tf.reduce_mean(target_log_prob(state)))  # XLA: host
        return i + 1, state, total + tf.reduce_mean(target_log_prob(state))

    _, final, total = tf.while_loop(lambda i, s, t: i < num_steps, body, (tf.constant(0), init, tf.constant(0.0)))
    return final, total / num_steps


# --- oracle ---
def ENTRY():
    return langevin_chain, (tf.constant([[1.0, -2.0], [0.5, 0.5]]), tf.constant(0.1))
