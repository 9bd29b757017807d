"""Source: https://github.com/tensorflow/tensorflow/issues/42306 ("Operation 'while' has no attr named '_XlaCompile'" in a custom train_step with a persistent GradientTape and two losses (classifier + adversary), TF 2.3; the same step compiles under jit_compile on TF 2.21)."""
import tensorflow as tf


class FairClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.body = tf.keras.layers.Dense(8, activation="relu")
        self.main_head = tf.keras.layers.Dense(2)
        self.adv_head = tf.keras.layers.Dense(2)
        self.main_opt = tf.keras.optimizers.SGD(0.1)
        self.adv_opt = tf.keras.optimizers.SGD(0.1)

    def call(self, x):
        h = self.body(x)
        return self.main_head(h), self.adv_head(h)

    @tf.function(jit_compile=True)
    def custom_train_step(self, x, y, z):
        with tf.GradientTape(persistent=True) as tape:
            main_logits, adv_logits = self(x, training=True)
            main_loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, main_logits, True))
            adv_loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(z, adv_logits, True))
            fair_loss = main_loss - 0.1 * adv_loss
        main_vars = self.body.trainable_variables + self.main_head.trainable_variables
        self.main_opt.apply_gradients(zip(tape.gradient(fair_loss, main_vars), main_vars))
        adv_vars = self.adv_head.trainable_variables
        self.adv_opt.apply_gradients(zip(tape.gradient(adv_loss, adv_vars), adv_vars))
        del tape
        return main_loss, adv_loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    m = FairClassifier()
    _KEEP.append(m)
    x = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0
    m(x)  # built before training, as after model.build() / a first predict
    return m.custom_train_step, (x, tf.constant([0, 1, 1]), tf.constant([1, 0, 1]))
