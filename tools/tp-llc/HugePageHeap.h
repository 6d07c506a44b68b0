//===- HugePageHeap.h - tp-llc's heap on transparent huge pages -*- C++ -*-===//
///
/// \file
/// tp-llc replaces operator new and malloc's family (HugePageHeap.cpp):
/// after enableHugePageHeap(), C++ and C allocations come from an arena of
/// 2 MiB transparent huge pages, never reused; before it, and past the
/// arena, from glibc's malloc.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TOOLS_TPLLC_HUGEPAGEHEAP_H
#define TP_TOOLS_TPLLC_HUGEPAGEHEAP_H

namespace tp {

/// Starts taking operator new's and malloc's memory from the huge-page
/// arena; false (glibc's heap stays) where the kernel's transparent huge
/// pages are off, the arena cannot be mapped, or under a sanitizer's
/// allocator.
bool enableHugePageHeap();

/// Whether \p P is memory of the arena (unittests/Tools).
bool inHugePageHeap(const void *P);

} // namespace tp

#endif // TP_TOOLS_TPLLC_HUGEPAGEHEAP_H
