"""Source: https://github.com/Xemnas0/NCSN-TF2.0/issues/26 (a Python float step size passed to a `tf.function` Langevin step retraces at every noise level). The fix the report suggests, used here: the step size is passed as a float32 tensor, so one compiled Langevin step serves every noise level."""
import tensorflow as tf


class ScoreNet(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(16, activation="softplus")
        self.out = tf.keras.layers.Dense(4)
        self.hidden.build((None, 5))
        self.out.build((None, 16))

    def call(self, x, sigma):
        s = tf.fill([tf.shape(x)[0], 1], sigma)
        return self.out(self.hidden(tf.concat([x, s], axis=-1)))


score = ScoreNet()


@tf.function(jit_compile=True)
def sample_one_step(x, noise, alpha_i):
    return x + 0.5 * alpha_i * score(x, alpha_i) + tf.sqrt(alpha_i) * noise


def annealed_langevin(x, sigmas, noises, eps=2e-5):
    for sigma, noise in zip(sigmas, noises):
        alpha_i = tf.constant(eps * (sigma / sigmas[-1]) ** 2, dtype=tf.float32)
        x = sample_one_step(x, noise, alpha_i)
    return x


# --- oracle ---
def _x():
    return tf.reshape(tf.range(3 * 4, dtype=tf.float32), [3, 4]) / 12.0


def ENTRY():
    return sample_one_step, (_x(), _x() * 0.1, tf.constant(0.5))


def ALT_ARGS():
    return [(_x(), _x() * 0.1, tf.constant(0.05)), (_x(), _x() * 0.1, tf.constant(0.005))]
