#version 450
// Does not compile: porta-run must pass the compiler's message through.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; } o;
void main() { o.v[0] = undefined_name; }
