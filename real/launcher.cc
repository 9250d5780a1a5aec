#include "real/launcher.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "core/base/atomic_file.h"
#include "core/config/scenario.h"
#include "core/job/job.h"
#include "core/job/memory_estimate.h"
#include "core/job/role_stats.h"
#include "core/json/json_reader.h"
#include "core/topology/deployment.h"
#include "real/auth.h"
#include "real/fault_plan.h"
#include "real/frame_limits.h"
#include "real/netns.h"
#include "real/port_picker.h"
#include "real/process.h"
#include "real/real_config.h"
#include "real/real_node.h"
#include "real/stop_signals.h"
#include "real/tls.h"
#include "real/wan_emulation.h"

namespace geotrain::real {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::int64_t unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

RunResult merge_node_reports(const std::string& scenario, const std::vector<std::string>& sets, const std::string& out,
                             const std::vector<LauncherEvent>& events, std::int64_t launch_unix_ns) {
  const Scenario sc = load_scenario(scenario, sets);
  const Deployment dep = plan_deployment(sc);
  RunResult r;
  r.runtime = "real";
  r.scenario_name = sc.name;
  r.architecture = sc.architecture;
  r.policy = sc.policy;
  describe_learner(sc, &r);
  r.scenario = sc.resolved;
  std::vector<RoleReport> roles(dep.nodes.size());  // null where a node's report is lost
  std::uint64_t too_slow = 0, rejected = 0, tls_links = 0;
  double overrun = 0;
  std::int64_t epoch_ns = 0, worker_round = 0;
  if (std::ifstream ef{out + "/epoch"}) ef >> epoch_ns;  // the job's start, as the global server wrote it
  const bool started = epoch_ns != 0;
  if (!started) epoch_ns = launch_unix_ns;  // the job never started: the launch is time zero
  // Events on the run's clock: a node that never got GO timed its events from its own start.
  const auto on_run_clock = [&](double t, std::int64_t clock_ns, const std::string& event, const std::string& node) {
    if (epoch_ns != 0 && clock_ns != 0) t += double(clock_ns - epoch_ns) * 1e-9;
    return FaultEvent{std::max(0.0, t), node, (t < 0 ? "before the job started: " : "") + event};
  };
  std::vector<std::string> lost_names;
  bool have_gs = false;
  for (const auto& n : dep.nodes) {
    const std::string path = out + "/nodes/" + std::to_string(n.id) + ".json";
    if (!fs::exists(path)) {
      lost_names.push_back(n.name);
      continue;
    }
    const nlohmann::json j = load_json_file(path);
    const std::int64_t node_clock = j.value("epoch_unix_ns", std::int64_t{0});
    for (const auto& e : j["events"]) r.faults.push_back(on_run_clock(e["time_s"], node_clock, e["event"], n.name));
    r.bytes.wan_bytes += j["sent"]["wan"].get<std::uint64_t>();
    r.bytes.lan_bytes += j["sent"]["lan"].get<std::uint64_t>();
    too_slow += j["steps_too_slow"].get<std::uint64_t>();
    overrun += j["overrun_s"].get<double>();
    tls_links += j.value("tls_links", std::uint64_t{0});
    rejected += j["rejected_links"].get<std::uint64_t>() + j["rejected_datagrams"].get<std::uint64_t>();
    roles[std::size_t(n.id)] = {j, j["run_time_s"].get<double>()};
    if (n.role == Role::kWorker) {
      worker_round = std::max(worker_round, j.value("round", std::int64_t{0}));
      r.sim_time_s = std::max(r.sim_time_s, j["run_time_s"].get<double>());
    }
    if (n.id == dep.global_server) {
      have_gs = true;
      r.sim_time_s = j["run_time_s"];
      // A job that never started: the global server timed its run from its own start, not the launch's.
      if (!started && node_clock != 0) r.sim_time_s += std::max(0.0, double(node_clock - epoch_ns) * 1e-9);
      r.error = j.value("error", std::string());
      if (!j["time_to_target_s"].is_null()) r.time_to_target_s = j["time_to_target_s"].get<double>();
      for (const auto& t : j["timeline"]) r.timeline.push_back(timeline_row_from_json(t));
    }
  }
  assemble_role_reports(sc, dep, roles, &r);
  if (!have_gs) {
    r.rounds = worker_round;  // rounds the workers saw completed: the global server's own count is lost
    r.error = "no report from the global server: it was lost, and the job with it (rounds as far as the workers got)";
  } else if (r.error.empty() && r.rounds == 0) {
    r.error = "no round completed";
  }
  for (const auto& e : events)
    r.faults.push_back(on_run_clock(0, e.unix_ns, e.event, dep.nodes.at(std::size_t(e.node)).name));
  for (const auto& name : lost_names) {
    // Without a launcher event the loss time is unknown: put it at the end rather than invent one.
    const bool timed =
        std::any_of(r.faults.begin(), r.faults.end(), [&](const FaultEvent& f) { return f.node == name; });
    if (!timed) r.faults.push_back({r.sim_time_s, name, "lost; no report (its steps are not counted)"});
  }
  std::stable_sort(r.faults.begin(), r.faults.end(),
                   [](const FaultEvent& a, const FaultEvent& b) { return a.time_s < b.time_s; });
  r.network = {{"network_model", "real sockets on loopback; WAN emulated by user-space relays"},
               {"bytes_counted", "frame bytes sent by every node (headers included, TCP/IP excluded)"},
               {"timeline_bytes", "frame bytes sent by the global server only"},
               {"steps_too_slow", too_slow},
               {"compute_overrun_s", overrun},
               {"rejected_links_and_datagrams", rejected},
               {"tls_links_accepted", tls_links}};
  return r;
}

namespace {

// One launch, as its steps: check the inputs (check), lay out the output
// directory and the namespaces (prepare), write the nodes' config with ports,
// TLS and the WAN's relays (configure), start every node (start_nodes), then
// watch them until all have left (watch: each exit read by on_exit, the end of
// the job by end_job and the grace periods, the faults by inject), and merge
// their reports (finish). Every step's state is a member, for all to read.
class Launch {
 public:
  Launch(const std::string& scenario, const std::vector<std::string>& sets, const std::string& out,
         const LaunchOptions& opt)
      : scenario_(scenario),
        sets_(sets),
        out_(out),
        opt_(opt),
        sc_(load_scenario(scenario, sets)),
        dep_(plan_deployment(sc_)) {}

  RunResult run() {
    check();
    prepare();
    configure();
    std::thread relay_thread([this] {
      auto guard = asio::make_work_guard(io_);
      io_.run();
    });
    start_nodes();
    watch();
    io_.stop();
    relay_thread.join();
    return finish();
  }

 private:
  // The job is over (the global server left, or it cannot go on): every node
  // still running gets SIGTERM (and SIGCONT: a stopped one must run to act on
  // it), then SIGKILL after kEndGrace.
  static constexpr auto kEndGrace = std::chrono::seconds(5);

  // One injection per --fault: when it fired, and what is still due (a restart, a SIGCONT).
  struct Injection {
    Fault fault;
    bool fired = false;
    std::optional<Clock::time_point> restart_at, resume_at;
  };

  void check() {
    if (!learner_info(sc_).caps.real_mode)
      throw ConfigError(scenario_, "/model",
                        sc_.model.kind + " runs only in simulation (a workload profile's tensors are stand-ins)");
    if (!sc_.dataset.per_dc.empty())
      throw ConfigError(scenario_, "/dataset/per_dc",
                        "each data centre's own files (per_dc) are read in simulation only so far: in real mode every "
                        "process would load every DC's files, which per_dc exists to prevent");
    {  // one process per node, each with the data set: refused up front when they cannot all fit
      const TrainingJob job(sc_);
      check_frame_limit(job, RealConfig().max_frame_bytes, scenario_);
      check_memory(estimate_launch_memory(job), opt_.memory_limit_mb, scenario_,
                   "this launch (" + std::to_string(dep_.nodes.size()) + " processes)");
    }
    for (const auto& spec : opt_.faults) {
      Fault f = parse_fault(spec, dep_);
      if (f.when == Fault::When::kCheckpoint && opt_.checkpoint_every == 0)
        throw ConfigError("--fault " + spec, "", "a fault at a checkpoint needs --checkpoint-every N");
      Injection j;
      j.fault = f;
      injections_.push_back(j);
    }
  }

  void prepare() {
    fs::create_directories(out_ + "/launch");
    fs::create_directories(out_ + "/logs");
    fs::remove_all(out_ + "/nodes");
    fs::remove_all(out_ + "/checkpoint");  // a fresh launch never resumes an old run
    fs::remove(out_ + "/epoch");
    if (opt_.netns) {
      if (!opt_.emulate_wan) throw std::runtime_error("--netns shapes the WAN: it cannot go with --no-wan-emulation");
      const std::size_t n = sc_.topology.dcs.size();
      std::vector<std::vector<double>> mbps(n, std::vector<double>(n, 0));
      for (std::size_t a = 0; a < n; ++a)
        for (std::size_t b = 0; b < n; ++b)
          if (a != b) mbps[a][b] = wan_path(sc_.topology, int(a), int(b)).bandwidth_mbps;
      lab_ = std::make_unique<NetnsLab>(mbps, fs::absolute(out_ + "/launch/netns.log").string());
    }
  }

  void configure() {
    cfg_.scenario = fs::absolute(scenario_).string();
    cfg_.sets = sets_;
    cfg_.out = fs::absolute(out_).string();
    cfg_.heartbeat_s = opt_.heartbeat_s;
    cfg_.failure_timeout_s = opt_.failure_timeout_s;
    cfg_.startup_timeout_s = opt_.startup_timeout_s;
    cfg_.checkpoint_every = opt_.checkpoint_every;
    for (std::size_t i = 0; i < dep_.nodes.size(); ++i) {
      Endpoint e;
      if (lab_) e.host = lab_->node_host(dep_.nodes[i].dc);
      e.tcp_port = ports_.pick();
      e.udp_port = e.tcp_port;  // TCP and UDP port numbers are separate spaces
      if (opt_.tls != TlsLinks::kOff) e.tls_port = ports_.pick();
      cfg_.nodes.push_back(e);
    }
    if (opt_.tls != TlsLinks::kOff) {
      fs::create_directories(out_ + "/launch/tls");
      cfg_.tls.links = opt_.tls;
      cfg_.tls.cert_file = cfg_.tls.ca_file = fs::absolute(out_ + "/launch/tls/cert.pem").string();
      cfg_.tls.key_file = fs::absolute(out_ + "/launch/tls/key.pem").string();
      write_self_signed_certificate(cfg_.tls.cert_file, cfg_.tls.key_file);
    }
    if (opt_.emulate_wan) wan_.emplace(io_, sc_.topology, dep_, sc_.seed, t0_, lab_.get(), cfg_);
    cfg_.secret_file = fs::absolute(out_ + "/launch/secret").string();
    write_secret_file(cfg_.secret_file);
    write_file_atomically(cfg_path_, cfg_.to_json().dump(2) + "\n");
  }

  pid_t start_node(NodeId id) {
    const std::string log = (id == dep_.global_server && opt_.progress) ? "" : log_of(id);
    std::vector<std::string> args = {"real", "--role", std::to_string(id), "--config", cfg_path_};
    if (lab_) args.insert(args.begin(), {"netns", "exec", lab_->ns(dep_.nodes[id].dc), exe_});
    const pid_t pid = spawn_process(lab_ ? NetnsLab::ip_tool() : exe_, args, log);
    running_[pid] = id;
    return pid;
  }

  void start_nodes() {
    for (const auto& n : dep_.nodes) pid_of_[n.id] = start_node(n.id);
  }

  bool running_node(NodeId id) const {
    return std::any_of(running_.begin(), running_.end(), [&](const auto& p) { return p.second == id; });
  }
  std::string log_of(NodeId id) const { return out_ + "/logs/" + std::to_string(id) + ".log"; }
  bool has_checkpoint() const { return cfg_.checkpoint_every > 0 && fs::exists(cfg_.out + "/checkpoint"); }
  std::string report_error(NodeId id) const {
    const std::string path = out_ + "/nodes/" + std::to_string(id) + ".json";
    const std::string why = fs::exists(path) ? load_json_file(path).value("error", std::string()) : "";
    return (why.empty() ? "it stopped without a report" : why) + "; its log: " + log_of(id);
  }
  void event(NodeId node, const std::string& what) { events_.push_back({node, unix_now_ns(), what}); }

  // `why` is the job's error ("" = none).
  void end_job(const std::string& why) {
    if (ending_) return;
    job_error_ = why;
    ending_ = Clock::now();
    for (auto& [p, n] : running_) {
      kill(p, SIGTERM);
      kill(p, SIGCONT);  // a stalled node must run to leave
    }
  }

  void lose_worker(NodeId id) {
    if (dep_.nodes[id].role != Role::kWorker) return;
    workers_lost_.insert(id);
    if (workers_lost_.size() == dep_.workers.size()) end_job("every worker was lost; the job cannot go on");
  }

  // Ctrl-C or SIGTERM to the launcher (its process group's too): checked before
  // any child's exit is read, so a child the same signal stopped is not blamed.
  static std::string interrupted() {
    const int sig = StopSignals::caught();
    return std::string("interrupted by ") +
           (sig == SIGINT ? std::string("SIGINT (Ctrl-C)") : std::string("SIG") + sigabbrev_np(sig)) +
           ": every node was stopped and wrote its report, as at --timeout";
  }

  // A node's process left with `status`.
  void on_exit(pid_t pid, int status) {
    const NodeId id = running_[pid];
    running_.erase(pid);
    if (id == dep_.global_server && WIFEXITED(status) && WEXITSTATUS(status) == 0 && !ending_) job_done_ = Clock::now();
    if (ending_ || job_done_ || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) return;
    if (WIFEXITED(status) && WEXITSTATUS(status) == RealNode::kExitParentLost) {  // orphaned by a lost parent
      event(id, "left: its parent is gone; its log: " + log_of(id));
      return lose_worker(id);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == RealNode::kExitJobFailed)  // e.g. start-up timed out
      return end_job("node " + dep_.nodes[id].name + ": " + report_error(id));
    if (WIFEXITED(status) && WEXITSTATUS(status) == RealNode::kExitStopped) {  // someone else's SIGTERM
      event(id, "stopped by a signal from outside the launcher");
      return end_job("node " + dep_.nodes[id].name + " was stopped by a signal from outside the launcher");
    }
    if (WIFEXITED(status)) {  // the node stopped itself with an error: the launch fails, its log says why
      if (failure_.empty())
        failure_ = "node " + dep_.nodes[id].name + " failed (exit " + std::to_string(WEXITSTATUS(status)) +
                   "); its log: " + log_of(id);
      return end_job(failure_);
    }
    // Killed by a signal: a crash, whoever caused it, is a fault the job survives where it can.
    const std::string how =
        std::string("signal ") + std::to_string(WTERMSIG(status)) + ", " + strsignal(WTERMSIG(status));
    const bool injected = injected_kills_.erase(id) > 0;
    const bool will_restart = injected && std::any_of(injections_.begin(), injections_.end(), [&](const Injection& j) {
                                return j.fault.node == id && j.restart_at.has_value();
                              });
    if (!injected) event(id, "crashed (" + how + "); its log: " + log_of(id));
    if (id == dep_.global_server) {
      if (will_restart) return;  // restarted by inject(), as asked
      if (!injected && has_checkpoint()) {
        pid_of_[id] = start_node(id);
        return event(id, "restarted by the launcher from its checkpoint");
      }
      if (injected && has_checkpoint())
        end_job(
            "the global server was lost (killed by the launcher, not restarted: --fault "
            "restart:global-server@... resumes it from its checkpoint); the job cannot go on");
      else
        end_job("the global server was lost (" + (injected ? std::string("killed by the launcher") : how) +
                ") with no checkpoint to resume from (launch --checkpoint-every N keeps one, and --fault "
                "restart:... brings it back); the job cannot go on");
      return;
    }
    if (!will_restart) lose_worker(id);
  }

  // The global server finished the job and left: the others follow on its
  // SHUTDOWN within kEndGrace, or are ended (a stopped process never acts on one);
  // nodes that ignore SIGTERM for kEndGrace are killed. True while the job is ending.
  bool ending_grace() {
    if (job_done_ && !ending_ && Clock::now() - *job_done_ > kEndGrace) {
      for (auto& [p, n] : running_)
        event(n, std::string("still running ") + std::to_string(kEndGrace.count()) + " s after the job ended" +
                     (process_stopped(p) ? " (stopped by a signal from outside the launcher)" : "") +
                     "; ended by the launcher (SIGCONT, SIGTERM)");
      end_job("");
    }
    if (!ending_) return false;
    if (!killed_ && Clock::now() - *ending_ > kEndGrace) {
      killed_ = true;
      for (auto& [p, n] : running_) {
        kill(p, SIGKILL);
        event(n, std::string("did not leave within ") + std::to_string(kEndGrace.count()) +
                     " s of SIGTERM: killed by the launcher (SIGKILL); no report");
      }
    }
    return true;
  }

  // The faults due now, and the resumptions and restarts they asked for.
  void inject(double elapsed) {
    const double stall_s = opt_.stall_s > 0 ? opt_.stall_s : 3 * opt_.failure_timeout_s;
    for (auto& j : injections_) {
      if (job_done_) break;  // the job is over: nothing is injected or restarted any more
      const Fault& f = j.fault;
      const bool due =
          !j.fired && (f.when == Fault::When::kStartup || (f.when == Fault::When::kAfterLaunch && elapsed >= f.at_s) ||
                       (f.when == Fault::When::kAfterStart && job_start_ &&
                        std::chrono::duration<double>(Clock::now() - *job_start_).count() >= f.at_s) ||
                       (f.when == Fault::When::kCheckpoint && fs::exists(cfg_.out + "/checkpoint/global.snap")));
      if (due) {
        j.fired = true;
        const pid_t pid = pid_of_[f.node];
        if (f.action == Fault::Action::kStall) {
          kill(pid, SIGSTOP);
          j.resume_at =
              Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(stall_s));
          std::ostringstream what;
          what << "stalled by the launcher (SIGSTOP for " << stall_s << " s)";
          event(f.node, what.str());
        } else {
          kill(pid, SIGKILL);
          injected_kills_.insert(f.node);
          if (f.action == Fault::Action::kRestart)
            j.restart_at = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                              std::chrono::duration<double>(opt_.restart_after_s));
          event(f.node,
                "killed by the launcher (SIGKILL)" +
                    std::string(f.action == Fault::Action::kRestart ? "" : "; no report (its steps are not counted)"));
        }
      }
      if (j.resume_at && Clock::now() >= *j.resume_at) {
        j.resume_at.reset();
        kill(pid_of_[f.node], SIGCONT);
        event(f.node, "resumed by the launcher (SIGCONT)");
      }
      if (j.restart_at && Clock::now() >= *j.restart_at && !running_node(f.node)) {
        j.restart_at.reset();
        // A global server restarted mid-job resumes from its checkpoint; without one it would start a new job.
        if (f.node == dep_.global_server && job_start_ && !has_checkpoint()) {
          end_job(
              "the global server was restarted, but it has no checkpoint to resume from (launch "
              "--checkpoint-every N keeps one); the job cannot go on");
          continue;
        }
        pid_of_[f.node] = start_node(f.node);
        event(f.node, "restarted by the launcher");
      }
    }
  }

  void watch() {
    while (!running_.empty()) {
      if (StopSignals::caught()) end_job(interrupted());
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid > 0) {
        on_exit(pid, status);
        continue;
      }
      const double elapsed = std::chrono::duration<double>(Clock::now() - t0_).count();
      if (ending_grace()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      if (!job_start_ && fs::exists(cfg_.epoch_file())) {  // traces count from the job's start, as in the simulation
        std::int64_t ns = 0;
        std::ifstream(cfg_.epoch_file()) >> ns;
        job_start_ = Clock::now() - std::chrono::nanoseconds(unix_now_ns() - ns);
        if (wan_) wan_->set_job_start(*job_start_);
      }
      if (wan_) wan_->follow_traces(Clock::now());
      inject(elapsed);
      if (StopSignals::caught()) end_job(interrupted());
      if (opt_.timeout_s > 0 && elapsed > opt_.timeout_s)
        end_job("timed out after " + std::to_string(opt_.timeout_s) + " s (launch --timeout)");
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  RunResult finish() {
    if (!failure_.empty()) throw std::runtime_error(failure_);
    RunResult r = merge_node_reports(scenario_, sets_, out_, events_, t0_unix_ns_);
    if (!job_error_.empty()) r.error = job_error_;
    r.wall_time_s = std::chrono::duration<double>(Clock::now() - t0_).count();
    r.network["wan_emulation"] = opt_.emulate_wan;
    r.network["tls"] = to_string(opt_.tls);
    if (lab_) {
      r.network["network_model"] =
          "one network namespace per DC; WAN bandwidth shaped by kernel htb classes, latency and loss by user-space "
          "relays";
      std::uint64_t shaped = 0;
      for (const auto& row : lab_->shaped_bytes())
        for (auto b : row) shaped += b;
      r.network["kernel_shaped_wan_bytes"] = shaped;  // IP bytes through the DC-pair classes (headers included)
    }
    if (!injections_.empty()) {
      r.network["faults_injected"] = nlohmann::json::array();
      for (const auto& j : injections_)
        r.network["faults_injected"].push_back(describe(j.fault, dep_) + (j.fired ? "" : " (never due: not injected)"));
    }
    return r;
  }

  const Clock::time_point t0_ = Clock::now();
  const std::int64_t t0_unix_ns_ = unix_now_ns();
  const StopSignals stop_signals_;  // Ctrl-C: children stopped, relays closed, namespaces removed
  const std::string scenario_;
  const std::vector<std::string> sets_;
  const std::string out_;
  const LaunchOptions& opt_;
  const Scenario sc_;
  const Deployment dep_;
  std::vector<Injection> injections_;
  std::unique_ptr<NetnsLab> lab_;
  asio::io_context io_;
  RealConfig cfg_;
  PortPicker ports_{std::random_device{}()};  // held until the job ends
  std::optional<WanEmulation> wan_;
  const std::string cfg_path_ = out_ + "/launch/config.json";
  const std::string exe_ = self_exe();
  std::map<pid_t, NodeId> running_;
  std::map<NodeId, pid_t> pid_of_;
  std::optional<Clock::time_point> job_start_;
  std::string failure_;              // a node failed by itself (exit status): the launch fails, its log says why
  std::string job_error_;            // the job cannot go on (global server lost, timeout, Ctrl-C): partial summary
  std::set<NodeId> injected_kills_;  // nodes the launcher SIGKILLed: their deaths are not crashes
  std::optional<Clock::time_point> ending_;    // SIGTERM sent to every node: they write their reports and leave
  std::optional<Clock::time_point> job_done_;  // the global server finished the job and left
  bool killed_ = false;
  std::set<NodeId> workers_lost_;
  std::vector<LauncherEvent> events_;
};

}  // namespace

RunResult launch(const std::string& scenario, const std::vector<std::string>& sets, const std::string& out,
                 const LaunchOptions& opt) {
  return Launch(scenario, sets, out, opt).run();
}

}  // namespace geotrain::real
