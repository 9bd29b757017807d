"""Source: https://github.com/ina-foss/inaFaceAnalyzer/issues/23 ("fix batch len": classifying the faces found in each video frame as one batch gives the prediction function a different batch size per frame, and it is retraced ("5 out of the last 9 calls ... triggered tf.function retracing") until batches are given a fixed length). Here a face-attribute classifier whose jit-compiled predict step receives each frame's detected faces as a batch."""
import tensorflow as tf


class FaceClassifier:
    def __init__(self):
        self.model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(4, 3, activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
            tf.keras.layers.Dense(2, activation="softmax"),
        ])
        self.model.build([None, 8, 8, 3])

    @tf.function(jit_compile=True)
    def predict_step(self, faces):
        return self.model(faces)

    def classify_frame(self, face_crops):
        return self.predict_step(face_crops)  # XLA: retrace


def faces_of_frame(n):
    return tf.reshape(tf.range(n * 192, dtype=tf.float32), [n, 8, 8, 3]) / (n * 192.0)


# --- oracle ---
_KEEP = []
WRAP = False


def ENTRY():
    c = FaceClassifier()
    _KEEP.append(c)
    return c.classify_frame, (faces_of_frame(2),)


def ALT_ARGS():
    return [(faces_of_frame(3),), (faces_of_frame(1),)]
