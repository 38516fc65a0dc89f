#version 450
// porta-conformance: --groups 1,1,1 --buffer random:21:256 --buffer zeros:8192 --tolerance 256
// what: GLSL.std.450 on floats, scalar and vector (no ties for round(), which may go either way): rounding, modf/frexp/ldexp, trig, exp/log, geometry, mix/step/smoothstep, fma, nmin/nmax/nclamp
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { int a[]; };
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = float(a[i] >> 16) / 1024.0;          // about -32 .. 32
  float y = float(a[(i + 7u) % 64u] >> 20) / 64.0 + 0.25;
  float t = clamp(float(a[(i + 3u) % 64u] & 1023) / 1023.0, 0.0, 1.0);
  vec3 v = vec3(x, y, t) + vec3(0.5);
  vec3 w = vec3(y, t, x) - vec3(0.25);
  uint o = 32u * i;
  r[o + 0] = roundEven(x * 4.0);
  r[o + 1] = trunc(x) + round(y * 3.0 + 0.01) + ceil(x) * 2.0 + floor(y) * 4.0;
  float whole;
  r[o + 2] = modf(x, whole) + whole * 0.5;
  int e;
  r[o + 3] = frexp(x, e) + float(e);
  r[o + 4] = ldexp(t, int(i % 9u) - 4);
  r[o + 5] = sin(t) + cos(t) * 2.0 + tan(t * 0.5) * 4.0;
  r[o + 6] = abs(x) * 0.5 + min(t, 0.5);
  r[o + 7] = sinh(t) + cosh(t) * 2.0 + tanh(x) * 4.0;
  r[o + 8] = max(x, t) - clamp(y, 0.0, 2.0);
  r[o + 9] = exp(t) + exp2(x * 0.25) + log(y + 2.0) + log2(t + 1.0);
  r[o + 10] = pow(t + 0.5, y) + sqrt(t) + inversesqrt(t + 0.5);
  r[o + 11] = length(v) + distance(v, w) + dot(v, w);
  vec3 c = cross(v, w);
  r[o + 12] = c.x + c.y * 2.0 + c.z * 4.0;
  vec3 n = normalize(v);
  r[o + 13] = n.x + n.y * 2.0 + n.z * 4.0;
  vec3 ff = faceforward(v, w, n);
  r[o + 14] = ff.x + ff.y * 2.0 + ff.z * 4.0;
  vec3 rf = reflect(v, n);
  r[o + 15] = rf.x + rf.y * 2.0 + rf.z * 4.0;
  vec3 rr = refract(n, normalize(w), 0.66);
  r[o + 16] = rr.x + rr.y * 2.0 + rr.z * 4.0;
  r[o + 17] = fma(x, y, t) + mix(x, y, t) + step(t, 0.5) + smoothstep(0.0, 1.0, t);
  vec3 m = mix(v, w, vec3(t, 0.25, 0.75));
  r[o + 18] = m.x + m.y * 2.0 + m.z * 4.0;
  r[o + 19] = sign(x) + abs(x) + fract(x) + mod(x, y);
  vec2 mv = mod(vec2(x, y), vec2(y, 0.75));
  r[o + 20] = mv.x + mv.y * 2.0;
  vec2 wv;
  vec2 fv = modf(vec2(x, y), wv);
  r[o + 21] = fv.x + fv.y * 2.0 + wv.x * 4.0 + wv.y * 8.0;
  r[o + 22] = min(x, y) + max(x, y) * 2.0 + clamp(x, -1.0, 1.0) * 4.0;
  r[o + 23] = degrees(t) + radians(x);
  ivec2 ev;
  vec2 fr = frexp(vec2(x, y), ev);
  r[o + 24] = fr.x + fr.y * 2.0 + float(ev.x) * 4.0 + float(ev.y) * 8.0;
  vec3 st = step(vec3(0.5), v) + smoothstep(vec3(0.0), vec3(1.0), w);
  r[o + 25] = st.x + st.y * 2.0 + st.z * 4.0;
  r[o + 26] = float(isnan(x / y)) * 4.0 + float(isinf(x)) * 8.0 + float(isinf(1.0 / (x - x)));
  r[o + 27] = float(floatBitsToInt(x) >> 16) + intBitsToFloat(floatBitsToInt(y));
  r[o + 28] = float(int(x * 3.0)) + float(uint(t * 100.0)) * 2.0;
  vec4 q = vec4(v, t);
  vec4 sh = q.wzyx + q.xxyy;
  r[o + 29] = sh.x + sh.y * 2.0 + sh.z * 4.0 + sh.w * 8.0;
  vec4 dyn = q;
  dyn[i % 4u] = x;
  r[o + 30] = dyn[(i + 1u) % 4u] + dyn.x;
  r[o + 31] = float(i);
}
