"""Source: https://github.com/huggingface/transformers/issues/18707 ("Make TFNoRepeatNGramLogitsProcessor XLA compatible": the no-repeat-n-gram logits processor collects the banned tokens in Python, so `generate()` cannot be compiled with XLA). Near miss: the summarizer's jit-compiled next-token step bans repeated bigrams with tensor ops only (positions whose token equals the last token mark the token that followed them), so nothing leaves the compiled program."""
import tensorflow as tf

VOCAB = 12


class NoRepeatBigramProcessor:
    def __call__(self, input_ids, scores):
        previous = input_ids[:, :-1]
        following = input_ids[:, 1:]
        last = input_ids[:, -1:]
        match = tf.cast(tf.equal(previous, last), tf.float32)
        banned = tf.reduce_max(tf.one_hot(following, VOCAB) * match[..., None], axis=1)
        return tf.where(banned > 0, tf.fill(tf.shape(scores), -1e9), scores)


class Summarizer:
    def __init__(self):
        self.embed = tf.keras.layers.Embedding(VOCAB, 8)
        self.head = tf.keras.layers.Dense(VOCAB)
        self.processor = NoRepeatBigramProcessor()

    @tf.function(jit_compile=True)
    def next_token(self, input_ids):
        scores = self.head(tf.reduce_mean(self.embed(input_ids), axis=1))
        scores = self.processor(input_ids, scores)
        return tf.argmax(scores, axis=-1, output_type=tf.int32)


# --- oracle ---
_KEEP = []


def ENTRY():
    summarizer = Summarizer()
    _KEEP.append(summarizer)
    ids = tf.constant([[3, 5, 3, 7, 1, 3], [2, 2, 4, 9, 4, 6]], tf.int32)
    return summarizer.next_token, (ids,)

