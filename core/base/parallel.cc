#include "core/base/parallel.h"

#include <utility>

namespace geotrain {
namespace {

// Set and cleared by LendThreads on its own thread: no state shared between threads.
PieceRunner& lent() {
  thread_local PieceRunner runner;
  return runner;
}
TaskStarter& lent_starter() {
  thread_local TaskStarter starter;
  return starter;
}

}  // namespace

LentThreads lent_here() { return {lent(), lent_starter()}; }

void run_pieces(int pieces, const std::function<void(int)>& piece) {
  if (lent() && pieces > 1) return lent()(pieces, piece);
  for (int i = 0; i < pieces; ++i) piece(i);
}

LendThreads::LendThreads(PieceRunner runner, TaskStarter starter)
    : runner_(std::move(runner)),
      previous_(std::move(lent())),
      starter_(std::move(starter)),
      previous_starter_(std::move(lent_starter())) {
  lent() = runner_;
  lent_starter() = starter_;
}

LendThreads::~LendThreads() {
  lent() = std::move(previous_);
  lent_starter() = std::move(previous_starter_);
}

Deferred::Deferred(std::function<void()> work) {
  if (lent_starter()) {
    task_ = lent_starter()(std::move(work));
    return;
  }
  try {
    work();
  } catch (...) {
    error_ = std::current_exception();
  }
}

Deferred::~Deferred() { wait_quietly(); }

Deferred::Deferred(Deferred&& o) noexcept
    : task_(std::exchange(o.task_, {})), error_(std::exchange(o.error_, nullptr)) {}

Deferred& Deferred::operator=(Deferred&& o) noexcept {
  if (this != &o) {
    wait_quietly();
    task_ = std::exchange(o.task_, {});
    error_ = std::exchange(o.error_, nullptr);
  }
  return *this;
}

void Deferred::wait_quietly() noexcept {
  try {
    wait();
  } catch (...) {  // the owner never asked: nothing to tell
  }
}

void Deferred::wait() {
  if (task_.wait) std::exchange(task_, {}).wait();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace geotrain
