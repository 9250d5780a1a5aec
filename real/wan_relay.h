// User-space WAN emulation for `geotrain launch`: a relay in front of one node,
// for the traffic coming from one other data centre. Bytes crossing it are
// paced by an EmulatedLink shared by every relay of that DC-pair direction
// (so senders in one DC share its WAN bandwidth) and delayed by the link's
// latency; UDP datagrams are also dropped with the link's loss probability.
// TCP loss is not emulated (the relay's own sockets are lossless loopback).
#pragma once
#include <boost/asio.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/topology/topology.h"

namespace geotrain::real {

// One direction of a WAN link: a serialising queue plus propagation delay.
class EmulatedLink {
 public:
  // `pace` = false: latency and loss only (the kernel shapes the bandwidth, --netns).
  EmulatedLink(const LinkSpec& spec, std::chrono::steady_clock::time_point t0, std::uint64_t seed, bool pace = true);
  // When `bytes` handed over now arrive at the far end.
  std::chrono::steady_clock::time_point arrival(std::size_t bytes);
  bool drop();  // loss draw for one datagram
  // Bandwidth traces count from `t0` (the job's start, once known).
  void set_origin(std::chrono::steady_clock::time_point t0) { t0_ = t0; }

 private:
  double bandwidth_bps(double t_s) const;
  LinkSpec spec_;
  bool pace_;
  std::chrono::steady_clock::time_point t0_, free_at_;
  std::mt19937_64 rng_;
};

// Where a relay listens and which local address it connects from.
struct RelayAddresses {
  std::string listen = "127.0.0.1";
  std::string source;  // "" = any (the kernel picks)
};

class WanRelay {
 public:
  // Listens on addr.listen (ephemeral TCP and UDP ports) and forwards to `target` from addr.source.
  WanRelay(boost::asio::io_context& io, boost::asio::ip::tcp::endpoint target_tcp,
           boost::asio::ip::udp::endpoint target_udp, std::shared_ptr<EmulatedLink> forward,
           std::shared_ptr<EmulatedLink> backward, const RelayAddresses& addr = {});
  std::uint16_t tcp_port() const { return acceptor_.local_endpoint().port(); }
  std::uint16_t udp_port() const { return udp_.local_endpoint().port(); }

 private:
  void accept();
  void receive_datagram();
  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::ip::udp::socket udp_, udp_out_;  // udp_out_ sends from addr.source
  std::string source_;
  boost::asio::ip::tcp::endpoint target_tcp_;
  boost::asio::ip::udp::endpoint target_udp_, udp_from_;
  std::shared_ptr<EmulatedLink> fwd_, back_;
  std::vector<std::uint8_t> udp_buf_ = std::vector<std::uint8_t>(65536);
};

}  // namespace geotrain::real
