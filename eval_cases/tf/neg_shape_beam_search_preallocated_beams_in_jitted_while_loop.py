"""Source: https://github.com/keras-team/keras-hub/pull/341 ("Beam Search: Add Ragged and XLA Support": beams grown with `tf.concat` kept the search from compiling with XLA; the PR preallocates the beams and writes each step's column). Documented fix: the captioning model's jit-compiled beam search preallocates `[batch, beams, max_length]` and writes the new column with `tf.where` on the step's position, so the loop carries fixed shapes."""
import tensorflow as tf

VOCAB = 7
NUM_BEAMS = 3
MAX_LENGTH = 5


class CaptionBeamSearch:
    def __init__(self):
        self.embed = tf.keras.layers.Embedding(VOCAB, 6)
        self.head = tf.keras.layers.Dense(VOCAB)

    def next_log_probs(self, last_tokens):
        return tf.nn.log_softmax(self.head(self.embed(last_tokens)))

    @tf.function(jit_compile=True)
    def search(self, prompt):
        batch = prompt.shape[0]
        first = tf.repeat(prompt[:, None, :], NUM_BEAMS, axis=1)
        beams = tf.pad(first, [[0, 0], [0, 0], [0, MAX_LENGTH - 1]])
        scores = tf.zeros([batch, NUM_BEAMS])
        positions = tf.range(MAX_LENGTH)

        def body(step, beams, scores):
            log_probs = self.next_log_probs(tf.gather(beams, step, axis=2))
            flat = tf.reshape(scores[..., None] + log_probs, [batch, NUM_BEAMS * VOCAB])
            scores, indices = tf.math.top_k(flat, k=NUM_BEAMS)
            beams = tf.gather(beams, indices // VOCAB, axis=1, batch_dims=1)
            beams = tf.where(positions == step + 1, (indices % VOCAB)[..., None], beams)
            return step + 1, beams, scores

        _, beams, scores = tf.while_loop(
            lambda step, beams, scores: step < MAX_LENGTH - 1, body, (tf.constant(0), beams, scores)
        )
        return beams, scores


# --- oracle ---
_KEEP = []


def ENTRY():
    searcher = CaptionBeamSearch()
    _KEEP.append(searcher)
    return searcher.search, (tf.constant([[1], [4]], tf.int32),)

