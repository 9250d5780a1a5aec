#include "sim/sim_runner.h"

#include <ns3/core-module.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "core/job.h"
#include "core/memory_estimate.h"
#include "core/monitor.h"
#include "core/parallel.h"
#include "core/params_file.h"
#include "core/progress.h"
#include "core/role_stats.h"
#include "core/run_records.h"
#include "sim/compute_pool.h"
#include "sim/flow_network.h"
#include "sim/sim_network.h"
#include "sim/sim_node.h"
#include "sim/sim_transport.h"

namespace geotrain::sim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

RunResult run_simulation(const Scenario& sc, const SimOptions& opt) {
  const auto t0 = Clock::now();
  ComputePool pool(opt.threads);  // outlives the nodes, whose steps it runs; loads the data too
  const LendThreads lend(
      [&pool](int pieces, const std::function<void(int)>& piece) {
        pool.run_pieces(pieces, piece);  // e.g. an evaluation's chunks
      },
      [&pool](std::function<void()> work) {  // e.g. an evaluation nothing waits for
        std::shared_ptr<ComputePool::Task> t = pool.submit(std::move(work), true);
        return StartedTask{[&pool, t] { pool.wait(*t); }, [&pool, t] { return pool.finished(*t); }};
      });
  TrainingJob job(sc);
  const Deployment& dep = job.deployment();
  // Before any node is built: a run that cannot fit is refused, not killed halfway.
  check_memory(estimate_sim_memory(job, sc.network.model != "flow"), sc.file, "this simulation");

  ns3::RngSeedManager::SetSeed(std::uint32_t(sc.seed % 4294967295u) + 1);  // ns-3 rejects seed 0
  ns3::RngSeedManager::SetRun(1);

  RunResult result;
  {
    std::vector<std::unique_ptr<Actor>> actors(dep.nodes.size());
    std::vector<std::unique_ptr<SimNode>> nodes;  // destroyed first: each waits for its step's maths
    const auto deliver = [&actors, &nodes](const Message& m) {
      nodes[std::size_t(m.to)]->settle();  // its step's maths first, as in a one-thread run
      actors[m.to]->on_message(m);
    };
    // One of the two network models (network.model): packet-level ns-3, or flows.
    std::unique_ptr<SimNetwork> net;
    std::unique_ptr<Transport> transport;
    FlowNetwork* flows = nullptr;
    if (sc.network.model == "flow") {
      auto f = std::make_unique<FlowNetwork>(sc, dep, deliver);
      flows = f.get();
      transport = std::move(f);
    } else {
      net = std::make_unique<SimNetwork>(sc, dep);
      transport = std::make_unique<SimTransport>(*net, deliver);
    }
    const auto counters = [&] { return flows ? flows->counters() : net->counters(); };
    RunMonitor monitor(job.learner(), job.data().test, sc.stop, sc.eval, counters);
    Progress progress(opt.progress, "sim", sc.stop.rounds, job.learner().metrics().at(0).name);
    RunRecords records;  // the outputs' records, gathered as the run goes: memory flat in rounds
    monitor.on_row([&records](double time_s) { records.row_at(time_s); });
    monitor.on_eval([&progress](const TimelineRow& r) { progress(r); });

    bool job_stopped = false;  // the core ended the job (vs. the time limit, or no events left)
    for (const auto& n : dep.nodes) {
      nodes.push_back(std::make_unique<SimNode>(n.id, *transport, job.compute_model(), pool, sc.seed, [&job_stopped] {
        job_stopped = true;
        ns3::Simulator::Stop();
      }));
      RunMonitor* m = n.id == dep.global_server ? &monitor : nullptr;
      actors[n.id] = job.make_actor(n.id, *nodes.back(), m, opt.tracer, nullptr, 0, &records);
    }
    for (auto& a : actors) ns3::Simulator::ScheduleNow([p = a.get()] { p->start(); });
    if (sc.stop.sim_time_s > 0) ns3::Simulator::Stop(ns3::Seconds(sc.stop.sim_time_s));
    ns3::Simulator::Run();
    progress.done();

    const TimeNs end = ns3::Simulator::Now().GetNanoSeconds();
    for (auto& n : nodes) n->settle();  // steps still running when the run ended
    for (auto& a : actors) a->finish(end);

    result.runtime = "sim";
    result.scenario_name = sc.name;
    describe_learner(sc, &result);
    result.architecture = sc.architecture;
    result.policy = sc.policy;
    result.time_to_target_s = monitor.time_to_target_s();
    result.sim_time_s = to_seconds(end);
    result.bytes = counters();
    result.events = ns3::Simulator::GetEventCount();
    result.timeline = monitor.timeline();
    if (!opt.save_model.empty()) write_params_file(opt.save_model, monitor.last_evaluated());
    std::vector<RoleReport> reports;
    for (const auto& a : actors) reports.push_back({a->report(end), result.sim_time_s});
    records.fill(result.timeline);
    assemble_role_reports(sc, dep, reports, &result);
    result.comm_time_per_round_s = records.spans().mean();  // the workers' reports carry no spans here
    result.network = flows ? flows->settings() : net->settings();
    result.scenario = sc.resolved;
    result.drops = flows ? flows->drops() : net->drops();
    if (const auto n = result.drops["dropped_at_sending_hosts"].get<std::uint64_t>(); n > 0 && opt.progress)
      std::fprintf(stderr,
                   "warning: %llu packets were dropped at their sending hosts, whose queues should never drop "
                   "(a bug in geotrain's simulated network: please report it); see summary.json \"drops\"\n",
                   static_cast<unsigned long long>(n));
    const bool time_limit = sc.stop.sim_time_s > 0 && result.sim_time_s >= sc.stop.sim_time_s;
    if (!monitor.failure().empty())
      result.error = monitor.failure();
    else if (!job_stopped && !time_limit)
      result.error = "the simulation ran out of events at " + std::to_string(result.sim_time_s) + " s after " +
                     std::to_string(result.rounds) +
                     " rounds: nothing more could happen (TCP gave up on a path? every packet lost?); "
                     "the stop condition was never reached" +
                     (transport->unfinished().empty() ? std::string() : "; unfinished:\n" + transport->unfinished());
    else if (result.rounds == 0)
      result.error = "no round completed within stop.sim_time_s = " + std::to_string(sc.stop.sim_time_s) + " s";
    actors.clear();
    nodes.clear();
    transport.reset();
    net.reset();
  }
  ns3::Simulator::Destroy();
  result.wall_time_s = seconds_since(t0);
  return result;
}

}  // namespace geotrain::sim
