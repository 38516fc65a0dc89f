#version 450
// One step of logistic regression, second half: adds the per-group partials
// of logreg_partial.comp, divides by m and applies the step: w -= lr * dw,
// b -= lr * db, loss = mean loss of the weights before this step.
//
// A work-group takes LX columns (of the d + 2: dw, db, loss) with S slices of
// items per column (S a power of two): slice s adds the partials of groups
// s, s + S, ..., and the S slice sums are then added pairwise. On a GPU this
// spreads the thousands of partials of a column over S items; on CPU-type
// devices S = 1 (in group order). Either way the order is fixed, so a replay
// gives bit-identical results.
//
// With `accumulate` set the columns' sums are added to w, bias and loss as
// they are (no step, no mean): porta_ops_logreg_gradient, and the pieces of a
// step over X larger than one binding, add their sums so.
layout(local_size_x = 64, local_size_y = 1) in;
layout(local_size_x_id = 0, local_size_y_id = 1) in;

const uint ITEMS_MAX = 256;  // LX * S

layout(set = 0, binding = 0) readonly buffer Partials { float partials[]; };
layout(set = 0, binding = 1) buffer VecW { float w[]; };
layout(set = 0, binding = 2) buffer Bias { float bias[]; };
layout(set = 0, binding = 3) buffer Loss { float loss[]; };

layout(push_constant) uniform Params {
  uint d;
  uint groups;  // slots in the partials buffer, d + 2 floats each
  uint w_offset;
  uint b_offset;
  uint loss_offset;
  uint partials_offset;
  float m;  // rows, as a float
  float lr;
  uint accumulate;  // 1: add the sums to w, bias and loss
} p;

shared float slice_sums[ITEMS_MAX];  // [slice][column]

void main() {
  const uint LX = gl_WorkGroupSize.x;
  const uint S = gl_WorkGroupSize.y;
  const uint column = gl_LocalInvocationID.x;
  const uint slice = gl_LocalInvocationID.y;
  const uint j = gl_WorkGroupID.x * LX + column;
  const uint width = p.d + 2u;
  float s = 0.0;
  if (j < width)
    for (uint g = slice; g < p.groups; g += S) s += partials[p.partials_offset + g * width + j];
  if (S > 1u) {  // S is a power of two: halves added pairwise, log2(S) rounds
    slice_sums[slice * LX + column] = s;
    barrier();
    for (uint apart = S / 2u; apart > 0u; apart /= 2u) {
      if (slice < apart) slice_sums[slice * LX + column] += slice_sums[(slice + apart) * LX + column];
      barrier();
    }
    s = slice_sums[column];
  }
  if (slice != 0u || j >= width) return;
  if (p.accumulate != 0u) {
    if (j < p.d)
      w[p.w_offset + j] += s;
    else if (j == p.d)
      bias[p.b_offset] += s;
    else
      loss[p.loss_offset] += s;
    return;
  }
  const float mean = s / p.m;
  if (j < p.d)
    w[p.w_offset + j] -= p.lr * mean;
  else if (j == p.d)
    bias[p.b_offset] -= p.lr * mean;
  else
    loss[p.loss_offset] = mean;
}
