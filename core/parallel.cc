#include "core/parallel.h"

#include <utility>

namespace geotrain {
namespace {

PieceRunner& lent() {
  static PieceRunner runner;  // set and cleared by the thread that runs the job, between runs
  return runner;
}

}  // namespace

void run_pieces(int pieces, const std::function<void(int)>& piece) {
  if (lent() && pieces > 1) return lent()(pieces, piece);
  for (int i = 0; i < pieces; ++i) piece(i);
}

LendThreads::LendThreads(PieceRunner runner) : runner_(std::move(runner)), previous_(std::move(lent())) {
  lent() = runner_;
}

LendThreads::~LendThreads() { lent() = std::move(previous_); }

}  // namespace geotrain
