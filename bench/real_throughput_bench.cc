// Real-mode transport throughput between two processes on loopback:
//   BM_RawTcpPushPull       100 MB one way and 100 MB back over plain TCP sockets, the
//                           fastest way we found (1 MiB writes, 256 KiB reads)
//   BM_GeotrainPushPull/0   the same over geotrain's path: encode a Push message of a
//                           100 MB tensor, frame (CRC-32C), authenticated link, decode;
//                           the peer answers with a PullResponse of the same tensor
//   BM_GeotrainPushPull/1   the same with both links in TLS 1.3 (what --tls puts on WAN links)
//   BM_Iperf3SingleStream   iperf3 (when installed) on the same loopback, one stream,
//                           1 MiB writes, 2 s: the rate a single TCP stream reaches here
// Counter MBps = 200 MB / time (iperf3: bytes received / time). Targets: geotrain at
// least 70% of iperf3's single stream, TLS at least half of plain.
// Run all with their ratios: bench/real_throughput.py
#include <benchmark/benchmark.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/payload/wire.h"
#include "real/auth.h"
#include "real/inbound_link.h"
#include "real/io_sizes.h"
#include "real/outbound_link.h"
#include "real/tls.h"

namespace geotrain {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
constexpr std::size_t kBytes = 100'000'000;
const std::string kSecret = "benchmark-secret-0123456789";

std::uint16_t listen_port(tcp::acceptor& a) { return a.local_endpoint().port(); }

// The fastest plain-socket loop we measured on loopback: the sizes per call the
// links use (real/io_sizes.h; one call per 100 MB ran 20-25% slower).
void write_all(tcp::socket& s, const char* p, std::size_t n) {
  for (std::size_t done = 0; done < n;)
    done += s.write_some(asio::buffer(p + done, std::min(n - done, real::kWriteBytes)));
}
void read_all(tcp::socket& s, char* p, std::size_t n) {
  for (std::size_t done = 0; done < n;)
    done += s.read_some(asio::buffer(p + done, std::min(n - done, real::kReadBytes)));
}

void BM_RawTcpPushPull(benchmark::State& state) {
  asio::io_context io;
  tcp::acceptor acc(io, {asio::ip::make_address("127.0.0.1"), 0});
  const auto port = listen_port(acc);
  const pid_t child = fork();
  if (child == 0) {  // echo peer
    asio::io_context cio;
    tcp::socket s(cio);
    s.connect({asio::ip::make_address("127.0.0.1"), port});
    s.set_option(tcp::no_delay(true));
    std::vector<char> buf(kBytes);
    try {
      for (;;) {
        read_all(s, buf.data(), kBytes);
        write_all(s, buf.data(), kBytes);
      }
    } catch (const boost::system::system_error&) {  // the parent hung up
    }
    _exit(0);
  }
  tcp::socket s = acc.accept();
  s.set_option(tcp::no_delay(true));
  std::vector<char> out(kBytes, 1), in(kBytes);
  write_all(s, out.data(), kBytes);  // warm-up round trip, untimed: steady state is what a training job sees
  read_all(s, in.data(), kBytes);
  for (auto _ : state) {
    write_all(s, out.data(), kBytes);
    read_all(s, in.data(), kBytes);
  }
  s.close();
  waitpid(child, nullptr, 0);
  state.counters["MBps"] =
      benchmark::Counter(2.0 * kBytes / 1e6 * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RawTcpPushPull)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

// Runs a shell command, returning what it printed.
std::string output_of(const std::string& cmd) {
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
    pclose(f);
  }
  return out;
}

void BM_Iperf3SingleStream(benchmark::State& state) {
  if (output_of("command -v iperf3").empty())
    return state.SkipWithError("iperf3 is not installed (apt install iperf3)");
  asio::io_context tmp;
  tcp::acceptor probe(tmp, {asio::ip::make_address("127.0.0.1"), 0});
  const std::string port = std::to_string(listen_port(probe));
  probe.close();
  double bytes = 0, seconds = 0;
  for (auto _ : state) {
    const std::string server = "iperf3 -s -1 -p " + port + " >/dev/null 2>&1 & ";
    const std::string client = "sleep 0.3; iperf3 -J -c 127.0.0.1 -p " + port + " -l 1M -t 2; wait";
    const auto j = nlohmann::json::parse(output_of(server + client), nullptr, false);
    if (j.is_discarded() || !j.contains("end")) return state.SkipWithError("iperf3 printed no result");
    bytes += j["end"]["sum_received"]["bytes"].get<double>();
    seconds += j["end"]["sum_received"]["seconds"].get<double>();
  }
  state.counters["MBps"] = bytes / 1e6 / seconds;
}
BENCHMARK(BM_Iperf3SingleStream)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

Message tensor_message(MsgKind kind, NodeId from, NodeId to) {
  auto p = std::make_shared<Payload>();
  p->blocks.push_back({0, Eigen::VectorXf::Constant(kBytes / 4, 0.5f)});
  p->contributors = 1;
  return make_message(kind, from, to, 0, p);
}

// Listens on a fresh port; on each authenticated Message frame, calls on_msg.
struct Endpoint {
  Endpoint(std::uint16_t port, asio::ssl::context* tls_server)
      : acc(io, {asio::ip::make_address("127.0.0.1"), port}), tls(tls_server) {}
  asio::io_context io;
  tcp::acceptor acc;
  asio::ssl::context* tls;
  std::vector<std::shared_ptr<real::InboundLink>> links;
  std::function<void(Message&&)> on_msg;
  void accept() {
    acc.async_accept([this](const boost::system::error_code& e, tcp::socket s) {
      if (e) return;
      auto l = std::make_shared<real::InboundLink>(
          std::move(s), tls, kSecret, 2, std::size_t(1) << 30, [](std::int32_t, bool) { return std::string(); },
          [this](std::int32_t, real::Frame&& f) { on_msg(std::move(f.message)); },
          [](real::InboundLink*, const std::string&) {});
      links.push_back(l);
      l->start();
      accept();
    });
  }
};

std::uint16_t free_port() {
  asio::io_context tmp;
  tcp::acceptor probe(tmp, {asio::ip::make_address("127.0.0.1"), 0});
  return listen_port(probe);
}

void BM_GeotrainPushPull(benchmark::State& state) {
  const bool use_tls = state.range(0) == 1;
  std::unique_ptr<asio::ssl::context> tls_server, tls_client;
  if (use_tls) {
    real::TlsSettings t;
    t.cert_file = t.ca_file = "/tmp/geotrain-bench-cert.pem";
    t.key_file = "/tmp/geotrain-bench-key.pem";
    real::write_self_signed_certificate(t.cert_file, t.key_file);
    tls_server = real::tls_server_context(t);
    tls_client = real::tls_client_context(t);
  }
  // Each side listens on a port chosen before the fork, and connects to the other's.
  const std::uint16_t parent_port = free_port(), child_port = free_port();
  const pid_t child = fork();
  if (child == 0) {  // server: answers each push with a pull response of the same tensor
    Endpoint me(child_port, tls_server.get());
    real::Endpoint to;
    to.tcp_port = to.tls_port = parent_port;
    auto out = std::make_shared<real::OutboundLink>(
        me.io, 1, kSecret, to, tls_client.get(), [](std::size_t) {}, [](const std::string&) { _exit(0); });
    me.on_msg = [&](Message&& m) {
      Message reply = make_message(MsgKind::kPullResponse, 1, 0, m.round, m.payload);
      out->send(real::FrameType::kMessage, std::make_shared<const ByteSpans>(encode_message_spans(reply)), 0);
    };
    me.accept();
    me.io.run();
    _exit(0);
  }
  Endpoint parent(parent_port, tls_server.get());
  real::Endpoint to;
  to.tcp_port = to.tls_port = child_port;
  auto out = std::make_shared<real::OutboundLink>(
      parent.io, 0, kSecret, to, tls_client.get(), [](std::size_t) {}, [](const std::string&) {});
  bool got = false;
  parent.on_msg = [&](Message&&) { got = true; };
  parent.accept();
  const Message push = tensor_message(MsgKind::kPush, 0, 1);
  const auto push_pull = [&] {
    got = false;
    out->send(real::FrameType::kMessage, std::make_shared<const ByteSpans>(encode_message_spans(push)), 0);
    while (!got) parent.io.run_one();
  };
  push_pull();  // warm-up round trip, untimed (connects, authenticates, maps the buffers)
  for (auto _ : state) push_pull();
  out->close();
  kill(child, SIGTERM);
  waitpid(child, nullptr, 0);
  state.counters["MBps"] =
      benchmark::Counter(2.0 * kBytes / 1e6 * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GeotrainPushPull)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

}  // namespace
}  // namespace geotrain
