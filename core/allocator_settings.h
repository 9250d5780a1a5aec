// The process's allocator settings, made once at start-up by each binary
// (cli/main.cc, the test binary's environment) before anything is allocated.
#pragma once

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

}  // namespace geotrain
