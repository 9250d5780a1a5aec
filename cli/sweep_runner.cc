#include "cli/sweep_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

#include "api/platform.h"
#include "api/runs.h"
#include "api/scenarios.h"
#include "cli/environment.h"

namespace geotrain::cli {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

bool finished(const std::string& dir) {
  try {
    const nlohmann::json s = load_json_file(dir + "/summary.json");
    return s.contains("metrics") && (!s.contains("error") || s["error"].is_null());
  } catch (const std::exception&) {
    return false;
  }
}

const char* kSummaryColumns[] = {"final_test_accuracy",
                                 "final_loss",
                                 "time_to_target_s",
                                 "sim_time_s",
                                 "wall_time_s",
                                 "rounds",
                                 "time_per_round_s",
                                 "comm_time_per_round_s",
                                 "worker_steps",
                                 "wan_bytes_per_round",
                                 "events",
                                 "runtime",
                                 "architecture",
                                 "policy"};

std::string csv_cell(const nlohmann::json& v) {
  if (v.is_null()) return "";
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n") != std::string::npos) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  }
  return s;
}

// What a point's run will need, estimated as the run itself estimates it before
// it starts (core/job/memory_estimate.h). Points that differ only in their seed need
// the same, so each distinct point is estimated once, when it is first due.
class PointMemory {
 public:
  explicit PointMemory(const SweepPlan& plan) : plan_(plan) {}
  std::uint64_t operator()(const SweepPoint& p) {
    std::string key;
    for (const auto& s : p.sets)
      if (s.rfind("seed=", 0) != 0) key += s + '\n';
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    std::uint64_t bytes = 0;
    try {
      const TrainingJob job(load_scenario(plan_.base_scenario, p.sets));
      bytes = (plan_.runtime == "real" ? estimate_launch_memory(job)
                                       : estimate_sim_memory(job, job.scenario().network.model != "flow"))
                  .bytes;
    } catch (const std::exception&) {
      // The point's own run reports what is wrong with it.
    }
    return cache_[key] = bytes;
  }

 private:
  const SweepPlan& plan_;
  std::map<std::string, std::uint64_t> cache_;
};

}  // namespace

SweepOutcome run_sweep(const SweepPlan& plan, const std::string& out, const SweepOptions& opt) {
  fs::create_directories(out + "/runs");
  {
    nlohmann::json pj;
    pj["name"] = plan.name;
    pj["base"] = plan.base_scenario;
    pj["runtime"] = plan.runtime;
    for (const auto& p : plan.points) pj["points"].push_back({{"id", p.id}, {"seed", p.seed}, {"sets", p.sets}});
    write_file_atomically(out + "/plan.json", pj.dump(1) + "\n");
  }
  SweepOutcome o;
  std::deque<const SweepPoint*> todo;
  for (const auto& p : plan.points) {
    if (p.index % opt.shards != opt.shard) continue;
    const std::string dir = out + "/runs/" + p.id;
    if (finished(dir)) {
      ++o.skipped;
      continue;
    }
    fs::remove_all(dir);  // a broken or half-written run: start it again
    todo.push_back(&p);
  }
  const int total = int(todo.size());
  // The cores are shared between the points run at once and each one's threads
  // (a simulation's results do not depend on its threads).
  const int threads = std::max(1, sim::ComputePool::all_cores() / std::max(1, std::min(opt.jobs, total)));
  const std::string exe = real::self_exe();
  const real::StopSignals stop_signals;  // Ctrl-C: running points stopped, finished ones kept
  std::map<pid_t, const SweepPoint*> running;
  // Points run at once share the machine's memory: one is started only while the
  // estimates of all running points fit the limit together (a point alone always
  // starts; it refuses itself when it cannot fit at all).
  const std::uint64_t limit = memory_limit_bytes(memory_limit_mb_from_environment());
  PointMemory memory(plan);
  std::map<pid_t, std::uint64_t> running_bytes;
  std::uint64_t in_use = 0;
  bool told_memory = false;
  const auto t0 = Clock::now();
  int done = 0;
  auto progress = [&] {
    if (!opt.progress) return;
    const double el = std::chrono::duration<double>(Clock::now() - t0).count();
    const double eta = done > 0 ? el / done * (total - done) : 0;
    std::fprintf(stderr, "[sweep %s] %d/%d done, %zu running, %d failed, %d already finished, %.0f s elapsed%s\n",
                 plan.name.c_str(), done, total, running.size(), o.failed, o.skipped, el,
                 done > 0 ? (", ETA " + std::to_string(int(eta + 0.5)) + " s").c_str() : "");
  };
  while ((!todo.empty() || !running.empty()) && !real::StopSignals::caught()) {
    while (!todo.empty() && int(running.size()) < opt.jobs) {
      const SweepPoint* p = todo.front();
      const std::uint64_t need = limit > 0 ? memory(*p) : 0;
      if (!running.empty() && in_use + need > limit) {
        if (!told_memory)
          std::fprintf(stderr,
                       "[sweep %s] memory: point %s needs about %.0f MB and the %zu running need %.0f MB; the "
                       "limit is %.0f MB (GEOTRAIN_MEMORY_LIMIT_MB, else 80%% of the memory available), so fewer "
                       "than -j %d points run at once\n",
                       plan.name.c_str(), p->id.c_str(), double(need) / 1e6, running.size(), double(in_use) / 1e6,
                       double(limit) / 1e6, opt.jobs);
        told_memory = true;
        break;
      }
      todo.pop_front();
      const std::string dir = out + "/runs/" + p->id;
      fs::create_directories(dir);
      std::vector<std::string> args = {plan.runtime == "real" ? "launch" : "sim", plan.base_scenario, "--out", dir,
                                       "-q"};
      if (plan.runtime != "real") args.insert(args.end(), {"--threads", std::to_string(threads)});
      for (const auto& s : p->sets) args.insert(args.end(), {"--set", s});
      const pid_t pid = real::spawn_process(exe, args, dir + "/log.txt");
      running[pid] = p;
      running_bytes[pid] = need;
      in_use += need;
    }
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) continue;  // interrupted by a signal
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const SweepPoint* p = it->second;
    running.erase(it);
    in_use -= running_bytes[pid];
    running_bytes.erase(pid);
    ++done;
    ++o.ran;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) || !finished(out + "/runs/" + p->id)) {
      ++o.failed;
      std::fprintf(stderr, "[sweep %s] point %s failed; see %s/runs/%s/log.txt\n", plan.name.c_str(), p->id.c_str(),
                   out.c_str(), p->id.c_str());
    }
    progress();
  }
  if (real::StopSignals::caught()) {
    for (auto& [pid, p] : running) kill(pid, SIGTERM);
    for (auto& [pid, p] : running) waitpid(pid, nullptr, 0);
    throw std::runtime_error("interrupted; rerun the same command to resume (finished points are kept)");
  }
  return o;
}

int write_results_csv(const SweepPlan& plan, const std::string& out) {
  std::ostringstream csv;
  csv << "point,seed";
  for (const auto& a : plan.axes)  // (a swept seed is the seed column: not twice)
    if (a != "seed") csv << ',' << csv_cell(a);
  // Summary fields that are also swept (e.g. architecture) appear once, as the axis.
  std::vector<const char*> cols;
  for (const char* c : kSummaryColumns)
    if (std::find(plan.axes.begin(), plan.axes.end(), c) == plan.axes.end()) cols.push_back(c);
  for (const char* c : cols) csv << ',' << c;
  // Then every metric of the learner (summary.json `metrics`), final and best: sweeps compare on any of them.
  std::vector<std::string> metrics;
  for (const auto& p : plan.points) {
    const std::string dir = out + "/runs/" + p.id;
    if (!finished(dir)) continue;
    const nlohmann::json s = load_json_file(dir + "/summary.json");
    if (s.contains("metrics"))
      for (const auto& name : s["metrics"]["names"]) metrics.push_back(name);
    break;
  }
  csv << ",wan_bytes,lan_bytes";
  for (const auto& m : metrics) csv << ',' << m << "_final," << m << "_best";
  csv << '\n';
  int rows = 0;
  for (const auto& p : plan.points) {
    const std::string dir = out + "/runs/" + p.id;
    if (!finished(dir)) continue;
    const nlohmann::json s = load_json_file(dir + "/summary.json");
    csv << p.id << ',' << p.seed;
    for (const auto& [k, v] : p.values)
      if (k != "seed") csv << ',' << csv_cell(v);
    for (const char* c : cols) csv << ',' << csv_cell(s.value(c, nlohmann::json()));
    csv << ',' << s["bytes"]["wan"].dump() << ',' << s["bytes"]["lan"].dump();
    for (const auto& m : metrics) {
      const nlohmann::json v =
          s.contains("metrics") ? s["metrics"]["values"].value(m, nlohmann::json()) : nlohmann::json();
      csv << ',' << csv_cell(v.is_object() ? v["final"] : v) << ',' << csv_cell(v.is_object() ? v["best"] : v);
    }
    csv << '\n';
    ++rows;
  }
  write_file_atomically(out + "/results.csv", csv.str());
  return rows;
}

}  // namespace geotrain::cli
