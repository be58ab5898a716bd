// A Kokkos Tools library for finding a host crash: remembers the last kernels and regions and, on
// SIGSEGV, prints them, the faulting PC, and the return address at the stack top (a call through a
// null pointer leaves PC = 0 and the caller's return address at [rsp]).
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <ucontext.h>
#include <unistd.h>

namespace {
constexpr int N = 64;
char names[N][160];
int next = 0;
char regions[32][160];
int depth = 0;
void remember(const char* kind, const char* name) {
  std::snprintf(names[next % N], 160, "%s %s", kind, name);
  ++next;
}
void say(const char* s) { (void)!write(2, s, std::strlen(s)); }
void sym(void* p) {
  Dl_info info;
  char buf[512];
  if (dladdr(p, &info) && info.dli_fname) {
    std::snprintf(buf, sizeof buf, "  %p %s (+%#lx) %s\n", p, info.dli_fname,
                  (unsigned long)((char*)p - (char*)info.dli_fbase), info.dli_sname ? info.dli_sname : "?");
  } else {
    std::snprintf(buf, sizeof buf, "  %p ?\n", p);
  }
  say(buf);
}
void handler(int sig, siginfo_t* si, void* ctx) {
  say("crashlog: signal\n");
  auto* uc = static_cast<ucontext_t*>(ctx);
  void* pc = (void*)uc->uc_mcontext.gregs[REG_RIP];
  void** sp = (void**)uc->uc_mcontext.gregs[REG_RSP];
  char buf[256];
  std::snprintf(buf, sizeof buf, "crashlog: fault address %p pc %p sp %p\n", si->si_addr, pc, (void*)sp);
  say(buf);
  say("crashlog: pc\n");
  sym(pc);
  say("crashlog: words at the stack top\n");
  for (int i = 0; i < 8; ++i) sym(sp[i]);
  say("crashlog: frames from rbp chain\n");
  void** bp = (void**)uc->uc_mcontext.gregs[REG_RBP];
  for (int i = 0; i < 20 && bp && (uintptr_t)bp > 4096; ++i) {
    sym(bp[1]);
    bp = (void**)bp[0];
  }
  say("crashlog: regions\n");
  for (int i = 0; i < depth && i < 32; ++i) { say("  "); say(regions[i]); say("\n"); }
  say("crashlog: last kernels\n");
  for (int i = next > N ? next - N : 0; i < next; ++i) { say("  "); say(names[i % N]); say("\n"); }
  signal(sig, SIG_DFL);
  raise(sig);
}
}  // namespace

extern "C" {
void kokkosp_init_library(const int, const uint64_t, const uint32_t, void*) {
  struct sigaction sa {};
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, nullptr);
  say("crashlog: loaded\n");
}
void kokkosp_finalize_library() { say("crashlog: finalize\n"); }
void kokkosp_begin_parallel_for(const char* name, const uint32_t, uint64_t*) { remember("for", name); }
void kokkosp_begin_parallel_reduce(const char* name, const uint32_t, uint64_t*) { remember("reduce", name); }
void kokkosp_begin_parallel_scan(const char* name, const uint32_t, uint64_t*) { remember("scan", name); }
void kokkosp_end_parallel_for(const uint64_t) {}
void kokkosp_end_parallel_reduce(const uint64_t) {}
void kokkosp_end_parallel_scan(const uint64_t) {}
void kokkosp_push_profile_region(const char* name) {
  if (depth < 32) std::snprintf(regions[depth], 160, "%s", name);
  ++depth;
  remember("region", name);
}
void kokkosp_pop_profile_region() { if (depth > 0) --depth; }
}
