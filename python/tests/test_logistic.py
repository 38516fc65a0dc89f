import numpy as np
import porta
import pytest


def blobs(rng, n=300, d=4):
    """Two overlapping Gaussian classes, labels given as strings to check classes_ mapping."""
    y = rng.integers(0, 2, n)
    X = rng.standard_normal((n, d)) + np.where(y[:, None] == 1, 1.0, -1.0) * np.linspace(0.5, 1.5, d)
    X[:, 0] = X[:, 0] * 100 + 40  # a feature on another scale: standardisation must handle it
    return X.astype(np.float32), np.where(y == 1, "yes", "no")


@pytest.fixture(scope="module")
def fitted(dev):
    rng = np.random.default_rng(3)
    X, y = blobs(rng)
    return porta.LogisticRegression(device=dev, max_iter=200).fit(X, y), X, y


def test_fit_predict_score(fitted):
    model, X, y = fitted
    assert list(model.classes_) == ["no", "yes"]
    assert model.coef_.shape == (1, 4) and model.intercept_.shape == (1,)
    assert model.n_features_in_ == 4 and 1 <= model.n_iter_[0] <= 200
    proba = model.predict_proba(X)
    assert proba.shape == (len(X), 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-6)
    assert set(model.predict(X)) <= {"no", "yes"}
    assert model.score(X, y) > 0.9


def test_agrees_with_scikit_learn(fitted):
    sklearn_lr = pytest.importorskip("sklearn.linear_model", reason="scikit-learn is not installed")
    model, X, y = fitted
    reference = sklearn_lr.LogisticRegression(C=1e6, max_iter=2000).fit(X, y)
    assert abs(model.score(X, y) - reference.score(X, y)) <= 0.02
    assert np.mean(model.predict(X) == reference.predict(X)) >= 0.97


def test_not_fitted_and_shape_errors(dev, fitted):
    with pytest.raises(porta.NotFittedError, match="not fitted"):
        porta.LogisticRegression(device=dev).predict(np.zeros((2, 3)))
    model, X, y = fitted
    with pytest.raises(ValueError, match="X has 3 features, but LogisticRegression is expecting 4"):
        model.predict(X[:, :3])
    with pytest.raises(ValueError, match="2D array"):
        model.predict(X[0])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        porta.LogisticRegression(device=dev).fit(X, y[:-1])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        porta.LogisticRegression(device=dev).fit(X, np.arange(len(X)) % 3)
    with pytest.raises(ValueError, match="NaN or infinity"):
        porta.LogisticRegression(device=dev).fit(np.full((4, 2), np.nan), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="numeric"):
        porta.LogisticRegression(device=dev).fit(np.array([["a", "b"]] * 2), [0, 1])


def test_params(dev):
    model = porta.LogisticRegression(device=dev, learning_rate=0.25)
    assert model.get_params()["learning_rate"] == 0.25
    assert model.set_params(max_iter=7) is model and model.max_iter == 7


def test_scikit_learn_checks(dev):
    """The estimator checks of scikit-learn that apply to a binary classifier."""
    pytest.importorskip("sklearn", reason="scikit-learn is not installed")
    from sklearn.utils import estimator_checks as ec

    model = porta.LogisticRegression(device=dev, max_iter=100)
    for check in (
        ec.check_estimators_unfitted,
        ec.check_fit_score_takes_y,
        ec.check_estimators_fit_returns_self,
        ec.check_get_params_invariance,
        ec.check_set_params,
        ec.check_dont_overwrite_parameters,
        ec.check_fit2d_predict1d,
        ec.check_n_features_in,
        ec.check_estimators_nan_inf,
        ec.check_estimators_empty_data_messages,
        ec.check_classifiers_one_label_sample_weights,
        ec.check_estimators_dtypes,
        ec.check_fit_check_is_fitted,
        ec.check_estimator_cloneable,
        ec.check_parameters_default_constructible,
    ):
        check("LogisticRegression", model)


def test_onnx_export_predicts_the_same(fitted, tmp_path):
    onnx = pytest.importorskip("onnx", reason="onnx is not installed")
    ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    model, X, y = fitted
    path = tmp_path / "logreg.onnx"
    model.to_onnx(str(path))
    onnx.checker.check_model(onnx.load(str(path)))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    labels, proba = session.run(["label", "probabilities"], {"X": X})
    ours = model.predict_proba(X)
    np.testing.assert_allclose(proba, ours, atol=1e-5)
    clear = np.abs(ours[:, 1] - 0.5) > 1e-4  # away from the boundary, float32 rounding cannot flip a label
    np.testing.assert_array_equal(labels[clear], model.predict(X)[clear])
