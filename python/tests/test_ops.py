import numpy as np
import porta
import pytest


def f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("a_shape,b_shape", [((5, 7), (5, 7)), ((5, 7), (7,)), ((3, 1, 4), (2, 1)), ((1000,), (1,))])
def test_add_broadcasts_like_numpy(dev, rng, a_shape, b_shape):
    a, b = f32(rng, *a_shape), f32(rng, *b_shape)
    out = porta.add(porta.asarray(a, device=dev), b)
    assert out.shape == np.broadcast_shapes(a_shape, b_shape)
    np.testing.assert_array_equal(out.numpy(), a + b)


def test_add_refuses_shapes_that_do_not_broadcast(dev, rng):
    with pytest.raises(ValueError, match="do not broadcast"):
        porta.add(porta.asarray(f32(rng, 3, 4), device=dev), f32(rng, 3))


def test_mul_and_operators(dev, rng):
    a, b = f32(rng, 64), f32(rng, 64)
    pa, pb = porta.asarray(a, device=dev), porta.asarray(b, device=dev)
    np.testing.assert_array_equal(porta.mul(pa, pb).numpy(), a * b)
    np.testing.assert_array_equal((pa * pb).numpy(), a * b)
    np.testing.assert_array_equal((pa + pb).numpy(), a + b)


def test_mul_refuses_mismatched_shapes(dev, rng):
    with pytest.raises(ValueError, match="one shape and dtype"):
        porta.mul(porta.asarray(f32(rng, 4), device=dev), f32(rng, 5))


def test_sigmoid(dev, rng):
    x = f32(rng, 1000) * 10
    np.testing.assert_allclose(porta.sigmoid(porta.asarray(x, device=dev)).numpy(), 1 / (1 + np.exp(-x)), rtol=1e-5, atol=1e-6)


def test_matmul(dev, rng):
    a, b = f32(rng, 33, 17), f32(rng, 17, 9)
    got = porta.matmul(porta.asarray(a, device=dev), b).numpy()
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose((porta.asarray(a, device=dev) @ porta.asarray(b, device=dev)).numpy(), got)
    got_t = porta.matmul(porta.asarray(a.T.copy(), device=dev), b, trans_a=True).numpy()
    np.testing.assert_allclose(got_t, got, rtol=1e-5, atol=1e-5)


def test_matmul_names_the_mismatch(dev, rng):
    with pytest.raises(ValueError, match="inner dimensions"):
        porta.matmul(porta.asarray(f32(rng, 3, 4), device=dev), f32(rng, 5, 2))
    with pytest.raises(ValueError, match="2-d"):
        porta.matmul(porta.asarray(f32(rng, 4), device=dev), f32(rng, 4, 2))
    with pytest.raises(TypeError, match="float32"):
        porta.matmul(porta.asarray(np.ones((2, 2), np.int32), device=dev), np.ones((2, 2), np.int32))


@pytest.mark.parametrize("activation", ["sigmoid", None])
def test_dense_is_activation_of_affine(dev, rng, activation):
    x, W, b = f32(rng, 20, 6), f32(rng, 3, 6), f32(rng, 3)
    z = x.astype(np.float64) @ W.T + b
    want = {"sigmoid": 1 / (1 + np.exp(-z)), None: z}[activation]
    got = porta.dense(porta.asarray(x, device=dev), W, b, activation=activation).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_dense_checks_bias_and_activation(dev, rng):
    x, W = porta.asarray(f32(rng, 2, 3), device=dev), f32(rng, 4, 3)
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        porta.dense(x, W, f32(rng, 3))
    with pytest.raises(ValueError, match="activation"):
        porta.dense(x, W, f32(rng, 4), activation="tanh")


def test_operands_of_two_devices_are_refused(dev, rng):
    other = porta.open("cpu")
    if other == dev:
        other = porta.open(dev.backend)  # a second open is a device of its own
    with pytest.raises(ValueError, match="expected one on"):
        porta.mul(porta.asarray(f32(rng, 4), device=dev), porta.asarray(f32(rng, 4), device=other))
