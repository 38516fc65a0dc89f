#include "context.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

// The switch saves only what the calling convention says a callee preserves.
// MXCSR and the x87/FPCR control words are not saved: every fiber of a worker
// runs kernels with the same floating-point environment and none changes it,
// and restoring them costs more than the rest of the switch.

#if defined(__x86_64__) || defined(__aarch64__)
extern "C" void porta_cpu_context_switch(void** save_sp, void* next_sp);
extern "C" void porta_cpu_context_start();

// What opens and closes each assembly function below, on both architectures:
// 16-byte aligned, global but hidden (never exported from the plugin), typed
// as a function (the type's prefix is @ on x86-64, % on AArch64) and sized.
#if defined(__x86_64__)
#define PORTA_CPU_ASM_FUNCTION_TYPE "@function"
#else
#define PORTA_CPU_ASM_FUNCTION_TYPE "%function"
#endif
#define PORTA_CPU_ASM_BEGIN(name)                                                                  \
  ".p2align 4\n.globl " #name "\n.hidden " #name "\n.type " #name ", " PORTA_CPU_ASM_FUNCTION_TYPE \
  "\n" #name ":\n"
#define PORTA_CPU_ASM_END(name) ".size " #name ", .-" #name "\n"

namespace porta::cpu {

void context_switch(Context* from, Context* to) { porta_cpu_context_switch(&from->sp, to->sp); }

}  // namespace porta::cpu
#endif

#if defined(__x86_64__)
asm(".text\n" PORTA_CPU_ASM_BEGIN(porta_cpu_context_switch) R"(
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
)" PORTA_CPU_ASM_END(porta_cpu_context_switch) PORTA_CPU_ASM_BEGIN(porta_cpu_context_start) R"(
  movq %r12, %rdi
  callq *%r13
  ud2
)" PORTA_CPU_ASM_END(porta_cpu_context_start));

namespace porta::cpu {

void context_make(Context* context, void* base, size_t size, void (*entry)(void*), void* arg) {
  auto top = (reinterpret_cast<uintptr_t>(base) + size) & ~uintptr_t{15};
  // Frame popped by the first switch: r15 r14 r13 r12 rbx rbp, then the
  // return address. Returning leaves rsp 16-byte aligned, as a call expects.
  void** sp = reinterpret_cast<void**>(top) - 7;
  sp[0] = sp[1] = nullptr;                 // r15, r14
  sp[2] = reinterpret_cast<void*>(entry);  // r13
  sp[3] = arg;                             // r12
  sp[4] = sp[5] = nullptr;                 // rbx, rbp (ends backtraces)
  sp[6] = reinterpret_cast<void*>(&porta_cpu_context_start);
  context->sp = sp;
}

}  // namespace porta::cpu

#elif defined(__aarch64__)
asm(".text\n" PORTA_CPU_ASM_BEGIN(porta_cpu_context_switch) R"(
  sub sp, sp, #160
  stp x19, x20, [sp, #0]
  stp x21, x22, [sp, #16]
  stp x23, x24, [sp, #32]
  stp x25, x26, [sp, #48]
  stp x27, x28, [sp, #64]
  stp x29, x30, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mov x2, sp
  str x2, [x0]
  mov sp, x1
  ldp x19, x20, [sp, #0]
  ldp x21, x22, [sp, #16]
  ldp x23, x24, [sp, #32]
  ldp x25, x26, [sp, #48]
  ldp x27, x28, [sp, #64]
  ldp x29, x30, [sp, #80]
  ldp d8, d9, [sp, #96]
  ldp d10, d11, [sp, #112]
  ldp d12, d13, [sp, #128]
  ldp d14, d15, [sp, #144]
  add sp, sp, #160
  ret
)" PORTA_CPU_ASM_END(porta_cpu_context_switch) PORTA_CPU_ASM_BEGIN(porta_cpu_context_start) R"(
  mov x0, x19
  blr x20
  brk #0
)" PORTA_CPU_ASM_END(porta_cpu_context_start));

namespace porta::cpu {

void context_make(Context* context, void* base, size_t size, void (*entry)(void*), void* arg) {
  auto top = (reinterpret_cast<uintptr_t>(base) + size) & ~uintptr_t{15};
  void** sp = reinterpret_cast<void**>(top) - 20;  // the 160-byte frame the switch restores
  for (int i = 0; i < 20; ++i) sp[i] = nullptr;
  sp[0] = arg;                                                 // x19
  sp[1] = reinterpret_cast<void*>(entry);                      // x20
  sp[11] = reinterpret_cast<void*>(&porta_cpu_context_start);  // x30: where ret goes
  context->sp = sp;
}

}  // namespace porta::cpu

#else  // ucontext fallback

namespace porta::cpu {
namespace {

// makecontext passes int arguments only; a pointer travels as two halves.
void start(unsigned hi_entry, unsigned lo_entry, unsigned hi_arg, unsigned lo_arg) {
  auto join = [](unsigned hi, unsigned lo) { return (uint64_t{hi} << 32) | lo; };
  auto entry = reinterpret_cast<void (*)(void*)>(static_cast<uintptr_t>(join(hi_entry, lo_entry)));
  entry(reinterpret_cast<void*>(static_cast<uintptr_t>(join(hi_arg, lo_arg))));
  std::abort();
}

}  // namespace

void context_make(Context* context, void* base, size_t size, void (*entry)(void*), void* arg) {
  if (getcontext(&context->uc) != 0) {
    std::perror("porta cpu: getcontext");
    std::abort();
  }
  context->uc.uc_stack.ss_sp = base;
  context->uc.uc_stack.ss_size = size;
  context->uc.uc_link = nullptr;
  auto e = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(entry));
  auto a = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(arg));
  makecontext(&context->uc, reinterpret_cast<void (*)()>(&start), 4, unsigned(e >> 32), unsigned(e),
              unsigned(a >> 32), unsigned(a));
}

void context_switch(Context* from, Context* to) { swapcontext(&from->uc, &to->uc); }

}  // namespace porta::cpu

#endif
