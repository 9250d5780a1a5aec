#include "real/netns.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "real/process.h"

namespace geotrain::real {

namespace {

std::string find_tool(const std::string& name) {
  for (const char* dir : {"/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"})
    if (::access((dir + name).c_str(), X_OK) == 0) return dir + name;
  return "";
}

// Held while a lab picks its subnet and builds its links.
class BuildLock {
 public:
  BuildLock() : fd_(::open("/tmp/geotrain-netns.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0600)) {
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~BuildLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }
  BuildLock(const BuildLock&) = delete;
  BuildLock& operator=(const BuildLock&) = delete;

 private:
  int fd_;
};

std::string rate(double mbps) { return std::to_string(std::int64_t(mbps * 1000)) + "kbit"; }

// htb class of the DC-pair direction towards `to` (tc reads the minor as hex;
// decimal digits print back unchanged).
std::string class_id(int to) { return "1:" + std::to_string(100 + to); }

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

const std::string& NetnsLab::ip_tool() {
  static const std::string path = find_tool("ip");
  return path;
}

const std::string& NetnsLab::tc_tool() {
  static const std::string path = find_tool("tc");
  return path;
}

std::string NetnsLab::unavailable_reason() {
  if (::geteuid() != 0) return "needs root (network namespaces, veth pairs and tc qdiscs)";
  if (ip_tool().empty() || tc_tool().empty()) return "needs iproute2 (ip and tc)";
  return "";
}

NetnsLab::NetnsLab(const std::vector<std::vector<double>>& mbps, std::string log)
    : dcs_(int(mbps.size())), tag_("gt" + std::to_string(::getpid())), log_(std::move(log)) {
  if (const std::string why = unavailable_reason(); !why.empty()) throw std::runtime_error("--netns " + why);
  // Concurrent launches pick their subnets one at a time, each seeing the others' addresses.
  const BuildLock lock;
  remove_stale_labs();
  // A subnet no interface of this machine uses yet.
  const std::string addrs = capture({ip_tool(), "-o", "addr", "show"});
  subnet_ = 200 + int(::getpid() % 50);
  for (int tries = 0; addrs.find(" 10." + std::to_string(subnet_) + ".") != std::string::npos; ++tries) {
    if (tries == 50) throw std::runtime_error("--netns: no free 10.x subnet between 10.200 and 10.249");
    subnet_ = 200 + (subnet_ - 199) % 50;
  }
  try {
    for (int d = 0; d < dcs_; ++d) {
      names_.push_back(tag_ + "-" + std::to_string(d));
      const std::string& n = names_.back();
      const std::string vh = tag_ + "h" + std::to_string(d), vn = veth_ns(d);
      const std::string net = "10." + std::to_string(subnet_) + "." + std::to_string(d) + ".";
      run({ip_tool(), "netns", "add", n});
      run({ip_tool(), "link", "add", vh, "type", "veth", "peer", "name", vn, "netns", n});
      run({ip_tool(), "addr", "add", net + "1/24", "dev", vh});
      for (int e = 0; e < dcs_; ++e)
        if (e != d) run({ip_tool(), "addr", "add", net + std::to_string(100 + e) + "/24", "dev", vh});
      run({ip_tool(), "link", "set", vh, "up"});
      run({ip_tool(), "-n", n, "link", "set", "lo", "up"});
      run({ip_tool(), "-n", n, "addr", "add", net + "2/24", "dev", vn});
      // MTU-sized packets: TCP's 64 KB GSO bursts would pass htb in one go (and leave a debt), so small
      // messages would cross a slow WAN at line rate.
      run({ip_tool(), "-n", n, "link", "set", "dev", vn, "gso_max_size", "1500", "gso_max_segs", "1"});
      run({ip_tool(), "-n", n, "link", "set", vn, "up"});
      const std::string& tc = tc_tool();
      run({tc, "-n", n, "qdisc", "add", "dev", vn, "root", "handle", "1:", "htb", "default", "999"});
      run({tc, "-n", n, "class", "add", "dev", vn, "parent", "1:", "classid", "1:999", "htb", "rate", "100gbit"});
      for (int e = 0; e < dcs_; ++e) {
        if (e == d) continue;
        run({tc, "-n", n, "class", "add", "dev", vn, "parent", "1:", "classid", class_id(e), "htb", "rate",
             rate(mbps[d][e]), "ceil", rate(mbps[d][e])});
        run({tc,         "-n",       n,      "filter", "add", "dev",   vn,   "parent", "1:",
             "protocol", "ip",       "prio", "1",      "u32", "match", "ip", "dst",    relay_listen(d, e) + "/32",
             "flowid",   class_id(e)});
      }
    }
  } catch (...) {
    remove_namespaces();
    throw;
  }
}

void NetnsLab::remove_stale_labs() const {
  // "gt<pid>-<dc>" namespaces of a launcher that no longer runs (killed with SIGKILL, say).
  std::istringstream list(capture({ip_tool(), "netns", "list"}));
  for (std::string line; std::getline(list, line);) {
    const std::string name = line.substr(0, line.find(' '));
    const auto dash = name.find('-');
    if (name.rfind("gt", 0) != 0 || dash == std::string::npos || dash < 3) continue;
    const std::string pid = name.substr(2, dash - 2);
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (!std::filesystem::exists("/proc/" + pid)) {
      std::ofstream(log_, std::ios::app) << "removing stale namespace " << name << "\n";
      run_process(ip_tool(), {"netns", "del", name}, log_);
    }
  }
}

NetnsLab::~NetnsLab() { remove_namespaces(); }

void NetnsLab::remove_namespaces() const {
  // Deleting a namespace deletes its end of the veth pair, hence the pair, and the qdiscs on it.
  for (const auto& n : names_) run_process(ip_tool(), {"netns", "del", n}, log_);
}

std::string NetnsLab::veth_ns(int dc) const { return tag_ + "n" + std::to_string(dc); }

std::string NetnsLab::node_host(int dc) const {
  return "10." + std::to_string(subnet_) + "." + std::to_string(dc) + ".2";
}

std::string NetnsLab::relay_listen(int from_dc, int to_dc) const {
  return "10." + std::to_string(subnet_) + "." + std::to_string(from_dc) + "." + std::to_string(100 + to_dc);
}

std::string NetnsLab::relay_source(int from_dc, int to_dc) const { return relay_listen(to_dc, from_dc); }

void NetnsLab::set_bandwidth(int from_dc, int to_dc, double mbps) {
  run({tc_tool(), "-n", ns(from_dc), "class", "change", "dev", veth_ns(from_dc), "parent", "1:", "classid",
       class_id(to_dc), "htb", "rate", rate(mbps), "ceil", rate(mbps)});
}

std::vector<std::vector<std::uint64_t>> NetnsLab::shaped_bytes() const {
  std::vector<std::vector<std::uint64_t>> out(std::size_t(dcs_), std::vector<std::uint64_t>(std::size_t(dcs_), 0));
  for (int d = 0; d < dcs_; ++d) {
    const std::string text = capture({tc_tool(), "-n", ns(d), "-s", "class", "show", "dev", veth_ns(d)});
    for (int e = 0; e < dcs_; ++e) {
      if (e == d) continue;
      // "class htb 1:101 root ... rate 100Mbit ...\n Sent 123 bytes 4 pkt ..."
      const auto at = text.find("class htb " + class_id(e) + " ");
      if (at == std::string::npos) continue;
      const auto sent = text.find("Sent ", at);
      if (sent != std::string::npos) out[std::size_t(d)][std::size_t(e)] = std::stoull(text.substr(sent + 5));
    }
  }
  return out;
}

void NetnsLab::run(const std::vector<std::string>& args) const {
  std::string cmd;
  for (const auto& a : args) cmd += (cmd.empty() ? "" : " ") + a;
  { std::ofstream(log_, std::ios::app) << "+ " << cmd << "\n"; }
  if (run_process(args.at(0), {args.begin() + 1, args.end()}, log_) != 0)
    throw std::runtime_error("--netns: `" + cmd + "` failed; see " + log_);
}

std::string NetnsLab::capture(const std::vector<std::string>& args) const {
  const std::string tmp = log_ + ".capture";
  std::filesystem::remove(tmp);
  run_process(args.at(0), {args.begin() + 1, args.end()}, tmp);
  std::string text = slurp(tmp);
  std::filesystem::remove(tmp);
  return text;
}

}  // namespace geotrain::real
