// The process's allocator: mimalloc, linked into every binary (CMakeLists.txt),
// replaces malloc, free and operator new process-wide; this sets it up once at
// start-up (cli/main.cc, the test binary's environment).
//
// Why not glibc's: a large simulation allocates and frees many mid-sized
// blocks (a ResNet-50 message's list of 161 block headers is 3.9 KB; a flow's
// events and queued messages) from every thread. glibc serves blocks over 1 KiB
// from shared free lists that merge neighbours on every free and split them
// again on every request, and that upkeep grew faster than the run: 1,024 DCs
// in the flow model took 2.3x the time of 512 (30 rounds, medians of 5).
// mimalloc keeps per-thread free lists per size class in pages of one size:
// the same runs took 1.99x, and 1,024 DCs 30% less time (docs/scale.md).
//
// Large OS pages: its segments are asked for as transparent huge pages
// (2 MiB), madvised, where the kernel gives them only to memory that asks
// (Debian's default). A thousand-DC run touches hundreds of megabytes of
// roles, flows and messages every round, and with 4 KiB pages it spends much
// of its time walking page tables and faulting pages in (the quickstart:
// 78,900 page faults -> 14,900).
#pragma once

namespace geotrain {

// Turns mimalloc's large OS pages on. Returns false in a build without
// mimalloc (the fuzz targets, which run under ASan's allocator), where it does
// nothing. Call first thing in main: blocks already allocated stay where they are.
bool configure_allocator();

// Whether `p` (from malloc or new) lies in mimalloc's heap: false when the
// binary's allocations do not go through mimalloc (a link that lost it, or
// a build without it).
bool allocated_by_mimalloc(const void* p);

}  // namespace geotrain
