//===- HugePageHeap.cpp - tp-llc's operator new on transparent huge pages -===//
///
/// \file
/// Once enableHugePageHeap() has run, operator new takes its memory from
/// one arena of 2 MiB transparent huge pages (madvise MADV_HUGEPAGE),
/// handed out in order and never reused: operator delete of arena memory
/// does nothing.  A run of tp-llc is short and allocates little through
/// operator new in all (the default kernel 1.0 MB, --tile=256x128 1.5 MB),
/// while each fresh 4 KiB page of malloc's heap costs a page fault: on the
/// build VM ~1.5-2.5 us a page against ~40 us for a whole 2 MiB page
/// (docs/speed.md, "tp-llc as a process").  Past the arena's end, or where
/// the kernel has transparent huge pages off, operator new is malloc's, as
/// before enableHugePageHeap() (the static initialisers, the command line).
///
/// The file belongs to tp-llc's executable alone: a replacement operator
/// new in a library would replace it in every program linking the library.
///
//===----------------------------------------------------------------------===//

#include "HugePageHeap.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define TP_SANITIZER_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define TP_SANITIZER_HEAP 1
#endif
#endif

namespace {
constexpr size_t HugePage = size_t(2) << 20;
constexpr size_t ArenaSize = size_t(32) << 20;

char *Arena; ///< ArenaSize bytes, huge-page aligned; null until enabled
std::atomic<size_t> Used{0};

/// Whether the kernel gives huge pages to an madvise(MADV_HUGEPAGE) range:
/// its mode reads "[always]" or "[madvise]", not "[never]".
bool hugePagesAdvisable() {
  int FD = ::open("/sys/kernel/mm/transparent_hugepage/enabled",
                  O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return false;
  char Mode[128] = {};
  ssize_t N = ::read(FD, Mode, sizeof(Mode) - 1);
  ::close(FD);
  return N > 0 && !std::strstr(Mode, "[never]");
}

bool inArena(const void *P) {
  const char *C = static_cast<const char *>(P);
  return Arena && C >= Arena && C < Arena + ArenaSize;
}

void *allocate(size_t N) {
  if (Arena) {
    // 16-byte aligned, as malloc (__STDCPP_DEFAULT_NEW_ALIGNMENT__); a
    // zero-byte object gets its own address too.
    size_t Size = N ? (N + 15) & ~size_t(15) : 16;
    size_t Offset = Used.fetch_add(Size, std::memory_order_relaxed);
    if (Offset <= ArenaSize && Size <= ArenaSize - Offset)
      return Arena + Offset;
  }
  if (void *P = std::malloc(N ? N : 1))
    return P;
  throw std::bad_alloc();
}

void deallocate(void *P) {
  if (!inArena(P))
    std::free(P);
}
} // namespace

namespace tp {

bool enableHugePageHeap() {
#ifdef TP_SANITIZER_HEAP
  return false;
#else
  if (Arena)
    return true;
  if (!hugePagesAdvisable())
    return false;
  // Reserved, not committed: only the huge pages touched are ever backed.
  size_t MapSize = ArenaSize + HugePage;
  void *Map = ::mmap(nullptr, MapSize, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Map == MAP_FAILED)
    return false;
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Map);
  uintptr_t Aligned = (Begin + HugePage - 1) & ~uintptr_t(HugePage - 1);
  if (::madvise(reinterpret_cast<void *>(Aligned), ArenaSize,
                MADV_HUGEPAGE) != 0) {
    ::munmap(Map, MapSize);
    return false;
  }
  Arena = reinterpret_cast<char *>(Aligned);
  return true;
#endif
}

} // namespace tp

#ifndef TP_SANITIZER_HEAP
void *operator new(size_t N) { return allocate(N); }
void *operator new[](size_t N) { return allocate(N); }
void operator delete(void *P) noexcept { deallocate(P); }
void operator delete[](void *P) noexcept { deallocate(P); }
void operator delete(void *P, size_t) noexcept { deallocate(P); }
void operator delete[](void *P, size_t) noexcept { deallocate(P); }
#endif
