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
// One set for every learner: the L3 size only bounds a product's column panel
// (L3 / (2 x depth x 4 bytes) columns), far above any product a learner runs, so
// no shipped figure depended on the two values (320 and 512 MiB) once set here
// and in the neural learners.
constexpr long kPinnedL1Bytes = 32 * 1024, kPinnedL2Bytes = 1024 * 1024, kPinnedL3Bytes = 512L * 1024 * 1024;

// Pins Eigen's product blocking to the sizes above. Idempotent and cheap; the
// job calls it before it builds a learner (make_learner), and the learners that
// multiply matrices call it in their constructors, for anyone who builds one
// directly (a test, the Python package).
void pin_numeric_environment();

}  // namespace geotrain
