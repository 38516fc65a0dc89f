// Bad operands are refused before anything is queued, each with a status and
// a message that names the op, the device and the operands.
#include <cmath>
#include <limits>

#include "support.hpp"

namespace porta::test {
namespace {

class BadInput : public ::testing::Test {
 protected:
  porta::Device dev = porta::open(backend_under_test());
  porta::Stream s = dev.stream();
  porta::Buffer buf(uint64_t n) { return dev.upload(std::vector<float>(n, 1.0f)); }

  // Runs `op` and checks its status and that the message mentions each word.
  template <class Op>
  void expect_error(porta_status want, std::initializer_list<const char*> words, Op op) {
    try {
      op();
      ADD_FAILURE() << "no error";
    } catch (const porta::Error& e) {
      EXPECT_EQ(e.status(), want) << e.what();
      for (const char* w : words)
        EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << "'" << w << "' not in: " << e.what();
      EXPECT_NE(std::string(e.what()).find(backend_under_test()), std::string::npos)
          << "device not named: " << e.what();
    }
  }
};

// A bad device handle is reported under the op's own name, as every other
// refusal of the op, not under the name of a call the op makes inside.
TEST(BadDevice, WorkspaceSizeOfANullDeviceNamesTheOp) {
  uint64_t bytes = 0;
  EXPECT_EQ(porta_ops_logreg_workspace_size(nullptr, 4, 2, &bytes), PORTA_ERROR_INVALID_HANDLE);
  const std::string message = porta_last_error();
  EXPECT_NE(message.find("porta_ops_logreg_workspace_size: the device handle is null"), std::string::npos)
      << message;
  EXPECT_EQ(message.find("porta_device_"), std::string::npos) << message;
}

TEST_F(BadInput, MulMismatchedShapes) {
  porta::Buffer a = buf(10), b = buf(9), o = buf(10);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"porta_ops_mul", "'a' is [10]", "'b' is [9]"}, [&] {
    porta::ops::mul(s, porta::Tensor(a, {10}), porta::Tensor(b, {9}), porta::Tensor(o, {10}));
  });
}

TEST_F(BadInput, MatmulInnerDimensionsDiffer) {
  porta::Buffer a = buf(12), b = buf(12), c = buf(16);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"porta_ops_matmul", "shapes do not match"}, [&] {
    porta::ops::matmul(s, porta::Tensor(a, {4, 3}), porta::Tensor(b, {4, 3}), porta::Tensor(c, {4, 4}));
  });
}

TEST_F(BadInput, MulMixedDtypes) {
  porta::Buffer a = buf(8), b = buf(8), o = buf(8);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"'b' is int32", "'a' is float32"}, [&] {
    porta::ops::mul(s, porta::Tensor(a, {8}), porta::Tensor(b, {8}, 0, PORTA_DTYPE_INT32),
                    porta::Tensor(o, {8}));
  });
}

TEST_F(BadInput, SigmoidFloat16IsUnsupported) {
  porta::Buffer x = buf(8), o = buf(8);
  expect_error(PORTA_ERROR_UNSUPPORTED, {"float16", "float32 only"}, [&] {
    porta::ops::sigmoid(s, porta::Tensor(x, {8}, 0, PORTA_DTYPE_FLOAT16),
                        porta::Tensor(o, {8}, 0, PORTA_DTYPE_FLOAT16));
  });
}

TEST_F(BadInput, MulOutputPartlyAliasesInput) {
  porta::Buffer a = buf(16), b = buf(8);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"'out'", "overlaps 'a'"}, [&] {
    porta::ops::mul(s, porta::Tensor(a, {8}), porta::Tensor(b, {8}), porta::Tensor(a, {8}, 3));
  });
}

TEST_F(BadInput, MatmulOutputAliasesInput) {
  porta::Buffer a = buf(16), b = buf(16);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"'C'", "overlaps 'A'", "must not share memory"}, [&] {
    porta::ops::matmul(s, porta::Tensor(a, {4, 4}), porta::Tensor(b, {4, 4}), porta::Tensor(a, {4, 4}));
  });
}

TEST_F(BadInput, ViewPastTheEndOfItsBuffer) {
  porta::Buffer a = buf(8), o = buf(8);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"'x'", "past the end"},
               [&] { porta::ops::sigmoid(s, porta::Tensor(a, {8}, 1), porta::Tensor(o, {8})); });
}

struct Logreg {
  porta::Buffer x, y, w, b, loss;
};

class BadLogreg : public BadInput {
 protected:
  Logreg make(uint64_t m, uint64_t d) {
    return {buf(std::max<uint64_t>(m * d, 1)), buf(std::max<uint64_t>(m, 1)), buf(std::max<uint64_t>(d, 1)),
            buf(1), buf(1)};
  }
  void step(const Logreg& l, uint64_t m, uint64_t d, float lr) {
    porta::ops::logreg_step(s, porta::Tensor(l.x, {m, d}), porta::Tensor(l.y, {m}), porta::Tensor(l.w, {d}),
                            porta::Tensor(l.b, {1}), lr, porta::Tensor(l.loss, {1}));
  }
};

TEST_F(BadLogreg, ZeroSamples) {
  Logreg l = make(0, 3);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"porta_ops_logreg_step", "m = 0"},
               [&] { step(l, 0, 3, 0.1f); });
}

TEST_F(BadLogreg, ZeroFeatures) {
  Logreg l = make(4, 0);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"d = 0"}, [&] { step(l, 4, 0, 0.1f); });
}

TEST_F(BadLogreg, NanLearningRate) {
  Logreg l = make(4, 2);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"lr", "not finite"}, [&] { step(l, 4, 2, NAN); });
}

TEST_F(BadLogreg, InfiniteLearningRate) {
  Logreg l = make(4, 2);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"lr", "not finite"},
               [&] { step(l, 4, 2, std::numeric_limits<float>::infinity()); });
}

TEST_F(BadLogreg, LabelsOfTheWrongLength) {
  Logreg l = make(4, 2);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"'y'", "m elements"}, [&] {
    porta::ops::logreg_step(s, porta::Tensor(l.x, {4, 2}), porta::Tensor(l.y, {3}), porta::Tensor(l.w, {2}),
                            porta::Tensor(l.b, {1}), 0.1f, porta::Tensor(l.loss, {1}));
  });
}

TEST_F(BadLogreg, WeightsAliasX) {
  Logreg l = make(4, 2);
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"'w'", "overlaps 'X'"}, [&] {
    porta::ops::logreg_step(s, porta::Tensor(l.x, {4, 2}), porta::Tensor(l.y, {4}),
                            porta::Tensor(l.x, {2}, 6), porta::Tensor(l.b, {1}), 0.1f,
                            porta::Tensor(l.loss, {1}));
  });
}

TEST_F(BadLogreg, WorkspaceTooSmall) {
  Logreg l = make(4, 2);
  porta::Buffer ws = buf(1);
  porta::Tensor wst(ws, {1});
  expect_error(PORTA_ERROR_INVALID_ARGUMENT, {"'workspace'", "porta_ops_logreg_workspace_size"}, [&] {
    porta::ops::logreg_step(s, porta::Tensor(l.x, {4, 2}), porta::Tensor(l.y, {4}), porta::Tensor(l.w, {2}),
                            porta::Tensor(l.b, {1}), 0.1f, porta::Tensor(l.loss, {1}), &wst);
  });
}

TEST_F(BadInput, NothingQueuedAfterARefusal) {
  // A refused op leaves the stream usable.
  porta::Buffer a = buf(4), o = buf(4);
  EXPECT_THROW(porta::ops::sigmoid(s, porta::Tensor(a, {4}), porta::Tensor(o, {5})), porta::Error);
  porta::ops::sigmoid(s, porta::Tensor(a, {4}), porta::Tensor(o, {4}));
  s.sync();
  for (float v : o.to_vector<float>()) EXPECT_FLOAT_EQ(v, 1.0f / (1.0f + std::exp(-1.0f)));
}

}  // namespace
}  // namespace porta::test
