#include "landscape/core/Fibres.h"

#include <sys/mman.h>
#include <unistd.h>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

// AddressSanitizer keeps shadow stacks per stack: it must hear of every switch (its fiber API),
// or it reports the fibres' frames as overflows of the thread's stack.
#if defined(__SANITIZE_ADDRESS__)
#define LANDSCAPE_FIBRES_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LANDSCAPE_FIBRES_ASAN 1
#endif
#endif
#ifdef LANDSCAPE_FIBRES_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace landscape {

namespace {

void startSwitch(void** fakeStack, const void* bottom, std::size_t size) {
#ifdef LANDSCAPE_FIBRES_ASAN
  __sanitizer_start_switch_fiber(fakeStack, bottom, size);
#else
  (void)fakeStack, (void)bottom, (void)size;
#endif
}

// A new stack may lie where an earlier one was, whose last frames never returned (a fibre's entry
// switches away for good): AddressSanitizer's marks of those frames must not outlive the mapping.
void forgetStackMarks(void* bottom, std::size_t size) {
#ifdef LANDSCAPE_FIBRES_ASAN
  __asan_unpoison_memory_region(bottom, size);
#else
  (void)bottom, (void)size;
#endif
}

void finishSwitch(void* fakeStack, const void** bottom, std::size_t* size) {
#ifdef LANDSCAPE_FIBRES_ASAN
  __sanitizer_finish_switch_fiber(fakeStack, bottom, size);
#else
  (void)fakeStack, (void)bottom, (void)size;
#endif
}

// The fibres waited for together (run's tasks): how many are left and the first exception.
struct FibreGroup {
  std::size_t left = 0;
  std::exception_ptr error;
};

// Where a switched-out fibre (or the thread) goes on. x86-64: its stack pointer, the callee-saved
// registers and the floating-point control words pushed below it by landscape_fibre_switch (no
// system call, unlike swapcontext, which also saves the signal mask). Elsewhere: a ucontext.
#if defined(__x86_64__)
extern "C" void landscape_fibre_switch(void** save, void* next);
asm(R"(
        .text
        .p2align 4
        .globl landscape_fibre_switch
        .hidden landscape_fibre_switch
        .type landscape_fibre_switch, @function
landscape_fibre_switch:
        pushq %rbp
        pushq %rbx
        pushq %r12
        pushq %r13
        pushq %r14
        pushq %r15
        subq $8, %rsp
        stmxcsr (%rsp)
        fnstcw 4(%rsp)
        movq %rsp, (%rdi)
        movq %rsi, %rsp
        ldmxcsr (%rsp)
        fldcw 4(%rsp)
        addq $8, %rsp
        popq %r15
        popq %r14
        popq %r13
        popq %r12
        popq %rbx
        popq %rbp
        ret
        .size landscape_fibre_switch, .-landscape_fibre_switch
)");

struct MachineContext {
  void* sp = nullptr;
};

// A context that starts `start` (which must never return) on the stack [bottom, bottom + size):
// landscape_fibre_switch's frame as if it had switched away from a call of start.
void prepareContext(MachineContext& c, void* bottom, std::size_t size, void (*start)()) {
  auto top = (reinterpret_cast<std::uintptr_t>(bottom) + size) & ~std::uintptr_t{15};
  auto* slot = reinterpret_cast<std::uint64_t*>(top - 8);  // start's return address: none
  slot[0] = 0;
  slot[-1] = reinterpret_cast<std::uint64_t>(start);  // where the switch's ret goes
  for (int k = 2; k <= 7; ++k) slot[-k] = 0;          // rbp, rbx, r12-r15
  std::uint32_t mxcsr = 0;                            // this thread's SSE and x87 control words
  std::uint16_t x87 = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(x87));
  slot[-8] = mxcsr | (std::uint64_t{x87} << 32);
  c.sp = &slot[-8];
}

void switchContext(MachineContext& from, MachineContext& to) {
  landscape_fibre_switch(&from.sp, to.sp);
}
#else
struct MachineContext {
  ucontext_t context{};
};

void prepareContext(MachineContext& c, void* bottom, std::size_t size, void (*start)()) {
  if (getcontext(&c.context) != 0)
    throw std::runtime_error(std::string("fibres: getcontext: ") + std::strerror(errno));
  c.context.uc_stack.ss_sp = bottom;
  c.context.uc_stack.ss_size = size;
  c.context.uc_link = nullptr;  // a fibre never returns from its entry: it switches back
  makecontext(&c.context, start, 0);
}

void switchContext(MachineContext& from, MachineContext& to) {
  swapcontext(&from.context, &to.context);
}
#endif

// A stack from mmap: reserved, committed page by page as it is used, with an inaccessible guard
// page below it.
class FibreStack {
 public:
  explicit FibreStack(std::size_t bytes) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    m_size = (bytes + page - 1) / page * page + page;
    m_base = mmap(nullptr, m_size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m_base == MAP_FAILED)
      throw std::runtime_error(std::string("fibres: cannot reserve a stack: ") +
                               std::strerror(errno));
    if (mprotect(m_base, page, PROT_NONE) != 0) {
      const int error = errno;
      munmap(m_base, m_size);
      throw std::runtime_error(std::string("fibres: cannot guard a stack: ") +
                               std::strerror(error));
    }
    m_usable = static_cast<char*>(m_base) + page;
    m_usableSize = m_size - page;
    forgetStackMarks(m_usable, m_usableSize);
  }
  ~FibreStack() {
    forgetStackMarks(m_usable, m_usableSize);
    munmap(m_base, m_size);
  }
  FibreStack(const FibreStack&) = delete;
  FibreStack& operator=(const FibreStack&) = delete;
  void* bottom() const { return m_usable; }
  std::size_t size() const { return m_usableSize; }

 private:
  void* m_base = nullptr;
  std::size_t m_size = 0;
  void* m_usable = nullptr;
  std::size_t m_usableSize = 0;
};

struct Fibre {
  Fibre(FibreScheduler::Task t, FibreGroup& g)
      : task(std::move(t)), group(g), stack(FibreScheduler::kStackBytes) {}
  FibreScheduler::Task task;
  FibreGroup& group;
  FibreStack stack;
  MachineContext context;
  // While the fibre waits (waitUntil): what it waits for and how the thread may block for it.
  const std::function<bool()>* ready = nullptr;
  const FibreScheduler::Idle* idle = nullptr;
  std::exception_ptr wakeError;  // thrown by its waitUntil when it is resumed
  std::exception_ptr error;      // its task's
  bool ended = false;
  void* fakeStack = nullptr;  // AddressSanitizer's, while the fibre is switched out
};

class Scheduler;
thread_local Scheduler* t_scheduler = nullptr;

// The fibres of one thread, switched by the thread's own context (run's caller).
class Scheduler {
 public:
  Scheduler() : m_outer(t_scheduler) { t_scheduler = this; }
  ~Scheduler() { t_scheduler = m_outer; }
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  Fibre* running() const { return m_running; }

  void add(const FibreScheduler::Task& task, FibreGroup& group) {
    auto fibre = std::make_unique<Fibre>(task, group);
    prepareContext(fibre->context, fibre->stack.bottom(), fibre->stack.size(), &Scheduler::entry);
    ++group.left;
    m_fibres.push_back(std::move(fibre));
  }

  // Runs the fibres until none is left.
  void loop() {
    while (!m_fibres.empty()) {
      bool ran = false;
      for (std::size_t k = 0; k < m_fibres.size(); ++k) {
        Fibre* f = m_fibres[k].get();
        if (f->ready != nullptr && !(*f->ready)()) continue;
        resume(*f);
        ran = true;
        if (f->ended) {
          FibreGroup& group = f->group;
          if (f->error && !group.error) group.error = f->error;
          --group.left;
          m_fibres.erase(m_fibres.begin() + static_cast<std::ptrdiff_t>(k));
          --k;
        }
      }
      if (!ran) whileNoneCanRun();
    }
  }

  // The waiting fibre `f` gives the thread back until it is resumed.
  void suspend(Fibre& f) {
    startSwitch(&f.fakeStack, m_threadBottom, m_threadSize);
    switchContext(f.context, m_thread);
    finishSwitch(f.fakeStack, &m_threadBottom, &m_threadSize);
  }

 private:
  static void entry() {
    Scheduler& s = *t_scheduler;
    Fibre& f = *s.m_running;
    finishSwitch(nullptr, &s.m_threadBottom, &s.m_threadSize);
    try {
      f.task();
    } catch (...) {
      f.error = std::current_exception();
    }
    f.ended = true;
    startSwitch(nullptr, s.m_threadBottom, s.m_threadSize);  // nullptr: its fake stack goes
    switchContext(f.context, s.m_thread);                    // never comes back
  }

  void resume(Fibre& f) {
    m_running = &f;
    void* fakeStack = nullptr;
    startSwitch(&fakeStack, f.stack.bottom(), f.stack.size());
    switchContext(m_thread, f.context);
    finishSwitch(fakeStack, nullptr, nullptr);
    m_running = nullptr;
  }

  bool anyReady() const {
    for (const auto& f : m_fibres)
      if (f->ready == nullptr || (*f->ready)()) return true;
    return false;
  }

  // Every fibre waits and none can go on: the first idle among them blocks until one may. With
  // none (or when it throws) the fibres are woken with an exception instead of hanging.
  void whileNoneCanRun() {
    std::exception_ptr error;
    for (const auto& f : m_fibres) {
      if (f->idle == nullptr) continue;
      try {
        (*f->idle)([this] { return anyReady(); });
        return;
      } catch (...) {
        error = std::current_exception();
        break;
      }
    }
    if (!error)
      error = std::make_exception_ptr(std::logic_error(
          "fibres: every fibre of the thread waits for another and none can go on"));
    for (const auto& f : m_fibres) {
      f->wakeError = error;
      f->ready = nullptr;
    }
  }

  Scheduler* m_outer;
  std::vector<std::unique_ptr<Fibre>> m_fibres;
  MachineContext m_thread;
  Fibre* m_running = nullptr;
  const void* m_threadBottom = nullptr;  // the thread's own stack, for AddressSanitizer
  std::size_t m_threadSize = 0;
};

}  // namespace

bool FibreScheduler::onFibre() {
  return t_scheduler != nullptr && t_scheduler->running() != nullptr;
}

void FibreScheduler::run(const std::vector<Task>& tasks) {
  if (tasks.empty()) return;
  FibreGroup group;
  if (onFibre()) {
    for (const Task& task : tasks) t_scheduler->add(task, group);
    waitUntil([&group] { return group.left == 0; });
  } else {
    Scheduler scheduler;
    for (const Task& task : tasks) scheduler.add(task, group);
    scheduler.loop();
  }
  if (group.error) std::rethrow_exception(group.error);
}

void FibreScheduler::waitUntil(const std::function<bool()>& ready, const Idle& idle) {
  if (!onFibre()) throw std::logic_error("FibreScheduler::waitUntil: not on a fibre");
  if (ready()) return;
  Fibre& f = *t_scheduler->running();
  f.ready = &ready;
  f.idle = idle ? &idle : nullptr;
  t_scheduler->suspend(f);
  f.ready = nullptr;
  f.idle = nullptr;
  if (f.wakeError) {
    const std::exception_ptr error = f.wakeError;
    f.wakeError = nullptr;
    std::rethrow_exception(error);
  }
}

}  // namespace landscape
