//===- HugePageHeap.cpp - tp-llc's heap on transparent huge pages ---------===//
///
/// \file
/// Once enableHugePageHeap() has run, operator new and malloc take their
/// memory from one arena of 2 MiB transparent huge pages (madvise
/// MADV_HUGEPAGE), handed out in order and never reused: operator delete
/// and free of arena memory do nothing.  A run of tp-llc is short and
/// allocates little in all (the default kernel 1.0 MB through operator new,
/// --tile=256x128 1.5 MB), while each fresh 4 KiB page of malloc's heap
/// costs a page fault: on the build VM ~1.5-2.5 us a page against ~40 us
/// for a whole 2 MiB page (docs/speed.md, "tp-llc as a process").  Past the
/// arena's end, or where the kernel has transparent huge pages off, both
/// are glibc's malloc, as before enableHugePageHeap() (the static
/// initialisers, the command line).
///
/// malloc's family is replaced with the linker's --wrap (CMakeLists.txt):
/// in tp-llc's static link every call of malloc, free, realloc, ... --
/// LLVM's (SmallVector, StringMap, BumpPtrAllocator), the tile IR's lists,
/// libstdc++'s and glibc's own -- reaches the __wrap_ function here, and
/// glibc's allocator stays whole under the __real_ names as the fallback,
/// so --tp-huge-page-heap=false is glibc's malloc exactly.  An arena block
/// from malloc has a 16-byte header holding its usable size (realloc,
/// malloc_usable_size); operator new's blocks have none.
///
/// The file belongs to tp-llc's executable alone: a replacement operator
/// new in a library would replace it in every program linking the library.
///
//===----------------------------------------------------------------------===//

#include "HugePageHeap.h"

#include <atomic>
#include <cerrno>
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

// glibc's allocator, under the names --wrap gives it.
extern "C" {
void *__real_malloc(size_t N);
void __real_free(void *P);
void *__real_calloc(size_t Count, size_t N);
void *__real_realloc(void *P, size_t N);
void *__real_memalign(size_t Align, size_t N);
int __real_posix_memalign(void **Out, size_t Align, size_t N);
void *__real_aligned_alloc(size_t Align, size_t N);
void *__real_valloc(size_t N);
void *__real_pvalloc(size_t N);
size_t __real_malloc_usable_size(void *P);
}

namespace {
constexpr size_t HugePage = size_t(2) << 20;
constexpr size_t ArenaSize = size_t(32) << 20;
/// malloc's alignment (and __STDCPP_DEFAULT_NEW_ALIGNMENT__), and the size
/// of an arena malloc block's header.
constexpr size_t Granule = 16;

char *Arena; ///< ArenaSize bytes, huge-page aligned; null until enabled
/// The arena's bytes handed out.  Those past it have never been written
/// (nothing is reused or given back), so they read as zero: calloc relies
/// on it.
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

size_t roundUp(size_t N) { return (N + Granule - 1) & ~(Granule - 1); }

/// \p Size bytes (a multiple of Granule) of the arena, or null where the
/// arena is off or full.
char *bump(size_t Size) {
  if (!Arena || Size > ArenaSize)
    return nullptr;
  size_t Offset = Used.fetch_add(Size, std::memory_order_relaxed);
  if (Offset <= ArenaSize && Size <= ArenaSize - Offset)
    return Arena + Offset;
  return nullptr;
}

void *allocate(size_t N) {
  // A zero-byte object gets its own address too.
  if (char *P = bump(N ? roundUp(N) : Granule))
    return P;
  if (void *P = __real_malloc(N ? N : 1))
    return P;
  throw std::bad_alloc();
}

void deallocate(void *P) {
  if (!inArena(P))
    __real_free(P);
}

/// An arena malloc block's usable size, in the Granule bytes before it.
size_t &blockSize(void *P) {
  return *reinterpret_cast<size_t *>(static_cast<char *>(P) - Granule);
}

/// \p N bytes of the arena aligned to \p Align (a power of two, at least
/// Granule) behind a header, or null.
void *arenaMalloc(size_t N, size_t Align = Granule) {
  if (N > ArenaSize)
    return nullptr;
  size_t Size = roundUp(N);
  // The header and the padding before an over-aligned block.
  char *Block = bump(Size + (Align > Granule ? Align : Granule));
  if (!Block)
    return nullptr;
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Block) + Granule;
  void *P = reinterpret_cast<void *>((Begin + Align - 1) & ~(Align - 1));
  blockSize(P) = Size;
  return P;
}

/// Whether the arena block \p P (the last handed out) grew in place to
/// \p N bytes.
bool growInPlace(void *P, size_t N) {
  size_t Old = blockSize(P), New = roundUp(N);
  size_t End = size_t(static_cast<char *>(P) - Arena) + Old;
  if (New - Old > ArenaSize - End)
    return false;
  if (!Used.compare_exchange_strong(End, End + New - Old,
                                    std::memory_order_relaxed))
    return false;
  blockSize(P) = New;
  return true;
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

bool inHugePageHeap(const void *P) { return inArena(P); }

} // namespace tp

#ifndef TP_SANITIZER_HEAP
void *operator new(size_t N) { return allocate(N); }
void *operator new[](size_t N) { return allocate(N); }
void operator delete(void *P) noexcept { deallocate(P); }
void operator delete[](void *P) noexcept { deallocate(P); }
void operator delete(void *P, size_t) noexcept { deallocate(P); }
void operator delete[](void *P, size_t) noexcept { deallocate(P); }
#endif

// malloc's family (the set glibc's manual names for replacing malloc).
// Each takes the arena while it is on and has room, else is glibc's; each
// frees or resizes a block where it came from.
extern "C" {
void *__wrap_malloc(size_t N) {
  if (void *P = arenaMalloc(N))
    return P;
  return __real_malloc(N);
}

void __wrap_free(void *P) {
  if (!inArena(P))
    __real_free(P);
}

void *__wrap_calloc(size_t Count, size_t N) {
  size_t Bytes;
  if (__builtin_mul_overflow(Count, N, &Bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  // Fresh arena bytes are zero: no memset, no page touched beyond the
  // header's.
  if (void *P = arenaMalloc(Bytes))
    return P;
  return __real_calloc(Count, N);
}

void *__wrap_realloc(void *P, size_t N) {
  if (!inArena(P))
    return P ? __real_realloc(P, N) : __wrap_malloc(N);
  if (N == 0) // As glibc: the block is freed.
    return nullptr;
  if (N <= blockSize(P) || growInPlace(P, N))
    return P;
  void *New = __wrap_malloc(N);
  if (New)
    std::memcpy(New, P, blockSize(P));
  return New;
}

void *__wrap_memalign(size_t Align, size_t N) {
  // glibc takes any alignment, rounding it up to a power of two.
  size_t A = Granule;
  while (A < Align && A <= HugePage)
    A *= 2;
  if (A <= HugePage)
    if (void *P = arenaMalloc(N, A))
      return P;
  return __real_memalign(Align, N);
}

int __wrap_posix_memalign(void **Out, size_t Align, size_t N) {
  if (Align == 0 || Align % sizeof(void *) != 0 || (Align & (Align - 1)) != 0)
    return EINVAL;
  if (Align <= HugePage)
    if (void *P = arenaMalloc(N, Align < Granule ? Granule : Align)) {
      *Out = P;
      return 0;
    }
  return __real_posix_memalign(Out, Align, N);
}

void *__wrap_aligned_alloc(size_t Align, size_t N) {
  // glibc 2.36's aligned_alloc is its memalign.
  if (Arena)
    return __wrap_memalign(Align, N);
  return __real_aligned_alloc(Align, N);
}

void *__wrap_valloc(size_t N) {
  if (Arena)
    return __wrap_memalign(size_t(::getpagesize()), N);
  return __real_valloc(N);
}

void *__wrap_pvalloc(size_t N) {
  size_t Page = size_t(::getpagesize());
  if (Arena && N <= ArenaSize)
    return __wrap_memalign(Page, (N + Page - 1) & ~(Page - 1));
  return __real_pvalloc(N);
}

size_t __wrap_malloc_usable_size(void *P) {
  return inArena(P) ? blockSize(P) : __real_malloc_usable_size(P);
}
} // extern "C"
