// What makes a run's floating-point results the same on every x86-64 machine.
//
// Eigen's matrix products cut their operands into blocks sized from the CPU's
// cache sizes, which it reads from the machine at run time; the block depth is
// the order in which each product's terms are summed, so two machines with
// different caches round differently. Everything else is fixed when the binary
// is built: no -march, no FMA contraction, no threads inside a product, exact
// square roots (EIGEN_FAST_MATH=0 in CMakeLists.txt: Eigen's default packet
// root comes from an approximate instruction that differs between CPU makers,
// likely why the quickstart's 0.8560 was 0.8536 on another VM), and glibc's
// CPU-specific exp/log variants give the same results here (the test
// `determinism.quickstart_without_avx2_fma_avx512` runs the quickstart with
// them hidden from glibc and compares the summaries bit for bit).
#pragma once

namespace geotrain {

// The cache sizes Eigen plans its products for, whatever the machine has: those
// of the machines the shipped figures were measured on (so they still hold).
constexpr long kPinnedL1Bytes = 32 * 1024, kPinnedL2Bytes = 1024 * 1024, kPinnedL3Bytes = 320L * 1024 * 1024;

// Pins Eigen's product blocking to the sizes above. Idempotent and cheap; every
// learner is built after it (make_learner), so every runtime and test gets it.
void pin_numeric_environment();

}  // namespace geotrain
