// The accepting side of one real-mode TCP link (a peer -> this node): on a TLS
// listener it first completes the TLS handshake; then it sends a nonce, checks
// the peer's proof of the shared secret, asks the node whether that peer may
// use this kind of link (a WAN peer may be required to use TLS), proves the
// secret back, and decodes frames for the node. A peer that fails any of
// this, or sends a malformed or oversize frame, is logged and disconnected;
// nothing it sent reaches the node. Until the peer has authenticated, frames
// are limited to kPreAuthMaxFrameBytes, so an unauthenticated peer can make the
// node hold no more than a few hundred bytes; afterwards to `max_frame`.
#pragma once
#include <boost/asio.hpp>
#include <functional>
#include <memory>
#include <string>

#include "real/auth.h"
#include "real/frame.h"
#include "real/link_stream.h"

namespace geotrain::real {

class InboundLink : public std::enable_shared_from_this<InboundLink> {
 public:
  using OnFrame = std::function<void(std::int32_t peer, Frame&&)>;
  using OnClosed = std::function<void(InboundLink*, const std::string& why)>;
  // Returns why `peer` may not use this link ("" = admitted); `tls` says whether it is a TLS link.
  using Admit = std::function<std::string(std::int32_t peer, bool tls)>;
  // `tls` (not owned; outlives the link) makes this the server side of a TLS link; nullptr = plain TCP.
  InboundLink(boost::asio::ip::tcp::socket sock, boost::asio::ssl::context* tls, std::string secret, int nodes,
              std::size_t max_frame, Admit admit, OnFrame on_frame, OnClosed on_closed);
  void start();
  void close(const std::string& why);
  std::int32_t peer() const { return peer_; }
  bool authenticated() const { return peer_ >= 0; }
  // Set (before the close callback) when the authenticated peer broke the job's
  // own limits, which no retry can fix: what it sent and the limit.
  const std::string& fatal() const { return fatal_; }

 private:
  void read();
  void on_frame(Frame&& f);
  void refuse(const std::string& why);

  std::shared_ptr<LinkStream> stream_;
  boost::asio::steady_timer auth_deadline_;  // unauthenticated peers get 5 s (TLS handshake included)
  std::string secret_;
  int nodes_;
  Admit admit_;
  OnFrame on_frame_;
  OnClosed on_closed_;
  std::size_t max_frame_;
  FrameDecoder decoder_;
  Bytes nonce_;
  std::int32_t peer_ = -1;  // known once authenticated
  bool closed_ = false;
  std::string fatal_;
};

}  // namespace geotrain::real
