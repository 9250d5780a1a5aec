// Independent pieces of one computation that may run on several threads, when
// the runtime lends threads (the simulation does, with --threads; real mode
// does not). run_pieces() returns when every piece has run. A caller's result
// must not depend on how the pieces were spread: each piece writes only its
// own output, and the caller combines the outputs in piece order afterwards.
#pragma once
#include <functional>

namespace geotrain {

using PieceRunner = std::function<void(int pieces, const std::function<void(int)>& piece)>;

// Runs piece(0) ... piece(pieces - 1): on the lent threads, or one after another.
void run_pieces(int pieces, const std::function<void(int)>& piece);

// Lends `runner` to run_pieces() for this object's lifetime (one at a time per
// process; the previous one comes back afterwards).
class LendThreads {
 public:
  explicit LendThreads(PieceRunner runner);
  ~LendThreads();
  LendThreads(const LendThreads&) = delete;
  LendThreads& operator=(const LendThreads&) = delete;

 private:
  PieceRunner runner_, previous_;
};

}  // namespace geotrain
