// Kernel-shaped WAN for `geotrain launch --netns` (root only): every data
// centre gets its own network namespace, joined to the launcher's namespace by
// a veth pair; its nodes run inside it. Cross-DC traffic still goes through the
// launcher's relays (which keep the latency and datagram loss: netem is not
// available on these kernels), but the bandwidth of each DC-pair direction is
// enforced by the kernel: an htb class per destination DC on the sending DC's
// veth, matched by the relay address that stands for that destination.
//
// Addresses, with P the lab's subnet byte: DC d's nodes listen on 10.P.d.2;
// the launcher side of its veth is 10.P.d.1 and, per other DC e, 10.P.d.(100+e).
// A relay carrying e -> d listens on 10.P.e.(100+d) and connects to d's node
// from 10.P.d.(100+e), so each direction is shaped on the sender's veth.
// Everything is removed when the lab is destroyed (deleting a namespace
// deletes its veth pair and qdiscs).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace geotrain::real {

class NetnsLab {
 public:
  // Why a lab cannot be built here ("" = it can): not root, no ip/tc.
  static std::string unavailable_reason();

  // Builds a namespace per DC and shapes DC a -> b at mbps[a][b]; `log`
  // receives the commands' output. Throws std::runtime_error naming the
  // failing command (what was built so far is removed).
  NetnsLab(const std::vector<std::vector<double>>& mbps, std::string log);
  ~NetnsLab();
  NetnsLab(const NetnsLab&) = delete;
  NetnsLab& operator=(const NetnsLab&) = delete;

  const std::string& ns(int dc) const { return names_.at(std::size_t(dc)); }
  std::string node_host(int dc) const;
  std::string relay_listen(int from_dc, int to_dc) const;  // where DC from_dc reaches to_dc's relays
  std::string relay_source(int from_dc, int to_dc) const;  // the relay's address towards to_dc's nodes
  // Re-rates the kernel's class for from_dc -> to_dc (bandwidth traces).
  void set_bandwidth(int from_dc, int to_dc, double mbps);
  // Bytes the kernel has sent through each DC-pair class so far: [from][to].
  std::vector<std::vector<std::uint64_t>> shaped_bytes() const;
  static const std::string& ip_tool();  // "" when absent
  static const std::string& tc_tool();

 private:
  std::string veth_ns(int dc) const;
  void remove_stale_labs() const;
  void remove_namespaces() const;
  void run(const std::vector<std::string>& args) const;
  std::string capture(const std::vector<std::string>& args) const;
  int dcs_ = 0;
  int subnet_ = 0;
  std::string tag_, log_;
  std::vector<std::string> names_;
};

}  // namespace geotrain::real
