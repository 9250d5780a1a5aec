#include "core/job/memory_estimate.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "core/json/json_reader.h"

namespace geotrain {

namespace {

// Measured on this project's runs (docs/faults.md): the runtime's state per
// node and per WAN link, beyond model copies; a process's fixed cost.
constexpr double kFlowNodeBytes = 30e3, kFlowLinkBytes = 2.5e3;
constexpr double kPacketNodeBytes = 45e3, kPacketLinkBytes = 45e3;
constexpr double kProcessBytes = 40e6;
constexpr double kWorkerCopies = 2, kServerCopies = 4;

// The model at its largest over the run (a forest grows), and the largest update.
double model_bytes(const TrainingJob& job) {
  double floats = 0;
  for (const auto& b : job.initial_params()) floats += double(b.values.size());
  return 4 * std::max(floats, double(job.footprint().expected_model()));
}
double update_bytes(const TrainingJob& job) { return 4 * double(job.footprint().expected_update()); }

// The learner's own working memory (Learner::footprint): its tables once per
// process, its caches per training row the workers of `share` of the data hold.
double learner_bytes(const TrainingJob& job, double share) {
  const LearnerFootprint& f = job.footprint();
  return double(f.fixed_bytes) + share * double(f.per_row_bytes) * double(job.data().train.x.cols());
}

double data_bytes(const TrainingJob& job) {
  double b = 0;
  for (const Dataset* d : {&job.data().train, &job.data().test})
    b += 4.0 * double(d->x.size()) + 4.0 * double(d->y.size() + d->target.size() + d->query_start.size());
  return b;
}

std::string mb(double bytes) {
  std::ostringstream o;
  o << std::fixed;
  if (bytes < 1e6)
    o << std::setprecision(1) << bytes / 1e3 << " KB";
  else
    o << std::setprecision(bytes < 10e6 ? 2 : 0) << bytes / 1e6 << " MB";
  return o.str();
}

struct Counts {
  double workers = 0, servers = 0, links = 0;
  double children = 0;  // of every server: a round's pushes a server holds until it merges them
};

Counts counts(const TrainingJob& job) {
  Counts c;
  for (const auto& n : job.deployment().nodes) {
    (n.role == Role::kWorker ? c.workers : c.servers) += 1;
    if (n.role != Role::kWorker) c.children += double(n.children.size());
  }
  c.links = double(job.scenario().topology.wan.size());
  return c;
}

}  // namespace

MemoryEstimate estimate_sim_memory(const TrainingJob& job, bool packet_level) {
  const Counts c = counts(job);
  const double m = model_bytes(job), u = update_bytes(job), node = packet_level ? kPacketNodeBytes : kFlowNodeBytes,
               link = packet_level ? kPacketLinkBytes : kFlowLinkBytes;
  const double worker = kWorkerCopies * m + u + node;
  const double workers = c.workers * worker, servers = c.servers * (kServerCopies * m + u + node) + c.children * u,
               links = c.links * link, learner = learner_bytes(job, 1.0), fixed = kProcessBytes + data_bytes(job);
  MemoryEstimate e;
  e.bytes = std::uint64_t(workers + servers + links + learner + fixed);
  e.packet_level = packet_level;
  std::ostringstream o;
  o << std::uint64_t(c.workers) << " workers x " << mb(worker) << " + " << std::uint64_t(c.servers) << " servers x "
    << mb(kServerCopies * m + u + node) << " + their children's pushes, " << mb(c.children * u) << " + "
    << std::uint64_t(c.links) << " WAN links x " << mb(link);
  if (learner > 0) o << " + the learner's tables and per-row caches, " << mb(learner);
  o << " + the data set and the process, " << mb(fixed);
  e.breakdown = o.str();
  return e;
}

MemoryEstimate estimate_launch_memory(const TrainingJob& job) {
  const Counts c = counts(job);
  const double m = model_bytes(job), u = update_bytes(job), per_process = kProcessBytes + data_bytes(job);
  const double share = c.workers > 0 ? 1.0 / c.workers : 0.0;  // a worker's process caches its own rows only
  const double workers = c.workers * (per_process + kWorkerCopies * m + u + learner_bytes(job, share)),
               servers = c.servers * (per_process + kServerCopies * m + u + double(job.footprint().fixed_bytes)) +
                         c.children * u;
  MemoryEstimate e;
  e.bytes = std::uint64_t(workers + servers);
  std::ostringstream o;
  o << std::uint64_t(c.workers + c.servers) << " processes, each with the data set (" << mb(data_bytes(job)) << ") and "
    << mb(kProcessBytes) << " of its own, workers holding " << kWorkerCopies << " and servers " << kServerCopies
    << " copies of the model (" << mb(m) << " each) and updates of " << mb(u) << " (a server one per child)";
  if (learner_bytes(job, share) > 0) o << ", each worker the learner's own " << mb(learner_bytes(job, share));
  e.breakdown = o.str();
  return e;
}

std::uint64_t memory_limit_bytes(double limit_mb) {
  if (limit_mb > 0) return std::uint64_t(limit_mb * 1e6);
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return std::uint64_t(0.8 * double(kb) * 1024);
  return 0;
}

void check_memory(const MemoryEstimate& e, double limit_mb, const std::string& file, const std::string& what) {
  const std::uint64_t limit = memory_limit_bytes(limit_mb);
  if (limit == 0 || e.bytes <= limit) return;
  throw ConfigError(
      file, "",
      what + " would need about " + mb(double(e.bytes)) + " of memory (" + e.breakdown + "), more than the " +
          mb(double(limit)) +
          " this machine can give it (80% of what is available, unless the run sets a limit: "
          "GEOTRAIN_MEMORY_LIMIT_MB). Fewer workers or data centres, or a smaller model or data set, need less" +
          (e.packet_level ? "; so does the flow model (network.model = \"flow\")." : "."));
}

}  // namespace geotrain
