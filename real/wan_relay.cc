#include "real/wan_relay.h"

namespace geotrain::real {

namespace asio = boost::asio;
using asio::ip::tcp;
using asio::ip::udp;
using Clock = std::chrono::steady_clock;

EmulatedLink::EmulatedLink(const LinkSpec& spec, Clock::time_point t0, std::uint64_t seed, bool pace)
    : spec_(spec), pace_(pace), t0_(t0), free_at_(t0), rng_(seed) {}

double EmulatedLink::bandwidth_bps(double t_s) const {
  double bw = spec_.bandwidth_mbps;
  for (const auto& p : spec_.trace)
    if (p.t_s <= t_s) bw = p.bandwidth_mbps;
  return bw * 1e6;
}

Clock::time_point EmulatedLink::arrival(std::size_t bytes) {
  const auto now = Clock::now();
  const double t = std::chrono::duration<double>(now - t0_).count();
  const auto start = std::max(now, free_at_);
  free_at_ = pace_ ? start + std::chrono::nanoseconds(std::int64_t(double(bytes) * 8 / bandwidth_bps(t) * 1e9)) : start;
  return free_at_ + std::chrono::nanoseconds(std::int64_t(spec_.latency_ms * 1e6));
}

bool EmulatedLink::drop() { return spec_.loss > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < spec_.loss; }

namespace {

// One direction of one relayed TCP connection: read as fast as the source
// sends, release each chunk at its emulated arrival time, in order.
class Pipe : public std::enable_shared_from_this<Pipe> {
 public:
  Pipe(std::shared_ptr<tcp::socket> from, std::shared_ptr<tcp::socket> to, std::shared_ptr<EmulatedLink> link,
       asio::io_context& io)
      : from_(std::move(from)), to_(std::move(to)), link_(std::move(link)), timer_(io) {}
  void start() { read(); }

 private:
  struct Chunk {
    Clock::time_point due;
    std::vector<std::uint8_t> bytes;
  };
  void read() {
    auto self = shared_from_this();
    from_->async_read_some(asio::buffer(buf_), [this, self](const boost::system::error_code& e, std::size_t n) {
      if (e) {
        eof_ = true;
        if (chunks_.empty() && !writing_) shutdown();
        return;
      }
      chunks_.push_back({link_->arrival(n), std::vector<std::uint8_t>(buf_.begin(), buf_.begin() + long(n))});
      if (chunks_.size() == 1 && !writing_) wait();
      read();
    });
  }
  void wait() {
    auto self = shared_from_this();
    timer_.expires_at(chunks_.front().due);
    timer_.async_wait([this, self](const boost::system::error_code& e) {
      if (e) return;
      writing_ = true;
      asio::async_write(*to_, asio::buffer(chunks_.front().bytes),
                        [this, self](const boost::system::error_code& we, std::size_t) {
                          writing_ = false;
                          chunks_.pop_front();
                          if (we) return shutdown();
                          if (!chunks_.empty())
                            wait();
                          else if (eof_)
                            shutdown();
                        });
    });
  }
  void shutdown() {
    boost::system::error_code ec;
    to_->shutdown(tcp::socket::shutdown_send, ec);
  }
  std::shared_ptr<tcp::socket> from_, to_;
  std::shared_ptr<EmulatedLink> link_;
  asio::steady_timer timer_;
  std::array<std::uint8_t, 65536> buf_;
  std::deque<Chunk> chunks_;
  bool writing_ = false, eof_ = false;
};

}  // namespace

WanRelay::WanRelay(asio::io_context& io, tcp::endpoint target_tcp, udp::endpoint target_udp,
                   std::shared_ptr<EmulatedLink> forward, std::shared_ptr<EmulatedLink> backward,
                   const RelayAddresses& addr)
    : io_(io),
      acceptor_(io, tcp::endpoint(asio::ip::make_address(addr.listen), 0)),
      udp_(io, udp::endpoint(asio::ip::make_address(addr.listen), 0)),
      udp_out_(io, udp::endpoint(asio::ip::make_address(addr.source.empty() ? addr.listen : addr.source), 0)),
      source_(addr.source),
      target_tcp_(target_tcp),
      target_udp_(target_udp),
      fwd_(std::move(forward)),
      back_(std::move(backward)) {
  accept();
  receive_datagram();
}

void WanRelay::accept() {
  acceptor_.async_accept([this](const boost::system::error_code& e, tcp::socket s) {
    if (e) return;
    auto client = std::make_shared<tcp::socket>(std::move(s));
    auto server = std::make_shared<tcp::socket>(io_);
    if (!source_.empty()) {  // connect from the address that stands for the source DC (--netns shaping)
      boost::system::error_code be;
      server->open(tcp::v4(), be);
      server->bind(tcp::endpoint(asio::ip::make_address(source_), 0), be);
      if (be) {
        boost::system::error_code ignored;
        client->close(ignored);
        return accept();
      }
    }
    server->async_connect(target_tcp_, [this, client, server](const boost::system::error_code& ce) {
      if (ce) {
        boost::system::error_code ignored;
        client->close(ignored);
        return;
      }
      client->set_option(tcp::no_delay(true));
      server->set_option(tcp::no_delay(true));
      std::make_shared<Pipe>(client, server, fwd_, io_)->start();
      std::make_shared<Pipe>(server, client, back_, io_)->start();
    });
    accept();
  });
}

void WanRelay::receive_datagram() {
  udp_.async_receive_from(asio::buffer(udp_buf_), udp_from_, [this](const boost::system::error_code& e, std::size_t n) {
    if (e) return;
    if (!fwd_->drop()) {
      auto d = std::make_shared<std::vector<std::uint8_t>>(udp_buf_.begin(), udp_buf_.begin() + long(n));
      auto t = std::make_shared<asio::steady_timer>(io_, fwd_->arrival(n));
      t->async_wait([this, d, t](const boost::system::error_code& we) {
        if (!we)
          udp_out_.async_send_to(asio::buffer(*d), target_udp_, [d](const boost::system::error_code&, std::size_t) {});
      });
    }
    receive_datagram();
  });
}

}  // namespace geotrain::real
