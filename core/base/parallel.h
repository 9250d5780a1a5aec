// Independent pieces of one computation that may run on several threads, when
// the runtime lends threads (the simulation does, with --threads; real mode
// does not). run_pieces() returns when every piece has run. A caller's result
// must not depend on how the pieces were spread: each piece writes only its
// own output, and the caller combines the outputs in piece order afterwards.
// Deferred work (an evaluation whose result nothing reads until later) goes to
// a lent thread the same way, and its owner waits for it before reading.
#pragma once
#include <exception>
#include <functional>

namespace geotrain {

using PieceRunner = std::function<void(int pieces, const std::function<void(int)>& piece)>;
// What a lent thread's deferred work gives its owner: a wait (rethrowing what the
// work threw) and a look (has it run?) that never blocks.
struct StartedTask {
  std::function<void()> wait;
  std::function<bool()> done;
};
// Starts `work` on a lent thread.
using TaskStarter = std::function<StartedTask(std::function<void()> work)>;

// Runs piece(0) ... piece(pieces - 1): on the lent threads, or one after another.
void run_pieces(int pieces, const std::function<void(int)>& piece);

// What the calling thread has been lent (both empty: nothing; pieces and
// deferred work then run at once, here).
struct LentThreads {
  PieceRunner runner;
  TaskStarter starter;
};
LentThreads lent_here();

// Lends `runner` to run_pieces(), and `starter` (if any) to Deferred, on the
// calling thread, for this object's lifetime (the previous ones come back
// afterwards). Per thread, not per process: two runs on two threads of one
// process each use their own runtime's threads. A runtime whose threads run
// work that may hand out pieces in turn lends the same to them
// (sim/compute_pool.cc: every task runs with its submitter's lent threads).
class LendThreads {
 public:
  explicit LendThreads(PieceRunner runner, TaskStarter starter = nullptr);
  explicit LendThreads(LentThreads lent) : LendThreads(std::move(lent.runner), std::move(lent.starter)) {}
  ~LendThreads();
  LendThreads(const LendThreads&) = delete;
  LendThreads& operator=(const LendThreads&) = delete;

 private:
  PieceRunner runner_, previous_;
  TaskStarter starter_, previous_starter_;
};

// Work whose result is needed later, not now: started on a lent thread when the
// runtime lends one, else run at once, here. wait() returns once it has run and
// rethrows what it threw; the destructor waits too (and drops an error). The
// work must touch nothing its starter changes before wait().
class Deferred {
 public:
  Deferred() = default;
  explicit Deferred(std::function<void()> work);
  ~Deferred();
  Deferred(Deferred&& o) noexcept;
  Deferred& operator=(Deferred&& o) noexcept;
  Deferred(const Deferred&) = delete;
  Deferred& operator=(const Deferred&) = delete;

  // Has the work run (wait() would not block)?
  bool done() const { return !task_.done || task_.done(); }
  void wait();

 private:
  void wait_quietly() noexcept;  // wait(), dropping an error: the owner never asked
  StartedTask task_;             // a lent thread's, until waited for
  std::exception_ptr error_;     // what work run at once threw, until waited for
};

}  // namespace geotrain
