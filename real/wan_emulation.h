// The WAN that `geotrain launch` puts between data centres on one machine: a
// WanRelay in front of every node for each other DC (the relays of one
// DC-pair direction share one EmulatedLink, so they share its bandwidth), the
// routes that send cross-DC traffic through them, and, with a NetnsLab, the
// kernel's htb rates following the topology's bandwidth traces. Relays run on
// the io_context the caller runs (the launcher's relay thread).
#pragma once
#include <boost/asio.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "core/topology/deployment.h"
#include "core/topology/topology.h"
#include "real/netns.h"
#include "real/real_config.h"
#include "real/wan_relay.h"

namespace geotrain::real {

class WanEmulation {
 public:
  using Clock = std::chrono::steady_clock;
  // Starts the relays and points every cross-DC pair of `cfg` at them (its
  // nodes must be filled in). Relays connect to TLS ports when cfg.tls is on;
  // with a lab (not owned; outlives this) they listen on its addresses and only
  // delay, the kernel shapes. Traces count from t0 until set_job_start().
  WanEmulation(boost::asio::io_context& io, const Topology& t, const Deployment& dep, std::uint64_t seed,
               Clock::time_point t0, NetnsLab* lab, RealConfig& cfg);

  // The job started at `start`: bandwidth traces count from there, as in the
  // simulation. Call from any thread (the relays pick it up on theirs).
  void set_job_start(Clock::time_point start);
  // With a lab: applies the trace points now due to the kernel's classes.
  void follow_traces(Clock::time_point now);

 private:
  struct TraceFollower {
    int from, to;
    std::vector<BandwidthPoint> points;
    std::size_t next = 0;
  };
  boost::asio::io_context& io_;
  NetnsLab* lab_;
  std::map<std::pair<int, int>, std::shared_ptr<EmulatedLink>> links_;  // per DC-pair direction
  std::vector<std::unique_ptr<WanRelay>> relays_;
  std::vector<TraceFollower> followers_;
  std::optional<Clock::time_point> job_start_;
};

}  // namespace geotrain::real
