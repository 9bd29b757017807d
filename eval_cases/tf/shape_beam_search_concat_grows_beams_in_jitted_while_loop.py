"""Source: https://github.com/keras-team/keras-hub/pull/341 ("Beam Search: Add Ragged and XLA Support": the first keras-nlp beam search appended each step's tokens with `tf.concat`, so the beams grew inside the loop and the search could not be compiled with XLA; the PR preallocates the beams and scatters each column). Here a captioning model's jit-compiled beam search grows its beams with `tf.concat` inside a `tf.while_loop` declared with a `None` length in its shape invariants."""
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
        beams = tf.repeat(prompt[:, None, :], NUM_BEAMS, axis=1)
        scores = tf.zeros([batch, NUM_BEAMS])

        def body(step, beams, scores):
            log_probs = self.next_log_probs(beams[:, :, -1])
            flat = tf.reshape(scores[..., None] + log_probs, [batch, NUM_BEAMS * VOCAB])
            scores, indices = tf.math.top_k(flat, k=NUM_BEAMS)
            beams = tf.gather(beams, indices // VOCAB, axis=1, batch_dims=1)
            beams = tf.concat([beams, (indices % VOCAB)[..., None]], axis=-1)  # XLA: shape
            return step + 1, beams, scores

        _, beams, scores = tf.while_loop(
            lambda step, beams, scores: step < MAX_LENGTH - 1,
            body,
            (tf.constant(0), beams, scores),
            shape_invariants=(tf.TensorShape([]), tf.TensorShape([batch, NUM_BEAMS, None]), scores.shape),
        )
        return beams, scores


# --- oracle ---
_KEEP = []


def ENTRY():
    searcher = CaptionBeamSearch()
    _KEEP.append(searcher)
    return searcher.search, (tf.constant([[1], [4]], tf.int32),)

