"""Source: https://github.com/keras-team/keras/issues/19315 (JIT compilation for non-supervised workflows such as the Keras actor-critic example, where the model is called directly on the state; wrapping that step in tf.function(jit_compile=True) with a GradientTape compiles)."""
import tensorflow as tf


class ActorCritic:
    def __init__(self):
        inputs = tf.keras.Input((4,))
        hidden = tf.keras.layers.Dense(16, activation="relu")(inputs)
        self.model = tf.keras.Model(inputs, [tf.keras.layers.Dense(2)(hidden), tf.keras.layers.Dense(1)(hidden)])
        self.optimizer = tf.keras.optimizers.SGD(0.01)

    @tf.function(jit_compile=True)
    def update(self, states, actions, returns):
        with tf.GradientTape() as tape:
            logits, values = self.model(states)
            advantage = returns - tf.squeeze(values, -1)
            log_probs = tf.nn.log_softmax(logits)
            chosen = tf.gather(log_probs, actions, axis=1, batch_dims=1)
            loss = -tf.reduce_mean(chosen * tf.stop_gradient(advantage)) + tf.reduce_mean(tf.square(advantage))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    agent = ActorCritic()
    _KEEP.append(agent)
    states = tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]) / 12.0
    return agent.update, (states, tf.constant([0, 1, 1]), tf.constant([1.0, 0.5, -0.2]))
