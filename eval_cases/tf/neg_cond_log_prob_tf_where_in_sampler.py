"""Source: https://github.com/tensorflow/probability/issues/1138 (fix for the tensor-as-bool error in a log-prob traced with autograph=False: express the penalty with tf.where instead of a Python `if`)."""
import tensorflow as tf


def target_log_prob(theta, data):
    scale = tf.exp(theta[1])
    log_lik = -0.5 * tf.reduce_sum(tf.square((data - theta[0]) / scale)) - tf.cast(tf.size(data), tf.float32) * theta[1]
    return tf.where(scale > 10.0, log_lik - 1e3, log_lik)


@tf.function(autograph=False, jit_compile=True)
def random_walk_chain(theta0, data, step_noise):
    def body(i, theta, lp, acc):
        proposal = theta + step_noise[i]
        lp_new = target_log_prob(proposal, data)
        accept = lp_new > lp
        return i + 1, tf.where(accept, proposal, theta), tf.where(accept, lp_new, lp), acc + tf.cast(accept, tf.float32)

    _, theta, lp, acc = tf.while_loop(lambda i, *_: i < tf.shape(step_noise)[0], body,
                                      (0, theta0, target_log_prob(theta0, data), 0.0))
    return theta, lp, acc


# --- oracle ---
def ENTRY():
    data = tf.constant([0.5, 1.2, 0.8, 1.5, 0.9])
    noise = tf.reshape(tf.sin(tf.range(8, dtype=tf.float32)), [4, 2]) * 0.3
    return random_walk_chain, (tf.constant([0.0, 0.0]), data, noise)
