#include "tests/fidelity_test_util.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/job/job.h"
#include "core/payload/message.h"
#include "core/payload/wire.h"

namespace geotrain::testing {
namespace {

struct Hop {
  double mbps, latency_ms;
};

// Host in DC a to host in DC b: LAN, (WAN), LAN.
std::vector<Hop> path(const Topology& t, int a, int b) {
  const LinkSpec& la = t.dcs[a].lan;
  const LinkSpec& lb = t.dcs[b].lan;
  std::vector<Hop> hops = {{la.bandwidth_mbps, la.latency_ms}};
  if (a != b) {
    const LinkSpec w = wan_path(t, a, b);
    hops.push_back({w.bandwidth_mbps, w.latency_ms});
  }
  hops.push_back({lb.bandwidth_mbps, lb.latency_ms});
  return hops;
}

double on_wire(double payload, double seg) { return payload + std::ceil(payload / seg) * kPerSegmentHeaderBytes; }

// A message of `payload` bytes across the hops.
double transfer_s(const std::vector<Hop>& hops, double payload, double seg) {
  double slowest = hops[0].mbps, s = 0;
  for (const auto& h : hops) slowest = std::min(slowest, h.mbps);
  const double packet = std::min(payload, seg) + kPerSegmentHeaderBytes;
  bool bottleneck_counted = false;
  for (const auto& h : hops) {
    s += h.latency_ms / 1e3;
    if (h.mbps == slowest && !bottleneck_counted) {
      s += on_wire(payload, seg) * 8 / (h.mbps * 1e6);
      bottleneck_counted = true;
    } else {
      s += packet * 8 / (h.mbps * 1e6);
    }
  }
  return s;
}

}  // namespace

double analytic_round_s(const Scenario& sc, const Topology& t, double seg) {
  if (sc.architecture != "hips") throw std::invalid_argument("analytic model: hips only");
  TrainingJob job(sc);
  const double model = double(dense_wire_bytes(job.initial_params()));
  const double small = double(kMessageHeaderBytes);
  const double flops = job.learner().train_flops_per_sample() * sc.batch_size;
  const int g = t.global_server_dc;
  double round = 0;
  for (std::size_t d = 0; d < t.dcs.size(); ++d) {
    const DcSpec& dc = t.dcs[d];
    if (dc.workers == 0) continue;
    const auto up = path(t, int(d), g), down = path(t, g, int(d)), lan = path(t, int(d), int(d));
    const double lan_ser = on_wire(model, seg) * 8 / (dc.lan.bandwidth_mbps * 1e6);
    const double lan_one = transfer_s(lan, model, seg) - lan_ser;  // latency and store-and-forward
    // Parameters down to the local server, then to its workers one after
    // another over its LAN link (in worker order); each starts its step on arrival.
    // The ack and, right behind it on the same path, the model (unasked).
    const double at_ls = transfer_s(down, small + model, seg);
    const double sending = at_ls + on_wire(small, seg) * 8 / (dc.lan.bandwidth_mbps * 1e6);
    std::vector<double> done;
    for (int w = 0; w < dc.workers; ++w) {
      if (dc.worker_gflops.empty()) throw std::invalid_argument("analytic model: worker_gflops only");
      done.push_back(sending + (w + 1) * lan_ser + lan_one + flops / (dc.worker_gflops[w] * 1e9));
    }
    // The gradients into the local server over its LAN link, first finished first served.
    std::sort(done.begin(), done.end());
    double link_free = 0;
    for (double f : done) link_free = std::max(link_free, f + lan_one) + lan_ser;
    // The aggregate up to the global server.
    round = std::max(round, link_free + transfer_s(up, model, seg));
  }
  return round;
}

}  // namespace geotrain::testing
