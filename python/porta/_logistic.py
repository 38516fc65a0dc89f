"""porta.LogisticRegression: binary logistic regression trained on a porta
device, in scikit-learn's estimator style.

Training standardises the features (mean 0, variance 1, kept with the model)
and runs full-batch gradient descent with porta's ``logreg_step`` op, recorded
once and replayed in chunks of steps; prediction is one fused ``dense`` op.
Where scikit-learn is installed the class is a scikit-learn estimator (clone,
pipelines, ``check_estimator``); without it the same methods work alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _porta
from ._core import Device, _device, asarray, empty, zeros
from .ops import dense

try:
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.exceptions import NotFittedError

    _BASES: tuple = (ClassifierMixin, BaseEstimator)
except ImportError:  # pragma: no cover - scikit-learn is optional

    class NotFittedError(ValueError, AttributeError):
        """The estimator is used before fit."""

    class _Params:
        _PARAMS = ("device", "learning_rate", "max_iter", "tol")

        def get_params(self, deep: bool = True) -> dict:
            return {k: getattr(self, k) for k in self._PARAMS}

        def set_params(self, **params: Any):
            for k, v in params.items():
                if k not in self._PARAMS:
                    raise ValueError(f"Invalid parameter {k!r} for {type(self).__name__}; valid: {self._PARAMS}")
                setattr(self, k, v)
            return self

        def score(self, X, y, sample_weight=None) -> float:
            return float(np.average(self.predict(X) == np.asarray(y), weights=sample_weight))

    _BASES = (_Params,)

_CHUNK = 50  # steps per replayed sequence; convergence is checked between chunks


def _check_X(X: Any, what: str) -> np.ndarray:
    if hasattr(X, "__dlpack__") and not isinstance(X, np.ndarray):
        X = np.from_dlpack(X)
    X = np.asarray(X)
    if X.dtype.kind not in "biuf":
        raise ValueError(f"{what}: expected a numeric array, got dtype {X.dtype}")
    if X.ndim != 2:
        raise ValueError(
            f"{what}: Expected 2D array, got {X.ndim}D array instead. Reshape your data "
            "with X.reshape(-1, 1) for one feature or X.reshape(1, -1) for one sample"
        )
    if X.shape[0] < 1:
        raise ValueError(f"{what}: Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
    if X.shape[1] < 1:
        raise ValueError(f"{what}: Found array with 0 feature(s) (shape={X.shape}) while a minimum of 1 is required.")
    X = X.astype(np.float32)
    if not np.isfinite(X).all():
        raise ValueError(f"{what}: Input X contains NaN or infinity")
    return X


class LogisticRegression(*_BASES):
    """Binary logistic regression on a porta device.

    Parameters: ``device`` (a porta.Device, a selector such as "cpu" or
    "vulkan:0", or None for porta's default), ``learning_rate``, ``max_iter``
    (gradient steps at most), ``tol`` (stop when the loss falls by less than
    this over one chunk of steps).
    Fitted attributes: ``classes_``, ``coef_`` (1, n_features), ``intercept_``
    (1,), ``n_features_in_``, ``n_iter_``, ``loss_``.
    """

    def __init__(self, device: Any = None, learning_rate: float = 0.5, max_iter: int = 1000, tol: float = 1e-6):
        self.device = device
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.tol = tol

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    # ---- training
    def fit(self, X: Any, y: Any) -> "LogisticRegression":
        X = _check_X(X, "LogisticRegression.fit")
        y = np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        if y.ndim != 1:
            raise ValueError(f"LogisticRegression.fit: y must be 1-d (n_samples,), got shape {y.shape}")
        if y.shape[0] != X.shape[0]:
            raise ValueError(
                f"LogisticRegression.fit: X and y have inconsistent numbers of samples: {X.shape[0]} and {y.shape[0]}"
            )
        if y.dtype.kind == "f" and not np.isfinite(y).all():
            raise ValueError("LogisticRegression.fit: Input y contains NaN or infinity")
        if y.dtype.kind == "c":
            raise ValueError("LogisticRegression.fit: complex data not supported")
        classes = np.unique(y)
        if len(classes) != 2:
            raise ValueError(
                f"LogisticRegression is a binary classifier: y must hold exactly 2 classes, got {len(classes)}: "
                f"{classes[:5]}"
            )
        if not (isinstance(self.max_iter, (int, np.integer)) and self.max_iter >= 1):
            raise ValueError(f"max_iter must be an int >= 1, got {self.max_iter!r}")
        if not (np.isfinite(self.learning_rate) and self.learning_rate > 0):
            raise ValueError(f"learning_rate must be a finite number > 0, got {self.learning_rate!r}")

        dev: Device = _device(self.device)
        mean = X.mean(axis=0, dtype=np.float64)
        scale = X.std(axis=0, dtype=np.float64)
        scale[scale == 0] = 1.0
        Xs = ((X - mean) / scale).astype(np.float32)
        target = (y == classes[1]).astype(np.float32)

        m, d = Xs.shape
        x_dev, y_dev = asarray(Xs, device=dev), asarray(target, device=dev)
        w, b, loss = zeros(d, device=dev), zeros(1, device=dev), zeros(1, device=dev)
        workspace = empty(_porta.ops_logreg_workspace_size(dev._handle, m, d) // 4 + 1, device=dev)
        stream = dev.stream
        views = [t._view() for t in (x_dev, y_dev, w, b)]
        stream._handle.begin_record()
        for _ in range(_CHUNK):
            _porta.ops_logreg_step(stream._handle, *views, float(self.learning_rate), loss._view(), workspace._view())
        sequence = stream._handle.end_record()

        steps, previous = 0, np.inf
        while steps < self.max_iter:
            stream._handle.replay(sequence)
            steps += _CHUNK
            current = float(loss.numpy()[0])
            if abs(previous - current) < self.tol:
                break
            previous = current
        w_host, b_host = w.numpy().astype(np.float64), float(b.numpy()[0])

        # Back to the caller's feature space: z = ((x - mean) / scale) . w + b.
        self.coef_ = (w_host / scale)[None, :]
        self.intercept_ = np.array([b_host - float(np.sum(w_host * mean / scale))])
        self.classes_ = classes
        self.n_features_in_ = d
        self.n_iter_ = np.array([steps])
        self.loss_ = current
        self.device_ = dev
        return self

    # ---- prediction
    def _check_fitted(self) -> None:
        if not hasattr(self, "coef_"):
            raise NotFittedError(
                f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with appropriate arguments "
                "before using this estimator."
            )

    def _positive_probability(self, X: Any) -> np.ndarray:
        self._check_fitted()
        X = _check_X(X, f"{type(self).__name__}.predict")
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(self).__name__} is expecting {self.n_features_in_} "
                "features as input"
            )
        W = self.coef_.astype(np.float32)
        bias = self.intercept_.astype(np.float32)
        return dense(asarray(X, device=self.device_), W, bias, activation="sigmoid").numpy()[:, 0]

    def decision_function(self, X: Any) -> np.ndarray:
        p = self._positive_probability(X).astype(np.float64)
        with np.errstate(divide="ignore"):
            return np.log(p) - np.log1p(-p)

    def predict_proba(self, X: Any) -> np.ndarray:
        p = self._positive_probability(X).astype(np.float64)
        return np.column_stack([1.0 - p, p])

    def predict(self, X: Any) -> np.ndarray:
        positive = self._positive_probability(X) > 0.5
        return self.classes_[positive.astype(np.intp)]

    # ---- export
    def to_onnx(self, path: str | None = None):
        """The fitted model as an ONNX graph (the ``onnx`` package): input
        ``X`` float32 (N, n_features), outputs ``label`` (N,) and
        ``probabilities`` (N, 2), as predict and predict_proba. Saved to
        ``path`` when given; returns the ModelProto."""
        self._check_fitted()
        import onnx
        from onnx import TensorProto, helper, numpy_helper

        d = self.n_features_in_
        classes = self.classes_
        if classes.dtype.kind in "US":
            classes_tensor = numpy_helper.from_array(classes.astype(object), "classes")
            label_type = TensorProto.STRING
        elif classes.dtype.kind == "f":
            classes_tensor = numpy_helper.from_array(classes.astype(np.float32), "classes")
            label_type = TensorProto.FLOAT
        else:
            classes_tensor = numpy_helper.from_array(classes.astype(np.int64), "classes")
            label_type = TensorProto.INT64
        init = [
            numpy_helper.from_array(self.coef_.T.astype(np.float32), "coef"),
            numpy_helper.from_array(self.intercept_.astype(np.float32), "intercept"),
            numpy_helper.from_array(np.array(1.0, np.float32), "one"),
            numpy_helper.from_array(np.array(0.5, np.float32), "half"),
            numpy_helper.from_array(np.array([1], np.int64), "axis1"),
            classes_tensor,
        ]
        nodes = [
            helper.make_node("MatMul", ["X", "coef"], ["z0"]),
            helper.make_node("Add", ["z0", "intercept"], ["z"]),
            helper.make_node("Sigmoid", ["z"], ["p1"]),
            helper.make_node("Sub", ["one", "p1"], ["p0"]),
            helper.make_node("Concat", ["p0", "p1"], ["probabilities"], axis=1),
            helper.make_node("Greater", ["p1", "half"], ["positive"]),
            helper.make_node("Cast", ["positive"], ["index2d"], to=TensorProto.INT64),
            helper.make_node("Squeeze", ["index2d", "axis1"], ["index"]),
            helper.make_node("Gather", ["classes", "index"], ["label"], axis=0),
        ]
        graph = helper.make_graph(
            nodes,
            "porta_logistic_regression",
            [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", d])],
            [
                helper.make_tensor_value_info("label", label_type, ["N"]),
                helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", 2]),
            ],
            init,
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="porta")
        model.ir_version = 8  # readable by onnxruntime releases of the last years
        onnx.checker.check_model(model)
        if path is not None:
            onnx.save(model, path)
        return model
