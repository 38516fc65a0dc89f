// Elementwise ops of two same-shape contiguous float operands, four floats per
// load and store: the part of a piece (for_each_piece) that an op's
// NAME_vec4.comp does (kernels/mul/mul_vec4.comp's interface: push constants
// {n4, a_offset4, b_offset4, o_offset4, stride} in vec4s, spec constant 0 the
// work-group size, 1 ONCE). A vec4 view of a float buffer starts on a 16-byte
// boundary, so it takes the first 4*(n/4) elements only when every element
// offset is a multiple of 4; the op's scalar kernel does the rest.
#pragma once

#include "common/launch.hpp"

namespace porta::ops {

// Dispatches `vec4_kernel` over what it can do of `piece` (operands a, b, out);
// returns the elements it covers (0: none, the scalar kernel does all).
inline uint64_t dispatch_vec4_part(const OpCall& call, const Piece& piece, uint32_t wg,
                                   const char* vec4_kernel) {
  const uint32_t a_offset = piece.offset[0], b_offset = piece.offset[1], o_offset = piece.offset[2];
  const bool aligned = a_offset % 4 == 0 && b_offset % 4 == 0 && o_offset % 4 == 0;
  const uint64_t vec4s = aligned ? piece.count / 4 : 0;
  if (vec4s == 0) return 0;
  const uint32_t groups = elementwise_groups(call.info, vec4s, wg);
  struct {
    uint32_t n4, a_offset4, b_offset4, o_offset4, stride;
  } push{static_cast<uint32_t>(vec4s), a_offset / 4, b_offset / 4, o_offset / 4, groups * wg};
  // CPU-type devices: an item per vec4 where they may (ONCE, mul.comp says why).
  const uint32_t once =
      uint32_t(loop_free_elementwise(call.info, groups, wg, vec4s, {a_offset, b_offset, o_offset}));
  dispatch_ranges(call, builtin_kernel(call, vec4_kernel, {{0, wg}, {1, once}}), groups, 1,
                  {piece.binding[0], piece.binding[1], piece.binding[2]}, &push, sizeof push);
  return vec4s * 4;
}

}  // namespace porta::ops
