// The configuration of a real-mode deployment: which scenario, where every
// node listens, optional per-pair routes (the launcher points cross-DC pairs
// at its WAN-emulating relays), the shared secret, fault-handling settings.
// One JSON file, the same for every process (geotrain real --config FILE).
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/payload/message.h"

namespace geotrain::real {

struct Endpoint {
  std::string host = "127.0.0.1";
  std::uint16_t tcp_port = 0;
  std::uint16_t udp_port = 0;
  std::uint16_t tls_port = 0;  // TLS listener (0 = none); required on every node when TLS is on
};

// Which links are wrapped in TLS. Best-effort UDP datagrams are authenticated
// (HMAC) but never encrypted.
enum class TlsLinks { kOff, kWan, kAll };  // wan: links between nodes of different data centres

struct TlsSettings {
  TlsLinks links = TlsLinks::kOff;
  std::string cert_file, key_file;  // this node's certificate chain and private key (PEM), used when accepting
  std::string ca_file;              // the CA (PEM) every peer's certificate must chain to
};

const char* to_string(TlsLinks l);

struct RealConfig {
  std::string file;               // where this config was read from (for errors)
  std::string scenario;           // scenario file path
  std::vector<std::string> sets;  // --set assignments applied to it
  std::string secret_file;
  std::string out;                                       // output directory (node reports, checkpoints)
  std::vector<Endpoint> nodes;                           // listen endpoint by node id
  std::map<std::pair<NodeId, NodeId>, Endpoint> routes;  // (from, to) -> where `from` connects
  double heartbeat_s = 0.5;                              // liveness ping period
  // Log every message the node sends and receives (not in the file: `geotrain real` sets it from
  // GEOTRAIN_TRACE, the launcher passes its own environment on).
  bool trace_messages = false;
  double failure_timeout_s = 5;  // a worker silent this long is dropped from the round
  // The global server waits this long for every node to report READY. Then
  // missing workers are left out (they may still join late); a missing server
  // of any kind ends the job with an error naming it.
  double startup_timeout_s = 60;
  std::int64_t checkpoint_every = 0;  // global server checkpoints every N rounds (0 = never)
  std::uint64_t max_frame_bytes = std::uint64_t(1) << 30;
  TlsSettings tls;

  // The job's time zero (ns since the Unix epoch), written by the global server
  // when the job starts: a restarted server resumes on it, the launcher aligns
  // the WAN's bandwidth traces to it.
  std::string epoch_file() const { return out + "/epoch"; }
  // Where `from` connects to reach `to`.
  const Endpoint& route(NodeId from, NodeId to) const;
  nlohmann::json to_json() const;
};

// Reads and validates a config file; errors are ConfigError with JSON paths.
RealConfig load_real_config(const std::string& path);

}  // namespace geotrain::real
