#version 450
#extension GL_EXT_control_flow_attributes : require
// One step of logistic regression, first half: for the rows of X this
// work-group owns, z = X w + b, yhat = sigmoid(z), r = yhat - y, and the sums
// of X^T r (d values), of r and of the binary cross-entropy loss, written to
// this group's slot of the partials buffer P (d + 2 floats per group).
// logreg_update.comp adds the slots in group order and applies the step.
//
// X is read from memory once, in one of three ways (the host picks, MODE):
//
// MODE 0, tiles (any d; CPU-type devices): a tile of whole rows (up to TILE
// floats) is loaded into shared memory, z is computed from it, then X^T r for
// the same tile is taken from it. Rows longer than TILE floats (d > 2048) take
// a slower path that reads each row twice, the second time from cache.
//
// MODE 1, columns in registers (GPUs, WG / 2 <= d <= C * WG): item t owns
// columns t, t + WG, ... (C of them) and keeps their weights and X^T r sums in
// registers for all of its group's rows, so X goes from memory straight to
// registers and never through shared memory. With V > 1 an item's words come
// V consecutive words at a time, one 8- or 16-byte load each: item t owns
// words V t .. V t + V - 1, then those WG V later, and so on (fewer items per
// row, so fewer shares of each dot product to add up). Rows go R at a time;
// the next R rows and their labels are loaded before the current ones are
// reduced, so loads stay in flight across the barriers. Only the R dot
// products pass through shared memory: three barriers per R rows.
//
// MODE 2, rows in sequence (porta's CPU backend, groups of one item): the
// item walks its rows one after another, z from four running sums (so a CPU
// overlaps the adds), then adds x r into its group's slot of P. No barriers,
// no shared memory; the second pass over a row reads it from cache.
//
// X is stored as float32, float16, bfloat16 or int8 (DTYPE) and read as
// 32-bit words of 1, 2 or 4 elements (PACK), decoded in registers: every
// backend reads such words without 16- or 8-bit storage features, and a step
// on 16-bit features reads half the bytes, on 8-bit ones a quarter. Rows
// start on a word (the host checks x_offset and ldx). int8 features are
// q_ij * x_scale[j]: the scale is folded into the weights (z = sum q (s w))
// and applied to the column's sum of q r, so the inner loops stay q times a
// float. Weights, sums and the partials are float32 for every DTYPE.
//
// The loss uses the log-sigmoid form, -log(sigmoid(z)) = softplus(-z) and
// -log(1 - sigmoid(z)) = softplus(z), which is finite for every finite z: no
// log of 0, no clamp needed (finish_row).
//
// Sums are taken in a fixed order (rows in order inside a tile, tiles in
// order, fixed trees), so a replay gives bit-identical results.
// The defaults are porta's CPU backend's choice (its built-in variant): one
// item per group, MODE 2. Other devices set both.
layout(local_size_x = 1, local_size_x_id = 0) in;  // a power of two, <= WG_MAX

layout(constant_id = 1) const uint MODE = 2;  // 0: tiles, 1: columns in registers, 2: rows in sequence
layout(constant_id = 2) const uint R = 1;     // MODE 1: rows per step, a power of two, R * WG <= TILE, R <= WG
layout(constant_id = 3) const uint C = 1;     // MODE 1: words of a row per item, R * C <= RC_MAX, C * PACK <= RC_MAX
layout(constant_id = 4) const uint DTYPE = 0; // X: 0 float32, 1 float16, 2 bfloat16, 3 int8 (with x_scale)
layout(constant_id = 5) const uint REDECODE = 0; // MODE 1: 1 decodes X again for X^T r (decode_again)
layout(constant_id = 6) const uint V = 1;     // MODE 1: words per load, 1, 2 or 4 (C, a row's words and
                                              // its first word's index multiples of V)

const uint TILE = 2048;     // floats of X per tile (8 KiB)
const uint ROWS_MAX = 1024; // rows per tile
const uint WG_MAX = 256;
const uint RC_MAX = 32;

layout(set = 0, binding = 0) readonly buffer MatX { uint xw[]; };  // words of PACK elements
layout(set = 0, binding = 0) readonly buffer MatX4 { uvec4 xw4[]; };  // the same words, four at a time
layout(set = 0, binding = 0) readonly buffer MatX2 { uvec2 xw2[]; };  // and two at a time
layout(set = 0, binding = 1) readonly buffer VecY { float y[]; };
layout(set = 0, binding = 2) readonly buffer VecW { float w[]; };
layout(set = 0, binding = 3) readonly buffer Bias { float bias[]; };
layout(set = 0, binding = 4) buffer Partials { float partials[]; };
layout(set = 0, binding = 5) readonly buffer Scale { float x_scale[]; };  // read only for int8

layout(push_constant) uniform Params {
  uint m;
  uint d;
  uint x_offset;
  uint ldx;  // row stride of X in elements
  uint y_offset;
  uint w_offset;
  uint b_offset;
  uint rows_per_tile;    // R: rows of a tile; 1 when d > TILE
  uint lanes;            // T: items per row for z when R < work-group size (R * T == work-group size), else 1
  uint tiles_per_group;
  uint partials_offset;
  uint scale_offset;
} p;

shared float tile_x[TILE];     // [row][col] of the current tile
shared float residual[ROWS_MAX];
shared float scratch[WG_MAX];  // tree reductions
// MODE 2 (rows of up to TILE columns): the weights and the group's sums of
// x r, four columns to a vec4 (rows_in_sequence); one element elsewhere.
shared vec4 row_w[MODE == 2u ? TILE / 4u : 1u];
shared vec4 row_grad[MODE == 2u ? TILE / 4u : 1u];

// Elements per word of X, and its log2.
uint pack() { return DTYPE == 0u ? 1u : DTYPE == 3u ? 4u : 2u; }
uint pack_shift() { return DTYPE == 0u ? 0u : DTYPE == 3u ? 2u : 1u; }

// Element `lane` of a word of X (lane 0 in the low bits). int8: the byte
// with its top bit flipped is q + 128, which as the low bits of the float
// 2^23 is 2^23 + q + 128 exactly; subtracting 2^23 + 128 leaves q. Integer
// ops and one add, no int-to-float conversion (a quarter-rate instruction on
// some GPUs).
float decode(uint word, uint lane) {
  if (DTYPE == 1u) return unpackHalf2x16(word >> (16u * lane)).x;
  if (DTYPE == 2u) return uintBitsToFloat(lane == 0u ? word << 16 : word & 0xffff0000u);
  if (DTYPE == 3u) return uintBitsToFloat(((word >> (8u * lane)) & 0xffu) ^ 0x4b000080u) - 8388736.0;
  return uintBitsToFloat(word);
}

// decode(word, lane) computed another way, for MODE 1's X^T r where REDECODE
// is set: a step multiplies each element twice, by the weight and, after the
// barriers, by its row's residual. Decoded the same way both times, a
// compiler keeps the R C PACK floats of the first decode alive across the
// barriers (int8, R = 16: 121 registers on CUDA, where the words alone need
// 72, and fewer groups per multiprocessor). Decoded another way, only the
// words stay, at the cost of decoding twice: int8 flips the top bits of the
// whole word first. (float16 and bfloat16 decode in one instruction each;
// keeping their floats costs CUDA no more registers.)
float decode_again(uint word, uint lane) {
  if (DTYPE == 3u)
    return uintBitsToFloat((((word ^ 0x80808080u) >> (8u * lane)) & 0xffu) | 0x4b000000u) - 8388736.0;
  return decode(word, lane);
}

// Element e of X's buffer (MODE 0 and 2 read X one element at a time).
float x_at(uint e) { return decode(xw[e >> pack_shift()], e & (pack() - 1u)); }

// Elements e .. e + 3 of X's buffer, e a multiple of 4 from a row's start
// (MODE 2): 4, 2 or 1 words, each loaded once.
vec4 x4_at(uint e) {
  const uint i = e >> pack_shift();
  // Four words that share a uvec4 of X's buffer: one 16-byte load. (From
  // xw[i + 1u] and the like, a CPU compiler cannot tell that the words are
  // neighbours, since i + 1u may wrap, and assembles the vec4 one by one.)
  if (DTYPE == 0u && (i & 3u) == 0u) return uintBitsToFloat(xw4[i >> 2u]);
  if (DTYPE == 0u)
    return vec4(uintBitsToFloat(xw[i]), uintBitsToFloat(xw[i + 1u]), uintBitsToFloat(xw[i + 2u]),
                uintBitsToFloat(xw[i + 3u]));
  if (DTYPE == 3u) {
    const uint v = xw[i];
    return vec4(decode(v, 0u), decode(v, 1u), decode(v, 2u), decode(v, 3u));
  }
  const uint lo = xw[i], hi = xw[i + 1u];
  return vec4(decode(lo, 0u), decode(lo, 1u), decode(hi, 0u), decode(hi, 1u));
}

// Column j's weight as the kernel multiplies it by X's stored values, and the
// factor of column j's sum of x r: the int8 scale, else 1.
float weight(uint j) { return DTYPE == 3u ? w[p.w_offset + j] * x_scale[p.scale_offset + j] : w[p.w_offset + j]; }
float column_scale(uint j) { return DTYPE == 3u ? x_scale[p.scale_offset + j] : 1.0; }

// (As in sigmoid.comp.) exp(v) for v <= 0 with an error that does not grow with |v|: Vulkan allows
// exp 3 + 2|x| ulp (163 ulp at x = -80), so the argument is reduced first,
// exp(v) = exp(r) * 2^k with |r| <= ln2/2. LN2_HI has 13 significant bits, so
// k * LN2_HI is exact for the |k| <= 159 that occur. Below -110 the result
// underflows to 0 anyway.
const float LOG2E = 1.44269504;
const float LN2_HI = 0.693115234375;
const float LN2_LO = 3.19461833e-05;

float exp_nonpositive(float v) {
  v = max(v, -110.0);
  float k = floor(v * LOG2E + 0.5);
  precise float r = (v - k * LN2_HI) - k * LN2_LO;  // precise: no reassociation into v - k * ln2
  return ldexp(exp(r), int(k));
}

// Row `row`'s label, 0 past m.
float label(uint row) { return row < p.m ? y[p.y_offset + row] : 0.0; }

// Residual and loss of one row, z = x w + b and its label `target` given;
// rows past m contribute nothing. One exp and one log per row: with
// e = exp(-|z|) (never overflows),
//   sigmoid(z) = 1 / (1 + e) for z >= 0, e / (1 + e) for z < 0,
//   softplus(z) = max(z, 0) + log(1 + e),
//   loss = y softplus(-z) + (1 - y) softplus(z) = softplus(z) - y z.
float finish_row(uint row, float z, float target, inout float db_sum, inout float loss_sum) {
  if (row >= p.m) return 0.0;
  float e = exp_nonpositive(-abs(z));
  float yhat = z >= 0.0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
  float r = yhat - target;
  db_sum += r;
  loss_sum += max(z, 0.0) + log(1.0 + e) - target * z;
  return r;
}

void add_partial(uint index, float value, bool first) {
  partials[index] = first ? value : partials[index] + value;
}

// MODE 1: the row's word that is item t's word slot c (of C).
uint word_of(uint t, uint c) {
  const uint WG = gl_WorkGroupSize.x;
  return V == 1u ? t + c * WG : (c / V) * V * WG + V * t + c % V;
}

// MODE 1: R rows of this item's words, 0 outside X, and (items t < R) the
// label of row row0 + t. Nothing here uses what the loads return, so they
// all stay in flight until the next step copies them (a word masked here,
// say, would make the GPU wait for each load in turn). Rows start on a word
// (the host checks x_offset and ldx), so a row's words are counted in words.
// MODE 1's loops over R, C and PACK are [[unroll]]: with constant indices the
// arrays of words, weights and sums stay in registers (as in matmul.comp; a
// compiler left to itself may keep such arrays in local memory, which a step
// on packed X, with PACK lanes per word, then reads for every element).
void load_rows(uint row0, out uint v[RC_MAX], out float target) {
  const uint t = gl_LocalInvocationID.x;
  target = t < R ? label(row0 + t) : 0.0;
  const uint words = (p.d + pack() - 1u) >> pack_shift();
  const uint ldw = p.ldx >> pack_shift();
  const uint at = (p.x_offset >> pack_shift()) + row0 * ldw;  // row row0's first word
  [[unroll]] for (uint k = 0u; k < R; ++k)
    [[unroll]] for (uint c = 0u; c < C; c += V) {
      // V words from word_of(c) on, all in the row or all past it (V divides the row's words).
      const uint word = word_of(t, c);
      const bool inside = row0 + k < p.m && word < words;
      const uint e = at + k * ldw + word;
      if (V == 4u) {
        const uvec4 q = inside ? xw4[e / 4u] : uvec4(0u);
        [[unroll]] for (uint j = 0u; j < 4u; ++j) v[k * C + c + j] = q[j];
      } else if (V == 2u) {
        const uvec2 q = inside ? xw2[e / 2u] : uvec2(0u);
        v[k * C + c] = q.x;
        v[k * C + c + 1u] = q.y;
      } else {
        v[k * C + c] = inside ? xw[e] : 0u;
      }
    }
}

// The lanes of word `word` of a row that hold columns below d, as a mask:
// the last word of a row may be part padding, which must decode to 0
// whatever it holds.
uint lanes_mask(uint word) {
  const uint first = word * pack();  // the word's first column
  if (first >= p.d) return 0u;
  const uint lanes = p.d - first;
  return lanes >= pack() ? 0xffffffffu : (1u << (lanes * (32u >> pack_shift()))) - 1u;
}

void columns_in_registers(uint base, inout float db_sum, inout float loss_sum) {
  const uint WG = gl_WorkGroupSize.x;
  const uint t = gl_LocalInvocationID.x;
  const uint P = WG / R;  // items that add up one row's shares at the first level
  const uint steps = p.tiles_per_group;
  const uint first_row = gl_WorkGroupID.x * steps * R;
  // Item t owns the words word_of(t, c) of each row (t, t + WG, ... with V =
  // 1): column word_of(t, c) PACK + l is w_own[c PACK + l], grad[c PACK + l].
  float w_own[RC_MAX];
  float grad[RC_MAX];
  uint keep[RC_MAX];  // lanes_mask of word c
  // The step's elements as decoded for z, kept for X^T r (REDECODE 0): each
  // is decoded once. Left to see that the two decodes agree, across the
  // step's barriers, NVRTC decoded float16 twice (its conversion is an
  // inline PTX instruction, which it does not merge), where NVIDIA's OpenCL
  // compiler kept the floats of the same source.
  float kept[RC_MAX * 4u];
  [[unroll]] for (uint c = 0u; c < C; ++c) keep[c] = lanes_mask(word_of(t, c));
  [[unroll]] for (uint c = 0u; c < C; ++c)
    [[unroll]] for (uint l = 0u; l < pack(); ++l) {
      const uint col = word_of(t, c) * pack() + l;
      w_own[c * pack() + l] = col < p.d ? weight(col) : 0.0;
      grad[c * pack() + l] = 0.0;
    }
  // The next step's words and labels are loaded before this step's are
  // used: the loads of X and y are in flight while the group reduces, so
  // neither a row's words nor its label is waited for inside a step.
  const float b = bias[p.b_offset];
  uint next[RC_MAX];
  float next_target;
  load_rows(first_row, next, next_target);
  for (uint step = 0u; step < steps; ++step) {
    const uint row0 = first_row + step * R;
    uint cur[RC_MAX];
    [[unroll]] for (uint k = 0u; k < R; ++k)
      [[unroll]] for (uint c = 0u; c < C; ++c)
        cur[k * C + c] = pack() > 1u ? next[k * C + c] & keep[c] : next[k * C + c];
    const float target = next_target;
    if (step + 1u < steps) load_rows(row0 + R, next, next_target);
    // This item's share of each row's dot product: tile_x[row][item].
    [[unroll]] for (uint k = 0u; k < R; ++k) {
      float s = 0.0;
      [[unroll]] for (uint c = 0u; c < C; ++c)
        [[unroll]] for (uint l = 0u; l < pack(); ++l) {
          const float x = decode(cur[k * C + c], l);
          if (REDECODE == 0u) kept[(k * C + c) * pack() + l] = x;
          s += x * w_own[c * pack() + l];
        }
      tile_x[k * WG + t] = s;
    }
    barrier();
    // First level: P items per row, each adding R shares P apart (so
    // consecutive items read consecutive words), into residual[RC_MAX + ...]
    // with rows P + 1 apart (no bank conflicts at the second level).
    {
      const uint k = t / P;
      const uint s0 = t % P;
      float s = 0.0;
      for (uint i = 0u; i < R; ++i) s += tile_x[k * WG + s0 + i * P];
      residual[RC_MAX + k * (P + 1u) + s0] = s;
    }
    barrier();
    if (t < R) {
      float s = 0.0;
      for (uint i = 0u; i < P; ++i) s += residual[RC_MAX + t * (P + 1u) + i];
      residual[t] = finish_row(row0 + t, s + b, target, db_sum, loss_sum);
    }
    barrier();
    [[unroll]] for (uint k = 0u; k < R; ++k) {
      const float r = residual[k];
      [[unroll]] for (uint c = 0u; c < C; ++c)
        [[unroll]] for (uint l = 0u; l < pack(); ++l) {
          const float x = REDECODE != 0u ? decode_again(cur[k * C + c], l) : kept[(k * C + c) * pack() + l];
          grad[c * pack() + l] += x * r;
        }
    }
  }
  [[unroll]] for (uint c = 0u; c < C; ++c)
    [[unroll]] for (uint l = 0u; l < pack(); ++l) {
      const uint col = word_of(t, c) * pack() + l;
      if (col < p.d) partials[base + col] = grad[c * pack() + l] * column_scale(col);
    }
}

// MODE 2: every row of the group in turn, by its one item. Rows of up to
// TILE columns keep the weights and this group's sums of x r in shared
// memory, four columns to a vec4 (row_w, row_grad), so that a CPU compiler
// reads and writes them as whole 16-byte vectors: from partials[base + k]
// and its neighbours, 32-bit indices that may wrap, it assembles each vec4
// from four loads and stores it as four. z takes sixteen running sums, four
// vec4s, so a CPU overlaps the multiply-adds of consecutive columns rather
// than waiting for each. Longer rows go column by column through the
// partials.
void rows_in_sequence(uint base, inout float db_sum, inout float loss_sum) {
  const uint d = p.d;
  const uint first_row = gl_WorkGroupID.x * p.tiles_per_group;
  const uint end_row = min(first_row + p.tiles_per_group, p.m);
  const float b = bias[p.b_offset];
  if (d <= TILE) {
    const uint whole = d / 4u;         // vec4s of whole columns
    const uint quads = (d + 3u) / 4u;  // and the last, partial one
    for (uint q = 0u; q < quads; ++q) {
      vec4 wq = vec4(0.0);
      for (uint c = 0u; c < 4u; ++c)
        if (4u * q + c < d) wq[c] = weight(4u * q + c);
      row_w[q] = wq;
      row_grad[q] = vec4(0.0);
    }
    for (uint row = first_row; row < end_row; ++row) {
      const uint at = p.x_offset + row * p.ldx;
      vec4 s0 = vec4(0.0), s1 = vec4(0.0), s2 = vec4(0.0), s3 = vec4(0.0);
      uint q = 0u;
      for (; q + 4u <= whole; q += 4u) {
        s0 += x4_at(at + 4u * q) * row_w[q];
        s1 += x4_at(at + 4u * q + 4u) * row_w[q + 1u];
        s2 += x4_at(at + 4u * q + 8u) * row_w[q + 2u];
        s3 += x4_at(at + 4u * q + 12u) * row_w[q + 3u];
      }
      for (; q < whole; ++q) s0 += x4_at(at + 4u * q) * row_w[q];
      for (uint j = 4u * whole; j < d; ++j) s0.x += x_at(at + j) * row_w[whole][j - 4u * whole];
      const vec4 s = (s0 + s1) + (s2 + s3);
      const float r = finish_row(row, (s.x + s.y) + (s.z + s.w) + b, label(row), db_sum, loss_sum);
      for (q = 0u; q < whole; ++q) row_grad[q] += x4_at(at + 4u * q) * r;
      for (uint j = 4u * whole; j < d; ++j) row_grad[whole][j - 4u * whole] += x_at(at + j) * r;
    }
    for (uint j = 0u; j < d; ++j) partials[base + j] = row_grad[j / 4u][j % 4u] * column_scale(j);
    return;
  }
  for (uint j = 0u; j < d; ++j) partials[base + j] = 0.0;
  for (uint row = first_row; row < end_row; ++row) {
    const uint at = p.x_offset + row * p.ldx;
    float s = 0.0;
    for (uint j = 0u; j < d; ++j) s += x_at(at + j) * weight(j);
    const float r = finish_row(row, s + b, label(row), db_sum, loss_sum);
    for (uint k = 0u; k < d; ++k) partials[base + k] += x_at(at + k) * r;
  }
  if (DTYPE == 3u)
    for (uint j = 0u; j < d; ++j) partials[base + j] *= column_scale(j);
}

void main() {
  const uint WG = gl_WorkGroupSize.x;
  const uint t = gl_LocalInvocationID.x;
  const uint d = p.d;
  const uint R = p.rows_per_tile;
  const uint T = p.lanes;
  const uint base = p.partials_offset + gl_WorkGroupID.x * (d + 2u);
  const uint first_row = gl_WorkGroupID.x * p.tiles_per_group * R;
  float db_sum = 0.0;    // this item's share of the sum of r
  float loss_sum = 0.0;  // and of the loss

  if (MODE == 1u) {
    columns_in_registers(base, db_sum, loss_sum);
  } else if (MODE == 2u) {
    rows_in_sequence(base, db_sum, loss_sum);
  } else if (d <= TILE) {
    const uint step_rows = WG / d;
    const uint step_cols = WG % d;
    for (uint tile = 0u; tile < p.tiles_per_group; ++tile) {
      const uint row0 = first_row + tile * R;
      const bool first = tile == 0u;
      // Element e = t + k WG of the tile is (row, col); both advance by a
      // fixed step, which spares an integer division per element. Four
      // elements per pass, their loads issued before any is stored, so that a
      // GPU has four loads in flight per item rather than one.
      uint r = t / d;
      uint col = t % d;
      const uint count = R * d;
      for (uint e = t; e < count; e += 4u * WG) {
        float v[4];
        for (uint k = 0u; k < 4u; ++k) {
          const uint row = row0 + r;
          v[k] = 0.0;
          if (k * WG < count - e && row < p.m) v[k] = x_at(p.x_offset + row * p.ldx + col);
          r += step_rows;
          col += step_cols;
          if (col >= d) {
            col -= d;
            ++r;
          }
        }
        for (uint k = 0u; k < 4u; ++k)
          if (k * WG < count - e) tile_x[e + k * WG] = v[k];
      }
      barrier();

      if (T == 1u) {
        for (uint r = t; r < R; r += WG) {
          float s = 0.0;
          for (uint j = 0u; j < d; ++j) s += tile_x[r * d + j] * weight(j);
          residual[r] = finish_row(row0 + r, s + bias[p.b_offset], label(row0 + r), db_sum, loss_sum);
        }
      } else {
        const uint r = t / T;
        const uint lane = t % T;
        float s = 0.0;
        for (uint j = lane; j < d; j += T) s += tile_x[r * d + j] * weight(j);
        scratch[t] = s;
        barrier();
        for (uint half_ = T / 2u; half_ > 0u; half_ /= 2u) {
          if (lane < half_) scratch[t] += scratch[t + half_];
          barrier();
        }
        if (lane == 0u)
          residual[r] =
              finish_row(row0 + r, scratch[t] + bias[p.b_offset], label(row0 + r), db_sum, loss_sum);
      }
      barrier();

      if (d >= WG) {
        for (uint j = t; j < d; j += WG) {
          float s = 0.0;
          for (uint r = 0u; r < R; ++r) s += tile_x[r * d + j] * residual[r];
          add_partial(base + j, s * column_scale(j), first);
        }
      } else {
        // Q items per column, each over every Q-th row, then added in order.
        const uint Q = WG / d;
        const uint j = t % d;
        const uint q = t / d;
        float s = 0.0;
        if (q < Q)
          for (uint r = q; r < R; r += Q) s += tile_x[r * d + j] * residual[r];
        scratch[t] = s;
        barrier();
        if (t < d) {
          float sum = 0.0;
          for (uint k = 0u; k < Q; ++k) sum += scratch[k * d + t];
          add_partial(base + t, sum * column_scale(t), first);
        }
      }
      barrier();
    }
  } else {
    // Rows longer than a tile: one row at a time, the dot product spread over
    // the group and added by a tree, then X^T r from the same row again.
    for (uint tile = 0u; tile < p.tiles_per_group; ++tile) {
      const uint row = first_row + tile;
      const bool valid = row < p.m;
      float s = 0.0;
      if (valid)
        for (uint j = t; j < d; j += WG) s += x_at(p.x_offset + row * p.ldx + j) * weight(j);
      scratch[t] = s;
      barrier();
      for (uint half_ = WG / 2u; half_ > 0u; half_ /= 2u) {
        if (t < half_) scratch[t] += scratch[t + half_];
        barrier();
      }
      if (t == 0u)
        residual[0] = finish_row(row, scratch[0] + bias[p.b_offset], label(row), db_sum, loss_sum);
      barrier();
      const float r = residual[0];
      for (uint j = t; j < d; j += WG)
        add_partial(base + j, valid ? x_at(p.x_offset + row * p.ldx + j) * r * column_scale(j) : 0.0, tile == 0u);
      barrier();
    }
  }

  // The group's sums of r and of the loss, added in item order.
  scratch[t] = db_sum;
  barrier();
  if (t == 0u) {
    float s = 0.0;
    for (uint i = 0u; i < WG; ++i) s += scratch[i];
    partials[base + d] = s;
  }
  barrier();
  scratch[t] = loss_sum;
  barrier();
  if (t == 0u) {
    float s = 0.0;
    for (uint i = 0u; i < WG; ++i) s += scratch[i];
    partials[base + d + 1u] = s;
  }
}
