#include "sim/compute_pool.h"

#include <algorithm>

#include "core/base/parallel.h"

namespace geotrain::sim {
namespace {

// Is this thread running background work? What it submits is background too.
thread_local bool in_background = false;

// Runs the task's work on this thread (the caller has marked it started) and
// returns what it threw; drops what the work captured, here, before anyone waits.
std::exception_ptr run_work(std::function<void()>& work, bool background) {
  const bool was = in_background;
  in_background = was || background;
  std::exception_ptr error;
  try {
    work();
  } catch (...) {
    error = std::current_exception();
  }
  in_background = was;
  work = nullptr;
  return error;
}

}  // namespace

ComputePool::ComputePool(int threads) {
  for (int i = 1; i < threads; ++i) helpers_.emplace_back([this] { helper(); });
}

ComputePool::~ComputePool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closing_ = true;
    queue_.clear();
    background_.clear();
  }
  work_cv_.notify_all();
  for (auto& t : helpers_) t.join();
}

int ComputePool::all_cores() { return int(std::max(1u, std::thread::hardware_concurrency())); }

std::shared_ptr<ComputePool::Task> ComputePool::submit(std::function<void()> work, bool background) {
  auto task = std::make_shared<Task>();
  // The work runs with what its submitter was lent (core/base/parallel.h), on whichever
  // thread takes it up: pieces it hands out go to this pool, as the submitter's would.
  LentThreads lent = lent_here();
  if (lent.runner || lent.starter)
    task->work = [lent = std::move(lent), work = std::move(work)] {
      const LendThreads here(lent);
      work();
    };
  else
    task->work = std::move(work);
  task->background = background || in_background;
  if (helpers_.empty()) {
    task->started = true;
    task->error = run_work(task->work, task->background);
    task->finished = true;
    return task;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    (task->background ? background_ : queue_).push_back(task);
  }
  work_cv_.notify_one();
  return task;
}

bool ComputePool::run_one(std::unique_lock<std::mutex>& lock, bool background) {
  for (auto* q : {&queue_, &background_})
    while (!q->empty() && q->front()->started) q->pop_front();  // taken by a waiter
  std::deque<std::shared_ptr<Task>>* q = !queue_.empty() ? &queue_ : background ? &background_ : nullptr;
  if (q == nullptr || q->empty()) return false;
  std::shared_ptr<Task> t = std::move(q->front());
  q->pop_front();
  t->started = true;
  lock.unlock();
  std::exception_ptr error = run_work(t->work, t->background);
  lock.lock();
  t->error = error;
  t->finished = true;
  done_cv_.notify_all();
  return true;
}

void ComputePool::helper() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [this] { return closing_ || !queue_.empty() || !background_.empty(); });
    if (closing_) return;
    run_one(lock, true);
  }
}

void ComputePool::wait(Task& task) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!task.started) {  // nobody has it yet: run it here rather than wait for a thread to be free
    task.started = true;
    lock.unlock();
    std::exception_ptr error = run_work(task.work, task.background);
    lock.lock();
    task.error = error;
    task.finished = true;
  }
  // Background work only for a waiter that is background work itself, or waits for some.
  const bool background = in_background || task.background;
  while (!task.finished)
    if (!run_one(lock, background)) done_cv_.wait(lock, [&task] { return task.finished; });
  if (task.error) std::rethrow_exception(task.error);
}

bool ComputePool::finished(Task& task) {
  std::lock_guard<std::mutex> lock(mu_);
  return task.finished;
}

void ComputePool::run_pieces(int pieces, const std::function<void(int)>& piece) {
  std::vector<std::shared_ptr<Task>> tasks;
  for (int i = 1; i < pieces; ++i) tasks.push_back(submit([&piece, i] { piece(i); }));
  std::exception_ptr error;
  try {
    piece(0);
  } catch (...) {
    error = std::current_exception();
  }
  for (auto& t : tasks) {  // every one, even after an error: they all use `piece`
    try {
      wait(*t);
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace geotrain::sim
