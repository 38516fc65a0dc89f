// The smallest possible fiber context switch: a stack pointer and the
// callee-saved registers, written in assembly for x86-64 and aarch64, with
// ucontext as the portable fallback elsewhere.
#pragma once

#include <cstddef>

#if !defined(__x86_64__) && !defined(__aarch64__)
#include <ucontext.h>
#define PORTA_CPU_CONTEXT_UCONTEXT 1
#endif

namespace porta::cpu {

struct Context {
#ifdef PORTA_CPU_CONTEXT_UCONTEXT
  ucontext_t uc;
#else
  void* sp = nullptr;  // everything else lives on the context's own stack
#endif
};

// Prepares `context` to run entry(arg) on the stack [base, base + size) when
// first switched to. `entry` must never return: it switches away at its end.
void context_make(Context* context, void* base, size_t size, void (*entry)(void*), void* arg);

// Saves the running context into `from` and resumes `to`.
void context_switch(Context* from, Context* to);

}  // namespace porta::cpu
