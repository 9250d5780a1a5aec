// The process's allocator settings, made once at start-up by each binary
// (cli/main.cc, the test binary's environment) before anything is allocated.
#pragma once

#include <cstddef>

namespace geotrain {

// glibc maps every block over its mmap threshold afresh (a page fault per 4 KiB
// on each use) and raises that threshold to the largest mapped block freed so
// far: so whether a training step's megabyte-sized Eigen temporaries were
// mapped and unmapped on every step depended on which buffers a run happened to
// free first (one change in how the data set is read doubled the quickstart's
// page faults). This fixes the thresholds: blocks up to 32 MiB reuse the heap,
// and freed heap is handed back only past 128 MiB.
// It also turns glibc's fast bins off (M_MXFAST 0). Small blocks freed past the
// per-thread cache wait in fast bins unmerged, and every request over 1 KiB (a
// message's list of blocks: 161 of them for ResNet-50) first merges them all.
// Without fast bins such blocks are merged as they are freed (1,024 DCs in the
// flow model: 38.6 s -> 32.0 s; nbsync with 2 threads 5% faster).
// Returns whether all were set: false off glibc, where it does nothing.
bool pin_allocator_thresholds();

// Backs the heap with transparent huge pages (2 MiB) where the kernel gives
// them only to memory that asks (the `madvise` mode, Debian's default). A
// large simulation touches hundreds of megabytes of roles, flows and
// messages every round, and with 4 KiB pages it spends much of its time
// walking page tables (512 and 1,024 DCs in the flow model: 14% and 8% faster
// with huge pages, medians of 5). glibc asks for huge pages only when told by the environment
// (GLIBC_TUNABLES), so this does it from inside: the heap grows at once by
// 1 GiB of address space (M_TOP_PAD; a page costs memory only when first
// touched, and trimming keeps the pad) and its whole free top is advised.
// Returns the bytes advised: 0 off glibc or Linux, or if refused. Call after
// pin_allocator_thresholds, at start-up: blocks already on the heap's free
// lists stay on small pages.
std::size_t advise_heap_huge_pages();

}  // namespace geotrain
