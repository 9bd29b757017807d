"""Source: https://github.com/tensorflow/tpu/issues/869 ("Compilation failure: Detected unsupported operations when trying to compile graph get_loss_cond_1_true_..._rewritten on XLA_TPU_JIT: FakeParam": a custom CRF loss whose log-normaliser picks a single-step or a multi-step forward pass with `tf.cond` on the sequence length trains on CPU/GPU but fails to compile under XLA; the gradient of the `cond` needs the intermediates of the branch that was not taken, which it fills with `FakeParam` nodes XLA cannot compile). Here a named-entity tagger's CRF loss computes its log-normaliser with the same `tf.cond`, and the jit-compiled training step differentiates it with respect to the transition matrix."""
import tensorflow as tf

NUM_TAGS = 4


class CrfTagger(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.emissions = tf.keras.layers.Dense(NUM_TAGS)
        self.transitions = tf.Variable(tf.random.stateless_normal([NUM_TAGS, NUM_TAGS], seed=[1, 2]) * 0.1)

    def log_norm(self, scores):
        first = scores[:, 0, :]

        def single_step():
            return tf.reduce_logsumexp(first, axis=1)

        def multi_step():
            rest = tf.transpose(scores[:, 1:, :], [1, 0, 2])

            def forward(alpha, x):
                return tf.reduce_logsumexp(alpha[:, :, None] + self.transitions[None], axis=1) + x

            alphas = tf.scan(forward, rest, initializer=first)
            return tf.reduce_logsumexp(alphas[-1], axis=1)

        return tf.cond(tf.equal(tf.shape(scores)[1], 1), single_step, multi_step)  # XLA: op

    def sequence_score(self, scores, tags):
        unary = tf.reduce_sum(tf.gather(scores, tags, batch_dims=2), axis=1)
        pairs = tf.stack([tags[:, :-1], tags[:, 1:]], axis=-1)
        binary = tf.reduce_sum(tf.gather_nd(self.transitions, pairs), axis=1)  # XLA: op
        return unary + binary

    @tf.function(jit_compile=True)
    def train_step(self, tokens, tags):
        with tf.GradientTape() as tape:
            scores = self.emissions(tokens)
            loss = tf.reduce_mean(self.log_norm(scores) - self.sequence_score(scores, tags))
        grads = tape.gradient(loss, self.trainable_variables)
        return loss, tf.linalg.global_norm(grads)


_KEEP = []


# --- oracle ---
WRAP = False


def ENTRY():
    model = CrfTagger()
    _KEEP.append(model)
    tokens = tf.reshape(tf.range(2 * 5 * 3, dtype=tf.float32), [2, 5, 3]) / 30.0
    tags = tf.constant([[0, 1, 2, 1, 3], [3, 3, 0, 2, 1]])
    return model.train_step, (tokens, tags)
