#include "core/testing/fake_job.h"

#include <algorithm>

namespace geotrain::testing {

FakeJob::FakeJob(const Scenario& sc, Tracer* tracer)
    : job_(sc),
      world_(sc.seed),
      monitor_(job_.learner(), job_.data().test, sc.stop, sc.eval, [] { return NetCounters{}; }),
      tracer_(tracer) {
  const Deployment& dep = job_.deployment();
  const Topology& t = sc.topology;
  for (const auto& a : dep.nodes)
    for (const auto& b : dep.nodes) {
      if (a.id == b.id) continue;
      const LinkSpec &la = t.dcs[a.dc].lan, &lb = t.dcs[b.dc].lan;
      FakeWorld::Link l;
      l.latency_s = (la.latency_ms + lb.latency_ms) / 1e3;
      l.mbps = std::min(la.bandwidth_mbps, lb.bandwidth_mbps);
      if (a.dc != b.dc) {
        const LinkSpec w = wan_path(t, a.dc, b.dc);
        l.latency_s += w.latency_ms / 1e3;
        l.mbps = std::min(l.mbps, w.bandwidth_mbps);
      }
      world_.set_link(a.id, b.id, l);
    }
  world_.set_compute([this](NodeId id, const ComputeCost& c, TimeNs now, std::mt19937_64& rng) {
    return job_.compute_model().duration(id, c, now, rng);
  });
  for (const auto& n : dep.nodes) {
    RunMonitor* m = n.id == dep.global_server ? &monitor_ : nullptr;
    actors_.push_back(job_.make_actor(n.id, world_.runtime(n.id), m, tracer_));
    world_.attach(n.id, actors_.back().get());
  }
}

void FakeJob::run(TimeNs until) {
  if (!started_) {
    started_ = true;
    for (auto& a : actors_) world_.at(0, [p = a.get()] { p->start(); });
  }
  world_.run(until);
}

void FakeJob::restart(NodeId id) {
  actors_.at(std::size_t(id)) = job_.make_actor(id, world_.replace_runtime(id), nullptr, tracer_);
  world_.attach(id, actors_[std::size_t(id)].get());
  world_.at(world_.now(), [p = actors_[std::size_t(id)].get()] { p->rejoin(); });
}

}  // namespace geotrain::testing
