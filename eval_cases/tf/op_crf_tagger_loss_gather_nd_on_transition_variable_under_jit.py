"""Source: https://github.com/tensorflow/tpu/issues/869 (the failing graph is the gradient of a `tf.cond` on the sequence length; the length is a static dimension of the emission scores, so the choice between the single-step and the multi-step forward pass can be made in Python and no `cond` reaches XLA). Here the tagger's CRF log-normaliser branches on `scores.shape[1]` in Python, as that fix does, but the score of the gold path still reads the transition matrix with `tf.gather_nd` on the `tf.Variable` itself, which becomes `ResourceGatherNd`; written as the fixed twin, the oracle found it still fails under `jit_compile=True` (no XLA kernel for `ResourceGatherNd`), so it is a failing case."""
import tensorflow as tf

NUM_TAGS = 4


class CrfTagger(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.emissions = tf.keras.layers.Dense(NUM_TAGS)
        self.transitions = tf.Variable(tf.random.stateless_normal([NUM_TAGS, NUM_TAGS], seed=[1, 2]) * 0.1)

    def log_norm(self, scores):
        first = scores[:, 0, :]
        if scores.shape[1] == 1:
            return tf.reduce_logsumexp(first, axis=1)
        rest = tf.transpose(scores[:, 1:, :], [1, 0, 2])

        def forward(alpha, x):
            return tf.reduce_logsumexp(alpha[:, :, None] + self.transitions[None], axis=1) + x

        alphas = tf.scan(forward, rest, initializer=first)
        return tf.reduce_logsumexp(alphas[-1], axis=1)

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
