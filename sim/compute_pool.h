// Threads for the simulated workers' training maths. In a simulation a step's
// maths (the learner's local_update) is needed only when the node's next
// callback runs, so the event loop hands it to this pool and goes on with other
// nodes' events; the node waits for it (SimNode::settle) before anything else
// of that node runs. Results do not depend on the number of threads: each task
// touches only its own node's state (the learner is const and its caches lock),
// and the event loop sees every result at the same simulated point.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace geotrain::sim {

class ComputePool {
 public:
  class Task;

  // `threads` runs of maths at once, the event loop's own thread included (it
  // runs queued tasks while it waits); 1 runs every task at once, in submit().
  explicit ComputePool(int threads);
  ~ComputePool();  // waits for the threads; queued tasks are dropped
  ComputePool(const ComputePool&) = delete;
  ComputePool& operator=(const ComputePool&) = delete;

  int threads() const { return int(helpers_.size()) + 1; }
  // Starts `work` (on a pool thread, or at once with one thread). Background
  // work (a deferred evaluation), and the pieces it hands out, waits while
  // other work is queued, and runs only on the pool's own threads, or on a
  // thread that waits for it: a waiting event loop never takes it up, since
  // the loop's next event may need the task it waits for at once.
  std::shared_ptr<Task> submit(std::function<void()> work, bool background = false);
  // Returns when `task` has run; rethrows what it threw. The calling thread
  // runs queued tasks meanwhile (this one first, if nobody has started it).
  void wait(Task& task);
  // Has `task` run (wait() would return at once)?
  bool finished(Task& task);
  // Runs piece(0 .. pieces-1) on the pool and this thread; returns when all
  // have run (core/base/parallel.h lends this to run_pieces()).
  void run_pieces(int pieces, const std::function<void(int)>& piece);

  // What --threads means by default: every core of the machine.
  static int all_cores();

 private:
  // Runs a queued task, if any: other work first, background work if allowed.
  bool run_one(std::unique_lock<std::mutex>& lock, bool background);
  void helper();

  std::mutex mu_;
  std::condition_variable work_cv_, done_cv_;
  std::deque<std::shared_ptr<Task>> queue_, background_;
  bool closing_ = false;
  std::vector<std::thread> helpers_;
};

class ComputePool::Task {
 private:
  friend class ComputePool;
  std::function<void()> work;
  bool background = false;
  bool started = false, finished = false;  // guarded by the pool's mutex
  std::exception_ptr error;
};

}  // namespace geotrain::sim
