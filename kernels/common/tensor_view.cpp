// Every porta_buffer handle is its own buffer (porta_buffer_create makes one
// handle per buffer), so views compare buffers by handle.
#include "tensor_view.hpp"

#include <cstdlib>
#include <cstring>

namespace porta::ops {

std::string View::shape_text() const {
  std::string s = "[";
  for (uint32_t i = 0; i < rank; ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

const char* dtype_name(porta_dtype dtype) {
  switch (dtype) {
    case PORTA_DTYPE_FLOAT32:
      return "float32";
    case PORTA_DTYPE_FLOAT16:
      return "float16";
    case PORTA_DTYPE_INT32:
      return "int32";
    case PORTA_DTYPE_BFLOAT16:
      return "bfloat16";
    case PORTA_DTYPE_INT8:
      return "int8";
    case PORTA_DTYPE_UINT8:
      return "uint8";
    case PORTA_DTYPE_INT16:
      return "int16";
    case PORTA_DTYPE_UINT16:
      return "uint16";
    case PORTA_DTYPE_UINT32:
      return "uint32";
    case PORTA_DTYPE_INT64:
      return "int64";
    case PORTA_DTYPE_UINT64:
      return "uint64";
    case PORTA_DTYPE_FLOAT64:
      return "float64";
  }
  return nullptr;
}

namespace {

// The refusal of an operand whose buffer porta_buffer_check_device turned
// down: a handle that is not live, with porta_buffer_get_device's cause, or a
// buffer of another device, named.
[[noreturn]] void refuse_foreign_buffer(const OpCall& call, porta_buffer buffer, const char* name) {
  porta_device owner = nullptr;
  const porta_status status = porta_buffer_get_device(buffer, &owner);
  if (status != PORTA_SUCCESS)
    refuse_handle(status, "porta_buffer_get_device", std::string(call.op) + ": operand '" + name + "'");
  porta_device_info owner_info{};
  porta_device_query_info(owner, &owner_info);
  porta_device_close(owner);
  call.fail(PORTA_ERROR_INVALID_HANDLE, "operand '%s' is a buffer of %s, not of the stream's device", name,
            device_label(owner_info).c_str());
}

}  // namespace

BinaryViews binary_views(const OpCall& call, const porta_tensor* a, const porta_tensor* b,
                         const porta_tensor* out, Extent extent) {
  require_float32(call, {a, b, out}, {"a", "b", "out"});
  View o = view(call, out, "out", PORTA_DTYPE_FLOAT32, extent),
       vb = view(call, b, "b", PORTA_DTYPE_FLOAT32, extent),
       va = view(call, a, "a", PORTA_DTYPE_FLOAT32, extent);
  return {std::move(va), std::move(vb), std::move(o)};
}

void require_float32(const OpCall& call, std::initializer_list<const porta_tensor*> tensors,
                     std::initializer_list<const char*> names) {
  const porta_tensor* first = nullptr;
  const char* first_name = nullptr;
  auto name = names.begin();
  for (const porta_tensor* t : tensors) {
    const char* n = *name++;
    if (!t) continue;  // view() reports a missing operand
    if (!dtype_name(t->dtype))
      call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand '%s' has dtype %d, which is not a porta_dtype", n,
                static_cast<int>(t->dtype));
    if (!first) {
      first = t;
      first_name = n;
    } else if (t->dtype != first->dtype) {
      call.fail(PORTA_ERROR_INVALID_ARGUMENT,
                "operand '%s' is %s but '%s' is %s; the operands' dtypes must match", n, dtype_name(t->dtype),
                first_name, dtype_name(first->dtype));
    }
  }
  if (first && first->dtype != PORTA_DTYPE_FLOAT32)
    call.fail(PORTA_ERROR_UNSUPPORTED, "operands are %s; this op computes in float32 only",
              dtype_name(first->dtype));
}

uint64_t max_index_elements() {
  static const uint64_t limit = [] {
    const char* env = std::getenv("PORTA_MAX_INDEX_ELEMENTS");
    if (!env || !*env) return kMaxElements;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(env, &end, 0);
    // Only lower: a kernel's 32-bit indices allow no more.
    if (*end != '\0' || value == 0 || value > kMaxElements) return kMaxElements;
    return uint64_t{value};
  }();
  return limit;
}

std::string index_limit_text() {
  return max_index_elements() == kMaxElements ? "2^31 - 1" : std::to_string(max_index_elements());
}

void require_indexed(const OpCall& call, const View& v, const char* why) {
  if (v.indexed) return;
  call.fail(
      PORTA_ERROR_UNSUPPORTED,
      "operand '%s' %s reaches element %llu of its buffer, past the kernels' 32-bit indices (at most %s "
      "elements from the start of a binding), and %s",
      v.name.c_str(), v.shape_text().c_str(), static_cast<unsigned long long>(v.end - 1),
      index_limit_text().c_str(), why);
}

View view(const OpCall& call, const porta_tensor* t, const char* name, porta_dtype dtype, Extent extent) {
  if (!t) call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand '%s' is null", name);
  View v;
  v.name = name;
  if (porta_buffer_check_device(t->buffer, call.device.get(), &v.buffer_bytes) != PORTA_SUCCESS)
    refuse_foreign_buffer(call, t->buffer, name);
  v.buffer = t->buffer;
  if (t->dtype != dtype && dtype == PORTA_DTYPE_FLOAT32)
    call.fail(dtype_name(t->dtype) ? PORTA_ERROR_UNSUPPORTED : PORTA_ERROR_INVALID_ARGUMENT,
              "operand '%s' is %s; this op computes in float32 only", name,
              dtype_name(t->dtype) ? dtype_name(t->dtype) : "of an unknown dtype");
  if (t->dtype != dtype)
    call.fail(dtype_name(t->dtype) ? PORTA_ERROR_UNSUPPORTED : PORTA_ERROR_INVALID_ARGUMENT,
              "operand '%s' is %s; it must be %s here", name,
              dtype_name(t->dtype) ? dtype_name(t->dtype) : "of an unknown dtype", dtype_name(dtype));
  v.dtype = dtype;
  v.element_bytes = porta_dtype_size(dtype);
  if (t->rank == 0 || t->rank > PORTA_TENSOR_MAX_RANK)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand '%s' has rank %u; ranks 1..%d are allowed", name,
              t->rank, PORTA_TENSOR_MAX_RANK);
  v.rank = t->rank;
  v.offset = t->offset;
  const uint64_t limit = max_index_elements();
  const bool indexed_only = extent == Extent::indexed;
  bool all_zero = true;
  for (uint32_t i = 0; i < v.rank; ++i) all_zero = all_zero && t->strides[i] == 0;
  // The product of the shape, UINT64_MAX where it overflows (no buffer holds that).
  uint64_t elements = 1;
  for (uint32_t i = v.rank; i-- > 0;) {
    v.shape[i] = t->shape[i];
    if (t->strides[i] < 0)
      call.fail(PORTA_ERROR_UNSUPPORTED, "operand '%s' has a negative stride (%lld in dimension %u)", name,
                static_cast<long long>(t->strides[i]), i);
    v.strides[i] = all_zero ? static_cast<int64_t>(elements) : t->strides[i];
    if (indexed_only && v.shape[i] > limit)
      call.fail(PORTA_ERROR_UNSUPPORTED, "operand '%s' %s has more than %s elements in dimension %u", name,
                v.shape_text().c_str(), index_limit_text().c_str(), i);
    if (elements != UINT64_MAX && __builtin_mul_overflow(elements, v.shape[i], &elements))
      elements = UINT64_MAX;
    if (indexed_only && elements > limit)
      call.fail(PORTA_ERROR_UNSUPPORTED, "operand '%s' %s has more than %s elements", name,
                v.shape_text().c_str(), index_limit_text().c_str());
  }
  v.elements = elements;
  // Row-major without gaps: each stride is the product of the later sizes
  // (sizes of 1 may have any stride).
  v.contiguous = true;
  uint64_t expect = 1;
  for (uint32_t i = v.rank; i-- > 0;) {
    if (v.shape[i] != 1 && static_cast<uint64_t>(v.strides[i]) != expect) v.contiguous = false;
    if (__builtin_mul_overflow(expect, v.shape[i], &expect)) expect = UINT64_MAX;
  }
  const uint64_t buffer_elements = v.buffer_bytes / v.element_bytes;
  // An offset past the buffer is refused before it is added to: offset + extent may wrap around.
  if (elements > 0 && v.offset >= buffer_elements)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT,
              "operand '%s' %s starts at element offset %llu, past the end of its buffer "
              "(%llu bytes = %llu %s elements)",
              name, v.shape_text().c_str(), static_cast<unsigned long long>(v.offset),
              static_cast<unsigned long long>(v.buffer_bytes),
              static_cast<unsigned long long>(buffer_elements), dtype_name(dtype));
  // Last element touched, UINT64_MAX where the sum overflows (past any buffer).
  uint64_t last = v.offset;
  if (elements > 0)
    for (uint32_t i = 0; i < v.rank; ++i) {
      if (v.shape[i] > 1 && static_cast<uint64_t>(v.strides[i]) > limit)
        call.fail(PORTA_ERROR_UNSUPPORTED,
                  "operand '%s' %s has stride %lld in dimension %u, above %s elements", name,
                  v.shape_text().c_str(), static_cast<long long>(v.strides[i]), i,
                  index_limit_text().c_str());
      uint64_t reach = 0;
      if (__builtin_mul_overflow(v.shape[i] - 1, static_cast<uint64_t>(v.strides[i]), &reach) ||
          __builtin_add_overflow(last, reach, &last))
        last = UINT64_MAX;
    }
  v.begin = v.offset;
  v.end = elements > 0 ? (last == UINT64_MAX ? last : last + 1) : v.offset;
  if (elements > 0 && last >= buffer_elements)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT,
              "operand '%s' %s at element offset %llu reaches element %s, past the end of its buffer "
              "(%llu bytes = %llu %s elements)",
              name, v.shape_text().c_str(), static_cast<unsigned long long>(v.offset),
              last == UINT64_MAX ? "beyond 2^64" : std::to_string(last).c_str(),
              static_cast<unsigned long long>(v.buffer_bytes),
              static_cast<unsigned long long>(buffer_elements), dtype_name(dtype));
  v.indexed = elements == 0 || last <= limit;
  if (indexed_only) require_indexed(call, v, "this op binds it whole");
  return v;
}

void require_rank(const OpCall& call, const View& v, uint32_t rank) {
  if (v.rank != rank)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand '%s' has rank %u (shape %s); this op needs rank %u",
              v.name.c_str(), v.rank, v.shape_text().c_str(), rank);
}

void require_contiguous(const OpCall& call, const View& v) {
  if (!v.contiguous)
    call.fail(PORTA_ERROR_UNSUPPORTED,
              "operand '%s' %s is not contiguous row-major; this op needs contiguous views", v.name.c_str(),
              v.shape_text().c_str());
}

void require_same_shape(const OpCall& call, const View& a, const View& b) {
  bool same = a.rank == b.rank;
  for (uint32_t i = 0; same && i < a.rank; ++i) same = a.shape[i] == b.shape[i];
  if (!same)
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "shapes differ: '%s' is %s but '%s' is %s", a.name.c_str(),
              a.shape_text().c_str(), b.name.c_str(), b.shape_text().c_str());
}

uint32_t row_stride(const OpCall& call, const View& v) {
  if (v.shape[1] > 1 && v.strides[1] != 1)
    call.fail(PORTA_ERROR_UNSUPPORTED,
              "operand '%s' %s has column stride %lld; this op needs unit column stride", v.name.c_str(),
              v.shape_text().c_str(), static_cast<long long>(v.strides[1]));
  if (v.shape[1] > max_index_elements())
    call.fail(PORTA_ERROR_UNSUPPORTED, "operand '%s' %s has rows of more than %s elements", v.name.c_str(),
              v.shape_text().c_str(), index_limit_text().c_str());
  if (v.shape[0] <= 1) return static_cast<uint32_t>(v.shape[1]);
  if (static_cast<uint64_t>(v.strides[0]) < v.shape[1])
    call.fail(PORTA_ERROR_INVALID_ARGUMENT, "operand '%s' %s has row stride %lld, shorter than its rows",
              v.name.c_str(), v.shape_text().c_str(), static_cast<long long>(v.strides[0]));
  return static_cast<uint32_t>(v.strides[0]);
}

bool overlaps(const View& a, const View& b) {
  if (a.buffer != b.buffer || a.elements == 0 || b.elements == 0) return false;
  return a.begin * a.element_bytes < b.end * b.element_bytes &&
         b.begin * b.element_bytes < a.end * a.element_bytes;
}

bool same_view(const View& a, const View& b) {
  if (a.buffer != b.buffer || a.offset != b.offset || a.rank != b.rank) return false;
  for (uint32_t i = 0; i < a.rank; ++i)
    if (a.shape[i] != b.shape[i] || (a.shape[i] != 1 && a.strides[i] != b.strides[i])) return false;
  return true;
}

namespace {
[[noreturn]] void overlap_failure(const OpCall& call, const View& out, const View& in, const char* rule) {
  call.fail(
      PORTA_ERROR_INVALID_ARGUMENT,
      "'%s' (buffer elements [%llu, %llu)) overlaps '%s' (elements [%llu, %llu)) in the same buffer; %s",
      out.name.c_str(), static_cast<unsigned long long>(out.begin), static_cast<unsigned long long>(out.end),
      in.name.c_str(), static_cast<unsigned long long>(in.begin), static_cast<unsigned long long>(in.end),
      rule);
}
}  // namespace

void require_disjoint(const OpCall& call, const View& out, const View& in) {
  if (overlaps(out, in)) overlap_failure(call, out, in, "they must not share memory");
}

void require_disjoint_or_same(const OpCall& call, const View& out, const View& in) {
  if (overlaps(out, in) && !same_view(out, in))
    overlap_failure(call, out, in,
                    "an output may be exactly its input (in place) but must not partly overlap it");
}

}  // namespace porta::ops
