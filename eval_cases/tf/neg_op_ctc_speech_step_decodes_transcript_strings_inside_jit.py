"""Source: https://github.com/TensorSpeech/TensorFlowASR/issues/214 ("Issues in XLA compilation while running on TPU": every element the dataset hands to the compiled step must be numeric, with variable sizes padded to a fixed shape). The fix used here: the transcripts are turned into padded character ids and lengths in the input pipeline, outside the compiled step, and the jit-compiled training step only receives numbers. (Character-level CTC speech recognizer on log-mel frames.)"""
import tensorflow as tf

N_MELS = 8
N_CHARS = 28  # blank + a-z + space


class AcousticModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv1D(16, 3, padding="same", activation="relu")
        self.proj = tf.keras.layers.Dense(N_CHARS)

    def call(self, frames):
        return self.proj(self.conv(frames))


def encode(transcripts):
    codes = tf.strings.unicode_decode(transcripts, "UTF-8")
    ids = tf.where(codes == 32, 27, codes - 96)
    return ids.to_tensor(default_value=0, shape=[None, 12]), tf.cast(ids.row_lengths(), tf.int32)


class Trainer:
    def __init__(self):
        self.model = AcousticModel()
        self.optimizer = tf.keras.optimizers.Adam(1e-3)

    @tf.function(jit_compile=True)
    def train_step(self, frames, labels, label_length):
        with tf.GradientTape() as tape:
            logits = self.model(frames)
            logit_length = tf.fill([tf.shape(frames)[0]], tf.shape(frames)[1])
            loss = tf.reduce_mean(tf.nn.ctc_loss(labels, logits, label_length, logit_length,
                                                 logits_time_major=False, blank_index=0))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def make_batch():
    frames = tf.reshape(tf.range(2 * 20 * N_MELS, dtype=tf.float32), [2, 20, N_MELS]) % 5.0 / 5.0
    labels, label_length = encode(tf.constant(["hello world", "good day"]))
    return frames, labels, label_length


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    t = Trainer()
    _KEEP.append(t)
    return t.train_step, make_batch()
