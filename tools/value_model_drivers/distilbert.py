"""Driver: transformers' TFDistilBertForSequenceClassification from a tiny config,
traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote. Built eagerly first,
so only the forward pass runs inside the trace."""
import tensorflow as tf
from transformers import DistilBertConfig, TFDistilBertForSequenceClassification
from transformers.models.distilbert import modeling_tf_distilbert

TRACE_FILE = modeling_tf_distilbert.__file__


def ENTRY():
    config = DistilBertConfig(
        vocab_size=64, dim=16, n_layers=2, n_heads=2, hidden_dim=32, max_position_embeddings=32
    )
    model = TFDistilBertForSequenceClassification(config)
    ids = tf.constant([[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]])
    model(ids, training=False)

    def forward(x):
        return model(x, training=False)

    return forward, (ids,)
