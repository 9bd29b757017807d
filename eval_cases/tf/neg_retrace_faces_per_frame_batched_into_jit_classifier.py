"""Source: https://github.com/ina-foss/inaFaceAnalyzer/issues/23 (the fix "fix batch len": pad every frame's faces to a fixed batch length before the compiled prediction and keep only the real rows, so the jit-compiled step sees one shape). Face-attribute classifier with fixed-size face batches."""
import tensorflow as tf

MAX_FACES = 4


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
        n = face_crops.shape[0]
        padded = tf.pad(face_crops, [[0, MAX_FACES - n], [0, 0], [0, 0], [0, 0]])
        return self.predict_step(padded)[:n]


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
