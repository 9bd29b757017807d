"""Source: https://github.com/google-research/text-to-text-transfer-transformer/issues/291 ("Small bug in the API when sending a dataset from a Task on a TPU, copy_plaintext=True and pack=False": string features must not reach the TPU; the workaround filters the features down to the numeric ones before training). The fix used here: the plaintext is dropped from the feature dict before the jit-compiled step, and the step logs the number of non-padding input tokens instead of the plaintext length. (Text-to-text fine-tuning step with a tiny encoder-decoder.)"""
import tensorflow as tf

VOCAB = 40
D = 16


class TinySeq2Seq(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = tf.keras.layers.Embedding(VOCAB, D)
        self.encoder = tf.keras.layers.Dense(D, activation="relu")
        self.cross = tf.keras.layers.Attention()
        self.lm_head = tf.keras.layers.Dense(VOCAB)

    def call(self, inputs, decoder_inputs):
        memory = self.encoder(self.embed(inputs))
        queries = self.embed(decoder_inputs)
        return self.lm_head(queries + self.cross([queries, memory]))


class Trainer:
    def __init__(self):
        self.model = TinySeq2Seq()
        self.optimizer = tf.keras.optimizers.Adam(1e-2)

    @tf.function(jit_compile=True)
    def train_step(self, features):
        targets = features["targets"]
        decoder_inputs = tf.pad(targets[:, :-1], [[0, 0], [1, 0]])
        char_count = tf.reduce_mean(tf.reduce_sum(tf.cast(features["inputs"] > 0, tf.float32), axis=1))
        with tf.GradientTape() as tape:
            logits = self.model(features["inputs"], decoder_inputs)
            loss = tf.reduce_mean(
                tf.keras.losses.sparse_categorical_crossentropy(targets, logits, from_logits=True))
        variables = self.model.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss, char_count


def make_features(seed):
    ids = (tf.reshape(tf.range(2 * 6), [2, 6]) * (seed + 3)) % VOCAB
    return {
        "inputs": ids,
        "targets": (ids + 1) % VOCAB,
        "inputs_plaintext": tf.constant(["translate English to German: hello", "summarize: a short note"]),
    }


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    features = {k: v for k, v in make_features(0).items() if v.dtype != tf.string}
    return t.train_step, (features,)
