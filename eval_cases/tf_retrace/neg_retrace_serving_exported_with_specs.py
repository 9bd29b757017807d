"""Two serving modules whose `serve` methods have no input_signature but are exported through
`get_concrete_function(TensorSpec...)`.

Near miss from the issue-10 audit (tensorflow/models official/nlp/serving/serving_modules.py,
four false XLA407 findings: the serving functions are exported with TensorSpecs in the same file).
"""
import tensorflow as tf


class ClassificationModule(tf.Module):
    def __init__(self):
        self.w = tf.Variable(tf.ones([3, 2]))

    @tf.function
    def serve(self, features):
        return {"logits": tf.matmul(features, self.w)}

    def get_inference_signatures(self):
        return {"serving_default": self.serve.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))}


class RegressionModule(tf.Module):
    def __init__(self):
        self.w = tf.Variable(tf.ones([3, 1]))

    @tf.function
    def serve(self, features):
        return {"outputs": tf.matmul(features, self.w)}

    def get_inference_signatures(self):
        return {"serving_default": self.serve.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))}


# --- oracle ---
_KEEP = []


def ENTRY():
    m = RegressionModule()
    _KEEP.append(m)
    return m.get_inference_signatures()["serving_default"], (tf.ones([2, 3]),)


def ALT_ARGS():
    return [(tf.fill([2, 3], 2.0),)]
