"""Driver: transformers' TFDistilBertForSequenceClassification from a tiny config,
traced under tf.function(jit_compile=True)
(tools/measure_value_model.py runtime --drivers): real code nobody here wrote."""
from _tiny import entry_for
from transformers import DistilBertConfig, TFDistilBertForSequenceClassification
from transformers.models.distilbert import modeling_tf_distilbert

TRACE_FILE = modeling_tf_distilbert.__file__


def ENTRY():
    config = DistilBertConfig(
        vocab_size=64, dim=16, n_layers=2, n_heads=2, hidden_dim=32, max_position_embeddings=32
    )
    return entry_for(TFDistilBertForSequenceClassification(config))
