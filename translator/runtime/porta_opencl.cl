/* The runtime of OpenCL C emitted by porta's translator (target opencl).
 *
 * The OpenCL backend builds one program from one string (clBuildProgram with
 * "-cl-std=CL1.2") and launches
 *   __kernel void porta_opencl_kernel(<one __global pointer per storage buffer,
 *       in binding order>, const <push-constant struct> <name>)
 * with reqd_work_group_size set to the kernel's work-group size. Nothing is
 * included: the translator copies into each translation the sections of this
 * file that the kernel needs, in the order they appear here.
 *
 * A section runs from its "//@section NAME" line to the next one; its
 * trailing blank lines are not copied. Where a section serves several types
 * (OpenCL C has no overloading: one helper per operation and type), the
 * translator replaces
 *   {T}   the operand type: int, uint, long, short4, ...
 *   {U}   the unsigned type of the same width as a signed {T} (uint for int)
 *   {S}   the component type of a vector {T} (int for int4)
 *   {OP}  div, rem or mod
 * A vector helper calls the scalar one of its {OP} and {S}, which the
 * translator copies first; porta_mod_{T} of a signed {T} calls porta_rem_{T}.
 */

//@section begin
// Translated by porta-translate (target opencl) from SPIR-V: OpenCL C 1.2. The OpenCL
// backend builds it with -cl-std=CL1.2 and launches porta_opencl_kernel.

//@section fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

//@section int64_atomics
// 64-bit atomics: atom_add, atom_cmpxchg, ... (the OpenCL backend asks for the
// atomic-int64 feature, which these extensions give).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

//@section prelude
// GLSL rounds a * b + c twice unless the source asks for fma(); OpenCL C would fuse it.
#pragma OPENCL FP_CONTRACT OFF

//@section half
// float16_t without cl_khr_fp16: a value is a float that holds a half
// exactly; buffers hold its 16 bits (ushort). Every operation is done in
// float and rounded to half, round to nearest even: the correctly rounded
// half result for + - * (float's are correctly rounded, and its 24 bits are
// more than 2 * 11 + 2, so rounding twice never differs from rounding once);
// / and sqrt below.
ushort porta_half_bits(float value)
{
    const uint f = as_uint(value);
    const uint sign = (f >> 16) & 0x8000u;
    const uint exponent = (f >> 23) & 0xffu;
    uint mantissa = f & 0x7fffffu;
    if (exponent == 0xffu) return (ushort)(sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0u));
    const int e = (int)exponent - 127 + 15;
    if (e >= 31) return (ushort)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) return (ushort)sign;
        mantissa |= 0x800000u;
        const int shift = 14 - e;
        uint kept = mantissa >> shift;
        const uint rest = mantissa & ((1u << shift) - 1u);
        const uint halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (kept & 1u))) ++kept;
        return (ushort)(sign | kept);
    }
    uint kept = ((uint)e << 10) | (mantissa >> 13);
    const uint rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (kept & 1u))) ++kept;  // may carry into the exponent: still right
    return (ushort)(sign | kept);
}
float porta_half_value(ushort h)
{
    const uint sign = ((uint)h & 0x8000u) << 16;
    const uint exponent = ((uint)h >> 10) & 0x1fu;
    const uint mantissa = (uint)h & 0x3ffu;
    if (exponent == 0u) {
        const float magnitude = (float)mantissa * 5.9604644775390625e-8f;  // 2^-24: exact
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31u) return as_float(sign | 0x7f800000u | (mantissa << 13));
    return as_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}
float porta_round_half(float x) { return porta_half_value(porta_half_bits(x)); }
// OpenCL C lets float / and sqrt be 2.5 and 3 ulp off; rounded to half that
// is one half ulp off at most, and the neighbour to take is decided exactly:
// a midpoint between two halves has 12 bits, times a half (or itself) at most
// 24, which float holds exactly. Ties go to the even half.
float porta_half_magnitude(uint h) { return h >= 0x7c00u ? 65536.0f : porta_half_value((ushort)h); }
uint porta_half_nearest(uint h, float x, float y, int square)
{
    if (h < 0x7c00u) {
        const float m = 0.5f * (porta_half_magnitude(h) + porta_half_magnitude(h + 1u));
        const float p = square ? m * m : m * y;
        if (p < x || (p == x && (h & 1u))) return h + 1u;
    }
    if (h > 0u) {
        const float m = 0.5f * (porta_half_magnitude(h - 1u) + porta_half_magnitude(h));
        const float p = square ? m * m : m * y;
        if (p > x || (p == x && (h & 1u))) return h - 1u;
    }
    return h;
}
float porta_div_half(float a, float b)
{
    const float q = porta_round_half(a / b);
    if (isnan(q) || isinf(a) || isinf(b) || a == 0.0f || b == 0.0f) return q;
    const uint h = porta_half_nearest(min((uint)porta_half_bits(fabs(q)), 0x7c00u), fabs(a), fabs(b), 0);
    return copysign(h >= 0x7c00u ? INFINITY : porta_half_value((ushort)h), q);
}
float porta_sqrt_half(float x)
{
    const float s = porta_round_half(sqrt(x));
    if (!(x > 0.0f) || isinf(x)) return s;
    return porta_half_value((ushort)porta_half_nearest(porta_half_bits(s), x, 0.0f, 1));
}
float2 porta_div_half2(float2 a, float2 b) { return (float2)(porta_div_half(a.x, b.x), porta_div_half(a.y, b.y)); }
float3 porta_div_half3(float3 a, float3 b) { return (float3)(porta_div_half(a.x, b.x), porta_div_half(a.y, b.y), porta_div_half(a.z, b.z)); }
float4 porta_div_half4(float4 a, float4 b) { return (float4)(porta_div_half(a.x, b.x), porta_div_half(a.y, b.y), porta_div_half(a.z, b.z), porta_div_half(a.w, b.w)); }
float2 porta_sqrt_half2(float2 v) { return (float2)(porta_sqrt_half(v.x), porta_sqrt_half(v.y)); }
float3 porta_sqrt_half3(float3 v) { return (float3)(porta_sqrt_half(v.x), porta_sqrt_half(v.y), porta_sqrt_half(v.z)); }
float4 porta_sqrt_half4(float4 v) { return (float4)(porta_sqrt_half(v.x), porta_sqrt_half(v.y), porta_sqrt_half(v.z), porta_sqrt_half(v.w)); }
// fma rounded once: a * b is exact in float (22 bits); the sum's rounding
// error comes back exactly (TwoSum), and a float rounded to odd (its last bit
// set where the sum was inexact) rounds to half as the exact sum does.
float porta_fma_half(float a, float b, float c)
{
    const float p = a * b;
    const float s = p + c;
    const float bb = s - p;
    const float error = (p - (s - bb)) + (c - bb);
    float odd = s;
    if (isfinite(s) && error != 0.0f && (as_uint(s) & 1u) == 0u)
        odd = as_float(as_uint(s) + (((error > 0.0f) == (s > 0.0f)) ? 1u : 0xffffffffu));
    return porta_round_half(odd);
}
ushort2 porta_half_bits2(float2 v) { return (ushort2)(porta_half_bits(v.x), porta_half_bits(v.y)); }
ushort3 porta_half_bits3(float3 v) { return (ushort3)(porta_half_bits(v.x), porta_half_bits(v.y), porta_half_bits(v.z)); }
ushort4 porta_half_bits4(float4 v) { return (ushort4)(porta_half_bits(v.x), porta_half_bits(v.y), porta_half_bits(v.z), porta_half_bits(v.w)); }
float2 porta_half_value2(ushort2 h) { return (float2)(porta_half_value(h.x), porta_half_value(h.y)); }
float3 porta_half_value3(ushort3 h) { return (float3)(porta_half_value(h.x), porta_half_value(h.y), porta_half_value(h.z)); }
float4 porta_half_value4(ushort4 h) { return (float4)(porta_half_value(h.x), porta_half_value(h.y), porta_half_value(h.z), porta_half_value(h.w)); }
float2 porta_round_half2(float2 v) { return porta_half_value2(porta_half_bits2(v)); }
float3 porta_round_half3(float3 v) { return porta_half_value3(porta_half_bits3(v)); }
float4 porta_round_half4(float4 v) { return porta_half_value4(porta_half_bits4(v)); }
float2 porta_fma_half2(float2 a, float2 b, float2 c) { return (float2)(porta_fma_half(a.x, b.x, c.x), porta_fma_half(a.y, b.y, c.y)); }
float3 porta_fma_half3(float3 a, float3 b, float3 c) { return (float3)(porta_fma_half(a.x, b.x, c.x), porta_fma_half(a.y, b.y, c.y), porta_fma_half(a.z, b.z, c.z)); }
float4 porta_fma_half4(float4 a, float4 b, float4 c) { return (float4)(porta_fma_half(a.x, b.x, c.x), porta_fma_half(a.y, b.y, c.y), porta_fma_half(a.z, b.z, c.z), porta_fma_half(a.w, b.w, c.w)); }
// dot on float16_t vectors: each product and each sum rounded, in order, as
// the other targets do.
float porta_dot_half2(float2 a, float2 b) { return porta_round_half(porta_round_half(a.x * b.x) + porta_round_half(a.y * b.y)); }
float porta_dot_half3(float3 a, float3 b) { return porta_round_half(porta_dot_half2(a.xy, b.xy) + porta_round_half(a.z * b.z)); }
float porta_dot_half4(float4 a, float4 b) { return porta_round_half(porta_dot_half3(a.xyz, b.xyz) + porta_round_half(a.w * b.w)); }
// An f16vec2 seen as a uint (packFloat2x16 / unpackFloat2x16): x in the low half.
uint porta_half2_as_uint(float2 v) { return as_uint(porta_half_bits2(v)); }
float2 porta_uint_as_half2(uint u) { return porta_half_value2(as_ushort2(u)); }

//@section bitfield_reverse
// GLSL's bitfieldReverse (OpenCL C 1.2 has no bit reversal), for {T}: uint or uintN.
{T} porta_bitfield_reverse_{T}({T} x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

//@section integer_division
// Integer division as on every porta target: x / 0 and x % 0 are 0, INT_MIN / -1 wraps
// (OpenCL C leaves both undefined, and CPU devices trap).

//@section div_unsigned
{T} porta_div_{T}({T} a, {T} b) { return b == 0 ? 0 : a / b; }

//@section rem_unsigned
{T} porta_rem_{T}({T} a, {T} b) { return b == 0 ? 0 : a % b; }

//@section mod_unsigned
{T} porta_mod_{T}({T} a, {T} b) { return b == 0 ? 0 : a % b; }

//@section div_signed
{T} porta_div_{T}({T} a, {T} b) { return b == 0 ? 0 : b == -1 ? ({T})(0 - ({U})a) : a / b; }

//@section rem_signed
{T} porta_rem_{T}({T} a, {T} b) { return b == 0 || b == -1 ? 0 : a % b; }

//@section mod_signed
// The result takes the sign of the divisor (GLSL's mod, SPIR-V's OpSMod).
{T} porta_mod_{T}({T} a, {T} b)
{
    {T} r = porta_rem_{T}(a, b);
    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

//@section vector2
{T} porta_{OP}_{T}({T} a, {T} b) { return ({T})(porta_{OP}_{S}(a.x, b.x), porta_{OP}_{S}(a.y, b.y)); }

//@section vector3
{T} porta_{OP}_{T}({T} a, {T} b) { return ({T})(porta_{OP}_{S}(a.x, b.x), porta_{OP}_{S}(a.y, b.y), porta_{OP}_{S}(a.z, b.z)); }

//@section vector4
{T} porta_{OP}_{T}({T} a, {T} b) { return ({T})(porta_{OP}_{S}(a.x, b.x), porta_{OP}_{S}(a.y, b.y), porta_{OP}_{S}(a.z, b.z), porta_{OP}_{S}(a.w, b.w)); }

//@section pack
// GLSL's pack/unpack functions (OpenCL C 1.2 has none): round to nearest even, as GPUs do.
uint porta_packUnorm4x8(float4 v)
{
    const uint4 b = convert_uint4(rint(clamp(v, 0.0f, 1.0f) * 255.0f));
    return b.x | (b.y << 8) | (b.z << 16) | (b.w << 24);
}
uint porta_packSnorm4x8(float4 v)
{
    const uint4 b = as_uint4(convert_int4(rint(clamp(v, -1.0f, 1.0f) * 127.0f))) & 0xffu;
    return b.x | (b.y << 8) | (b.z << 16) | (b.w << 24);
}
uint porta_packUnorm2x16(float2 v)
{
    const uint2 b = convert_uint2(rint(clamp(v, 0.0f, 1.0f) * 65535.0f));
    return b.x | (b.y << 16);
}
uint porta_packSnorm2x16(float2 v)
{
    const uint2 b = as_uint2(convert_int2(rint(clamp(v, -1.0f, 1.0f) * 32767.0f))) & 0xffffu;
    return b.x | (b.y << 16);
}
float4 porta_unpackUnorm4x8(uint p)
{
    return convert_float4((uint4)(p, p >> 8, p >> 16, p >> 24) & 0xffu) / 255.0f;
}
float4 porta_unpackSnorm4x8(uint p)
{
    const int4 b = as_int4((uint4)(p << 24, p << 16, p << 8, p)) >> 24;
    return clamp(convert_float4(b) / 127.0f, -1.0f, 1.0f);
}
float2 porta_unpackUnorm2x16(uint p)
{
    return convert_float2((uint2)(p, p >> 16) & 0xffffu) / 65535.0f;
}
float2 porta_unpackSnorm2x16(uint p)
{
    const int2 b = as_int2((uint2)(p << 16, p)) >> 16;
    return clamp(convert_float2(b) / 32767.0f, -1.0f, 1.0f);
}
// float -> binary16, round to nearest even; integer arithmetic only (vstore_half
// on private memory crashes some compilers).
uint porta_float_to_half(float value)
{
    const uint f = as_uint(value);
    const uint sign = (f >> 16) & 0x8000u;
    const uint exponent = (f >> 23) & 0xffu;
    const uint mantissa = f & 0x7fffffu;
    if (exponent == 0xffu) return sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0u);
    const int e = (int)exponent - 127 + 15;
    if (e >= 31) return sign | 0x7c00u;
    if (e <= 0) {
        if (e < -10) return sign;
        const uint full = mantissa | 0x800000u;
        const uint shift = (uint)(14 - e);
        uint half_value = full >> shift;
        const uint rest = full & ((1u << shift) - 1u);
        const uint halfway = 1u << (shift - 1u);
        if (rest > halfway || (rest == halfway && (half_value & 1u))) ++half_value;
        return sign | half_value;
    }
    uint half_value = ((uint)e << 10) | (mantissa >> 13);
    const uint rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half_value & 1u))) ++half_value;
    return sign | half_value;
}
float porta_half_to_float(uint h)
{
    const uint sign = (h & 0x8000u) << 16;
    const uint exponent = (h >> 10) & 0x1fu;
    const uint mantissa = h & 0x3ffu;
    if (exponent == 0u) {
        const float magnitude = (float)mantissa * 5.9604644775390625e-8f;  // 2^-24
        return as_float(sign | as_uint(magnitude));
    }
    if (exponent == 31u) return as_float(sign | 0x7f800000u | (mantissa << 13));
    return as_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}
uint porta_packHalf2x16(float2 v)
{
    return porta_float_to_half(v.x) | (porta_float_to_half(v.y) << 16);
}
// vload_half2 (core OpenCL C, no cl_khr_fp16 needed) converts both halves
// exactly in the device's own instructions (cvt.f32.f16 on NVIDIA, vcvtph2ps
// on x86) rather than in a dozen integer operations and branches each; the low
// half comes first in memory where the device is little-endian.
float2 porta_unpackHalf2x16(uint p)
{
#ifdef __ENDIAN_LITTLE__
    return vload_half2(0, (const half*)&p);
#else
    return (float2)(porta_half_to_float(p & 0xffffu), porta_half_to_float(p >> 16));
#endif
}

//@section ballot_bit_extract
// subgroupBallotBitExtract on subgroups of one work-item (the OpenCL backend's
// emulation): bit `index` of a 128-bit ballot, bits 0-31 in x. Exact for any
// ballot, whichever subgroup made it.
bool porta_ballot_bit_extract(uint4 ballot, uint index)
{
    const uint word = (index >> 5) & 3u;
    const uint bits = word == 0u ? ballot.x : word == 1u ? ballot.y : word == 2u ? ballot.z : ballot.w;
    return ((bits >> (index & 31u)) & 1u) != 0u;
}

//@section bounds_report
// PORTA_ROBUST=report: the first access out of bounds. `record` is
// porta_translator's BoundsRecord (translator.hpp): every failed access
// counts; the first writes where it was.
void porta_bounds_fail(__global uchar* record, uint site, ulong offset, ulong size, ulong element)
{
    if (atomic_inc((volatile __global uint*)record) != 0u) return;
    ((__global uint*)record)[1] = site;
    ((__global ulong*)record)[1] = offset;
    ((__global ulong*)record)[2] = size;
    ((__global ulong*)record)[3] = element;
}

//@section atomic_float_add
// Float atomic add (GL_EXT_shader_atomic_float) on __{T} memory: a
// compare-exchange loop on the bits (OpenCL C 1.2 has no generic address space).
// The first guess is 0.0f, not a plain read of *p, which would race with the
// other work-items' exchanges; a wrong guess costs one more exchange.
float porta_atomic_add_float_{T}(volatile __{T} float* p, float v)
{
    uint old = 0u;
    for (;;) {
        const uint seen = atomic_cmpxchg((volatile __{T} uint*)p, old, as_uint(as_float(old) + v));
        if (seen == old) return as_float(old);
        old = seen;
    }
}

//@section refract
// GLSL's refract for {T} (OpenCL C 1.2 has no refract).
{T} porta_refract_{T}({T} i, {T} n, {S} eta)
{
    const {S} d = dot(n, i);
    const {S} k = ({S})1 - eta * eta * (({S})1 - d * d);
    return k < ({S})0 ? ({T})(({S})0) : eta * i - (eta * d + sqrt(k)) * n;
}
