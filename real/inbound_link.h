// The accepting side of one real-mode TCP link (a peer -> this node): sends a
// nonce, checks the peer's proof of the shared secret, proves it back, then
// decodes frames and hands them to the node. A peer that fails to
// authenticate, or sends a malformed or oversize frame, is logged and
// disconnected; nothing it sent reaches the node.
#pragma once
#include <boost/asio.hpp>
#include <functional>
#include <memory>
#include <string>

#include "real/auth.h"
#include "real/frame.h"

namespace geotrain::real {

class InboundLink : public std::enable_shared_from_this<InboundLink> {
 public:
  using OnFrame = std::function<void(std::int32_t peer, Frame&&)>;
  using OnClosed = std::function<void(InboundLink*, const std::string& why)>;
  InboundLink(boost::asio::ip::tcp::socket sock, std::string secret, int nodes, std::size_t max_frame, OnFrame on_frame,
              OnClosed on_closed);
  void start();
  void close(const std::string& why);
  std::int32_t peer() const { return peer_; }

 private:
  void read();
  void on_frame(Frame&& f);

  boost::asio::ip::tcp::socket sock_;
  boost::asio::steady_timer auth_deadline_;  // unauthenticated peers get 5 s
  std::string secret_;
  int nodes_;
  OnFrame on_frame_;
  OnClosed on_closed_;
  FrameDecoder decoder_;
  Bytes nonce_;
  std::int32_t peer_ = -1;  // known once authenticated
  bool closed_ = false;
};

}  // namespace geotrain::real
