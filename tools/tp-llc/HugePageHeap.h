//===- HugePageHeap.h - operator new on transparent huge pages -*- C++ -*-===//
///
/// \file
/// tp-llc replaces operator new (HugePageHeap.cpp): after
/// enableHugePageHeap(), C++ allocations come from an arena of 2 MiB
/// transparent huge pages, never reused; before it, and past the arena,
/// from malloc.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TOOLS_TPLLC_HUGEPAGEHEAP_H
#define TP_TOOLS_TPLLC_HUGEPAGEHEAP_H

namespace tp {

/// Starts taking operator new's memory from the huge-page arena; false
/// (malloc's heap stays) where the kernel's transparent huge pages are
/// off, the arena cannot be mapped, or under a sanitizer's allocator.
bool enableHugePageHeap();

} // namespace tp

#endif // TP_TOOLS_TPLLC_HUGEPAGEHEAP_H
