// Listening ports for the nodes of one launch (or one test's deployment) on
// this machine. A port is free now for both TCP and UDP, drawn from below the
// kernel's ephemeral range (32768+) so no relay or outgoing connection takes
// it, and reserved against every other picker on this machine until this
// picker is destroyed: two launches started together (ctest -j2) probe before
// either's nodes bind, and without the reservation both could choose one port.
// The reservation is an open-file-description lock on one byte per port of
// ${TMPDIR:-/tmp}/geotrain-port-reservations, released by the kernel when the
// picker's process ends however it ends.
#pragma once
#include <cstdint>
#include <random>
#include <set>

namespace geotrain::real {

class PortPicker {
 public:
  explicit PortPicker(std::uint32_t seed);
  ~PortPicker();
  PortPicker(const PortPicker&) = delete;
  PortPicker& operator=(const PortPicker&) = delete;

  // A port no other picker holds and this one has not returned before.
  // Throws std::runtime_error when none of 1000 draws from 20000-32000 is free.
  std::uint16_t pick();

 private:
  bool reserve(std::uint16_t port);  // false: another picker holds it
  std::mt19937 rng_;
  int fd_ = -1;  // the reservations file; -1 if it cannot be opened (probing alone then)
  std::set<std::uint16_t> taken_;
};

}  // namespace geotrain::real
