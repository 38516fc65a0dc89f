// Tensor views: everything an op checks about its operands (porta_tensor)
// before it queues anything.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "op_call.hpp"

namespace porta::ops {

// Kernels index with 32-bit unsigned integers: an element index within one
// binding stays below this. A view that reaches further is either split into
// pieces that each bind a range (for_each_row_piece) or refused.
constexpr uint64_t kMaxElements = (uint64_t(1) << 31) - 1;

// The index limit ops work to: kMaxElements, or less under
// PORTA_MAX_INDEX_ELEMENTS, a testing knob (README.md) that makes ops split
// small views as they must split views beyond 2^31 - 1 elements.
uint64_t max_index_elements();
// The limit in messages: "2^31 - 1", or the lowered number.
std::string index_limit_text();

// What an operand's view may span: `indexed`, every element within the
// kernels' 32-bit indices from its buffer's start (the op binds it whole);
// `pieces`, any size within its buffer (the op splits it into ranges,
// for_each_row_piece, which checks each piece).
enum class Extent { indexed, pieces };

// A checked porta_tensor.
struct View {
  std::string name;  // the operand's name in messages
  porta_buffer buffer = nullptr;
  uint64_t buffer_bytes = 0;
  porta_dtype dtype = PORTA_DTYPE_FLOAT32;
  uint32_t rank = 0;
  uint64_t shape[PORTA_TENSOR_MAX_RANK] = {};
  int64_t strides[PORTA_TENSOR_MAX_RANK] = {};  // explicit, never all-zero
  uint64_t offset = 0;
  uint32_t element_bytes = 4;      // of its dtype
  uint64_t elements = 0;           // product of the shape
  uint64_t begin = 0, end = 0;     // elements of the buffer it may touch: [begin, end)
  bool contiguous = false;         // row-major without gaps
  bool indexed = false;            // end <= max_index_elements() + 1: bindable whole
  std::string shape_text() const;  // "[5, 2]"
};

// Checks the tensor (null, buffer handle and device, dtype `dtype`, rank,
// strides >= 0 and within the index limit, range inside the buffer, and with
// Extent::indexed every element within 32-bit indexing). Launchers check
// their operands from the last to the first, the order porta_ops_* have
// always reported a bad operand in when more than one is bad.
View view(const OpCall& call, const porta_tensor* tensor, const char* name,
          porta_dtype dtype = PORTA_DTYPE_FLOAT32, Extent extent = Extent::indexed);
// Refuses a view (of Extent::pieces) that the op must bind whole but that
// reaches past the kernels' 32-bit indices.
void require_indexed(const OpCall& call, const View& v, const char* why);
// The name of a porta_dtype ("float16"), or null for a value that is none.
const char* dtype_name(porta_dtype dtype);
// Checks that all operands have the same dtype, then that it is float32.
void require_float32(const OpCall& call, std::initializer_list<const porta_tensor*> tensors,
                     std::initializer_list<const char*> names);
void require_rank(const OpCall& call, const View& v, uint32_t rank);
void require_contiguous(const OpCall& call, const View& v);
void require_same_shape(const OpCall& call, const View& a, const View& b);
// Whether two views may touch the same memory (bytes of the buffer).
bool overlaps(const View& a, const View& b);
// Whether two views are the same elements in the same order.
bool same_view(const View& a, const View& b);
// Row stride of a rank-2 view with unit column stride (fails otherwise).
uint32_t row_stride(const OpCall& call, const View& v);
// `out` must share no memory with `in`.
void require_disjoint(const OpCall& call, const View& out, const View& in);
// `out` may be `in` itself (elementwise ops), but must not partly overlap it.
void require_disjoint_or_same(const OpCall& call, const View& out, const View& in);

// The operands of an elementwise out = f(a, b): one float32 dtype, checked
// out first; shapes and layouts are the op's to check.
struct BinaryViews {
  View a, b, out;
};
BinaryViews binary_views(const OpCall& call, const porta_tensor* a, const porta_tensor* b,
                         const porta_tensor* out, Extent extent = Extent::indexed);

}  // namespace porta::ops
