// porta-conformance: --groups 1,1,1 --inputs auto --elements 512
// what: sparse matrix-vector product in CSR form: row lengths from the data (0..7), row pointers by an in-kernel scan, column indices masked to 0..63
#version 450
layout(local_size_x = 64) in;

layout(binding = 0) readonly buffer RowLen { uint row_len[]; };
layout(binding = 1) readonly buffer Cols { uint cols[]; };
layout(binding = 2) readonly buffer Vals { float vals[]; };
layout(binding = 3) readonly buffer X { float x[]; };
layout(binding = 4) writeonly buffer Y { float y[]; };

shared uint row_ptr[65];

// Inputs rounded to multiples of 1/8: every product and sum below is exact, so the
// result does not depend on the order of additions or on fused multiply-add.
float q8(float v) { return floor(v * 8.0) * 0.125; }

void main() {
  uint row = gl_LocalInvocationID.x;
  if (row == 0u) {
    uint p = 0u;
    for (uint r = 0u; r < 64u; ++r) {
      row_ptr[r] = p;
      p += row_len[r] & 7u;  // at most 448 non-zeros
    }
    row_ptr[64] = p;
  }
  barrier();
  float acc = 0.0;
  for (uint k = row_ptr[row]; k < row_ptr[row + 1u]; ++k) acc += q8(vals[k]) * q8(x[cols[k] & 63u]);
  y[row] = acc;
}
