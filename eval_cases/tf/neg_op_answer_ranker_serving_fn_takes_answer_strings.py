"""Source: https://github.com/tensorflow/models/issues/10834 (the user's fix: keep the string processing outside the compiled function and export only the classifier, which takes integer ids and compiles with XLA). Answer ranker hashing answers in an uncompiled preprocessing function and scoring ids in the jit-compiled one."""
import tensorflow as tf


class AnswerRanker(tf.Module):
    def __init__(self, buckets=64):
        super().__init__()
        self.buckets = buckets
        self.answer_embed = tf.keras.layers.Embedding(buckets, 8)
        self.question_embed = tf.keras.layers.Embedding(100, 8)
        self.answer_embed.build([None])
        self.question_embed.build([None, None])

    def preprocess(self, answers):
        return tf.strings.to_hash_bucket_fast(answers, self.buckets)

    @tf.function(jit_compile=True)
    def score(self, question_ids, answer_ids):
        q = tf.reduce_mean(self.question_embed(question_ids), axis=1)
        a = self.answer_embed(answer_ids)
        return tf.nn.softmax(tf.linalg.matvec(a, q[0]))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    ranker = AnswerRanker()
    _KEEP.append(ranker)
    answer_ids = ranker.preprocess(tf.constant(["in 1998", "a cat", "Paris", "never"]))
    return ranker.score, (tf.constant([[5, 17, 42, 8]]), answer_ids)
