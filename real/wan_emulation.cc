#include "real/wan_emulation.h"

#include <algorithm>
#include <queue>

namespace geotrain::real {

namespace asio = boost::asio;

WanEmulation::WanEmulation(asio::io_context& io, const Topology& t, const Deployment& dep, std::uint64_t seed,
                           Clock::time_point t0, NetnsLab* lab, RealConfig& cfg)
    : io_(io), lab_(lab) {
  const int dcs = int(t.dcs.size());
  auto link = [&](int a, int b) {
    auto& l = links_[{a, b}];
    if (!l) l = std::make_shared<EmulatedLink>(wan_path(t, a, b), t0, seed * 1000 + std::uint64_t(a * 64 + b), !lab);
    return l;
  };
  const bool tls = cfg.tls.links != TlsLinks::kOff;
  for (const auto& dst : dep.nodes) {
    for (int a = 0; a < dcs; ++a) {
      if (a == dst.dc) continue;
      RelayAddresses addr;
      if (lab) addr = {lab->relay_listen(a, dst.dc), lab->relay_source(a, dst.dc)};
      const Endpoint& e = cfg.nodes[std::size_t(dst.id)];
      // Every relayed (cross-DC) link is a TLS link when TLS is on, at either setting.
      const std::uint16_t port = tls ? e.tls_port : e.tcp_port;
      relays_.push_back(std::make_unique<WanRelay>(io, asio::ip::tcp::endpoint(asio::ip::make_address(e.host), port),
                                                   asio::ip::udp::endpoint(asio::ip::make_address(e.host), e.udp_port),
                                                   link(a, dst.dc), link(dst.dc, a), addr));
      Endpoint via;
      via.host = addr.listen;
      via.tcp_port = relays_.back()->tcp_port();
      if (tls) via.tls_port = via.tcp_port;
      via.udp_port = relays_.back()->udp_port();
      for (const auto& src : dep.nodes)
        if (src.dc == a) cfg.routes[{src.id, dst.id}] = via;
    }
  }
  if (lab)
    for (int a = 0; a < dcs; ++a)
      for (int b = 0; b < dcs; ++b)
        if (a != b)
          if (auto trace = wan_path(t, a, b).trace; !trace.empty()) followers_.push_back({a, b, std::move(trace)});
}

void WanEmulation::set_job_start(Clock::time_point start) {
  job_start_ = start;
  asio::post(io_, [this, start] {
    for (auto& [pair, l] : links_) l->set_origin(start);
  });
}

void WanEmulation::follow_traces(Clock::time_point now) {
  if (!job_start_) return;
  const double t = std::chrono::duration<double>(now - *job_start_).count();
  for (auto& f : followers_)
    for (; f.next < f.points.size() && f.points[f.next].t_s <= t; ++f.next)
      lab_->set_bandwidth(f.from, f.to, f.points[f.next].bandwidth_mbps);
}

}  // namespace geotrain::real
