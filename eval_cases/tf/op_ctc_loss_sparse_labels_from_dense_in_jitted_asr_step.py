"""Source: https://github.com/tensorflow/tensorflow/issues/38234 ("ctc_loss compilation failure on TPU": a speech model's custom CTC loss fails to compile for the TPU). Here an ASR model's jit-compiled step converts its padded label matrix with `tf.sparse.from_dense` and passes the `SparseTensor` to `tf.nn.ctc_loss`; with sparse labels `tf.nn.ctc_loss` calls the `CTCLoss` kernel, which has no XLA kernel."""
import tensorflow as tf

NUM_CLASSES = 6


class AsrModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.rnn = tf.keras.layers.GRU(16, return_sequences=True)
        self.head = tf.keras.layers.Dense(NUM_CLASSES)

    def call(self, features):
        return self.head(self.rnn(features))


model = AsrModel()


@tf.function(jit_compile=True)
def asr_loss(features, padded_labels, logit_length):
    logits = model(features)
    sparse_labels = tf.sparse.from_dense(padded_labels)
    loss = tf.nn.ctc_loss(sparse_labels, logits, None, logit_length, logits_time_major=False, blank_index=-1)  # XLA: op
    return tf.reduce_mean(loss)


# --- oracle ---
def ENTRY():
    features = tf.reshape(tf.range(2 * 10 * 4, dtype=tf.float32) / 80.0, [2, 10, 4])
    labels = tf.constant([[1, 2, 3, 0], [2, 4, 0, 0]], tf.int32)
    return asr_loss, (features, labels, tf.constant([10, 10], tf.int32))
