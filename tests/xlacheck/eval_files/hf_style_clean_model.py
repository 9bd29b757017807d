"""An HF-style TF encoder with the idioms that compile under XLA: nothing here may be flagged."""
from __future__ import annotations

import math

import numpy as np
import tensorflow as tf
from transformers.modeling_tf_utils import shape_list
from transformers.tf_utils import stable_softmax


class TinyConfig:
    hidden_size = 16
    num_attention_heads = 2
    num_hidden_layers = 2
    layer_norm_eps = 1e-12
    use_gated_ffn = False
    vocab_size = 50


class TinySelfAttention(tf.keras.layers.Layer):
    def __init__(self, config: TinyConfig, **kwargs):
        super().__init__(**kwargs)
        self.num_heads = config.num_attention_heads
        self.head_dim = config.hidden_size // config.num_attention_heads
        self.sqrt_dim = math.sqrt(self.head_dim)
        self.qkv = tf.keras.layers.Dense(3 * config.hidden_size)
        self.out = tf.keras.layers.Dense(config.hidden_size)

    def split_heads(self, x: tf.Tensor, batch_size: int) -> tf.Tensor:
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.head_dim))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, hidden, attention_mask=None, past_key_value=None, output_attentions: bool = False,
             training: bool = False):
        batch_size, seq_len, _ = shape_list(hidden)
        q, k, v = tf.split(self.qkv(hidden), 3, axis=-1)
        q, k, v = (self.split_heads(t, batch_size) for t in (q, k, v))
        if past_key_value is not None:
            k = tf.concat([past_key_value[0], k], axis=2)
            v = tf.concat([past_key_value[1], v], axis=2)
        scores = tf.matmul(q, k, transpose_b=True) / self.sqrt_dim
        if attention_mask is not None:
            scores = scores + (1.0 - tf.cast(attention_mask[:, None, None, :], scores.dtype)) * -1e9
        probs = stable_softmax(scores, axis=-1)
        if training:
            probs = tf.nn.dropout(probs, rate=0.1)
        context = tf.reshape(tf.transpose(tf.matmul(probs, v), [0, 2, 1, 3]), (batch_size, seq_len, -1))
        outputs = (self.out(context),)
        if output_attentions:
            outputs = outputs + (probs,)
        return outputs


class TinyEncoder(tf.keras.layers.Layer):
    def __init__(self, config: TinyConfig, **kwargs):
        super().__init__(**kwargs)
        self.config = config
        self.embed = tf.keras.layers.Embedding(config.vocab_size, config.hidden_size)
        self.pos = tf.keras.layers.Embedding(64, config.hidden_size)
        self.blocks = [TinySelfAttention(config) for _ in range(config.num_hidden_layers)]
        self.norm = tf.keras.layers.LayerNormalization(epsilon=config.layer_norm_eps)

    def call(self, input_ids, attention_mask=None, output_hidden_states: bool = False, training: bool = False):
        input_shape = shape_list(input_ids)
        if attention_mask is None:
            attention_mask = tf.fill(input_shape, 1)
        positions = tf.range(input_shape[-1])[tf.newaxis, :]
        hidden = self.embed(input_ids) + self.pos(positions)
        all_hidden = () if output_hidden_states else None
        for i, block in enumerate(self.blocks):
            if output_hidden_states:
                all_hidden = all_hidden + (hidden,)
            layer_out = block(hidden, attention_mask, training=training)
            hidden = self.norm(hidden + layer_out[0])
        if tf.executing_eagerly():
            self._last_norm = float(np.linalg.norm(hidden.numpy()))
        tf.debugging.assert_equal(tf.shape(hidden)[0], tf.shape(input_ids)[0])
        return tuple(v for v in (hidden, all_hidden) if v is not None)


class TinyTokenClassifier(tf.keras.Model):
    def __init__(self, config: TinyConfig, num_labels=3):
        super().__init__()
        self.encoder = TinyEncoder(config)
        self.head = tf.keras.layers.Dense(num_labels)

    def call(self, input_ids, attention_mask=None, training=False):
        return self.head(self.encoder(input_ids, attention_mask, training=training)[0])

    def hf_compute_loss(self, labels, logits):
        active = tf.not_equal(tf.reshape(labels, (-1,)), -100)
        reduced_logits = tf.boolean_mask(tf.reshape(logits, (-1, shape_list(logits)[2])), active)
        labels = tf.boolean_mask(tf.reshape(labels, (-1,)), active)
        loss = tf.keras.losses.sparse_categorical_crossentropy(labels, reduced_logits, from_logits=True)
        return tf.reduce_mean(loss)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            logits = self(x, training=True)
            loss = self.hf_compute_loss(y, logits)
            per_class = tf.math.unsorted_segment_sum(tf.ones_like(y, tf.float32), tf.maximum(y, 0), num_segments=3)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        clipped = tf.where(loss > 10.0, 10.0, loss)
        n_tokens = int(logits.shape[1])
        return {"loss": clipped, "tokens": n_tokens, "per_class": per_class}
