#include "sim/sim_runner.h"

#include <ns3/core-module.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "core/base/parallel.h"
#include "core/config/network_models.h"
#include "core/job/job.h"
#include "core/job/memory_estimate.h"
#include "core/job/role_stats.h"
#include "core/payload/params_file.h"
#include "core/run/monitor.h"
#include "core/run/progress.h"
#include "core/run/run_records.h"
#include "sim/compute_pool.h"
#include "sim/network_model.h"
#include "sim/sim_node.h"

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
  const NetworkModelInfo* model = find_network_model(sc.network.model);
  check_memory(estimate_sim_memory(job, model && model->packet_level), opt.memory_limit_mb, sc.file, "this simulation");

  RunResult result;
  {
    // The network model network.model names (sim/network_model.h), and the event loop it runs on:
    // declared first, so that on every way out the nodes (whose timers are on its loop) go before it.
    std::unique_ptr<NetworkModel> net;
    std::vector<std::unique_ptr<Actor>> actors(dep.nodes.size());
    std::vector<std::unique_ptr<SimNode>> nodes;  // destroyed first: each waits for its step's maths
    const auto deliver = [&actors, &nodes](const Message& m) {
      nodes[std::size_t(m.to)]->settle();  // its step's maths first, as in a one-thread run
      actors[m.to]->on_message(m);
    };
    net = make_network_model(sc, dep, deliver);
    EventLoop& loop = net->loop();
    const auto counters = [&net] { return net->counters(); };
    RunMonitor monitor(job.learner(), job.data().test, sc.stop, sc.eval, counters);
    {
      std::vector<const Dataset*> dc_tests;
      for (const Dataset& t : job.dc_tests()) dc_tests.push_back(&t);
      monitor.evaluate_per_dc(std::move(dc_tests));
    }
    Progress progress(opt.progress, "sim", sc.stop.rounds, job.learner().metrics().at(0).name);
    RunRecords records;  // the outputs' records, gathered as the run goes: memory flat in rounds
    monitor.on_row([&records](double time_s) { records.row_at(time_s); });
    monitor.on_eval([&progress](const TimelineRow& r) { progress(r); });

    bool job_stopped = false;  // the core ended the job (vs. the time limit, or no events left)
    for (const auto& n : dep.nodes) {
      nodes.push_back(std::make_unique<SimNode>(n.id, loop, net->transport(), job.compute_model(), pool, sc.seed, [&] {
        job_stopped = true;
        loop.stop();
      }));
      RunMonitor* m = n.id == dep.global_server ? &monitor : nullptr;
      actors[n.id] = job.make_actor(n.id, *nodes.back(), m, opt.tracer, nullptr, 0, &records);
    }
    for (auto& a : actors) loop.schedule(0, [p = a.get()] { p->start(); });
    if (sc.stop.sim_time_s > 0) loop.stop_at(ns3::Seconds(sc.stop.sim_time_s).GetNanoSeconds());
    loop.run();
    progress.done();

    const TimeNs end = loop.now();
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
    result.events = loop.events();
    result.timeline = monitor.timeline();
    if (!opt.save_model.empty()) write_params_file(opt.save_model, monitor.last_evaluated());
    result.metric_dcs = job.data_dcs();
    std::vector<RoleReport> reports;
    for (const auto& a : actors) reports.push_back({a->report(end), result.sim_time_s});
    records.fill(result.timeline);
    assemble_role_reports(sc, dep, reports, &result);
    result.comm_time_per_round_s = records.spans().mean();  // the workers' reports carry no spans here
    result.network = net->settings();
    result.scenario = sc.resolved;
    result.drops = net->drops();
    if (const auto n = result.drops["dropped_at_sending_hosts"].get<std::uint64_t>(); n > 0 && opt.progress)
      std::fprintf(stderr,
                   "warning: %llu packets were dropped at their sending hosts, whose queues should never drop "
                   "(a bug in geotrain's simulated network: please report it); see summary.json \"drops\"\n",
                   static_cast<unsigned long long>(n));
    const bool time_limit = sc.stop.sim_time_s > 0 && result.sim_time_s >= sc.stop.sim_time_s;
    if (!monitor.failure().empty())
      result.error = monitor.failure();
    else if (!job_stopped && !time_limit)
      result.error =
          "the simulation ran out of events at " + std::to_string(result.sim_time_s) + " s after " +
          std::to_string(result.rounds) +
          " rounds: nothing more could happen (TCP gave up on a path? every packet lost?); "
          "the stop condition was never reached" +
          (net->transport().unfinished().empty() ? std::string() : "; unfinished:\n" + net->transport().unfinished());
    else if (result.rounds == 0)
      result.error = "no round completed within stop.sim_time_s = " + std::to_string(sc.stop.sim_time_s) + " s";
    actors.clear();
    nodes.clear();
    net.reset();  // ns-3's: Simulator::Destroy(), for the next run
  }
  result.wall_time_s = seconds_since(t0);
  return result;
}

}  // namespace geotrain::sim
