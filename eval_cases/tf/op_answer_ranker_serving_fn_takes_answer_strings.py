"""Source: https://github.com/tensorflow/models/issues/10834 (exporting a BERT answer ranker's serving function with `jit_compile=True` while it still takes the raw answer strings: calling it fails with "No registered '_Arg' OpKernel for XLA_GPU_JIT ... T=DT_STRING", because XLA programs cannot take string inputs; the user separated the tokenizer from the compiled classifier). Here an answer ranker whose jit-compiled serving method receives the candidate answers as strings and hashes them itself."""
import tensorflow as tf


class AnswerRanker(tf.Module):
    def __init__(self, buckets=64):
        super().__init__()
        self.buckets = buckets
        self.answer_embed = tf.keras.layers.Embedding(buckets, 8)
        self.question_embed = tf.keras.layers.Embedding(100, 8)
        self.answer_embed.build([None])
        self.question_embed.build([None, None])

    @tf.function(jit_compile=True)
    def serve(self, question_ids, answers):
        answer_ids = tf.strings.to_hash_bucket_fast(answers, self.buckets)  # XLA: op
        q = tf.reduce_mean(self.question_embed(question_ids), axis=1)
        a = self.answer_embed(answer_ids)
        return tf.nn.softmax(tf.linalg.matvec(a, q[0]))


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    ranker = AnswerRanker()
    _KEEP.append(ranker)
    return ranker.serve, (tf.constant([[5, 17, 42, 8]]), tf.constant(["in 1998", "a cat", "Paris", "never"]))
