// What a run's outputs are built from, gathered as the run goes by a runtime
// whose roles share one process and one clock (the simulator), so memory does
// not grow with rounds: the timeline rows' per-stream bytes, and the rounds'
// communication spans. Without it (real mode), each role keeps per-message
// histories and per-round times in its report, and core/job/role_stats builds
// the same outputs from them. Both give the same figures.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/base/time.h"
#include "core/codec/stream_bytes.h"
#include "core/run/results.h"

namespace geotrain {

// Mean over rounds of the time from a round's first push leaving a worker to
// the last worker holding the model that followed: round k's span is from the
// earliest k-th push to the latest model a worker got after its k-th push.
class RoundSpans {
 public:
  void add(std::size_t round, double push_s, double model_s);
  double mean() const;

 private:
  std::vector<double> first_, last_;
};

class RunRecords {
 public:
  // A sender's stream registers once; its totals are then recorded after each
  // encode, in the order of the shared clock.
  int add_stream(const std::string& name);
  void record(int stream, TimeNs t, const StreamBytes& total);
  // A worker finished a step of n samples at t.
  void count_samples(TimeNs t, int n);
  // A timeline row was evaluated at this time (rows come in time order).
  void row_at(double time_s);
  // Every row's per-stream totals, as each stream stood at the row's time
  // (streams that never carried a payload left out), and its samples so far, into `rows`.
  void fill(std::vector<TimelineRow>& rows);
  RoundSpans& spans() { return spans_; }

 private:
  void close_rows_before(double time_s);
  struct Stream {
    std::string name;
    StreamBytes total;
  };
  std::vector<Stream> streams_;
  std::vector<std::map<std::string, StreamBytes>> closed_;  // per row, in order
  std::vector<std::int64_t> closed_samples_;                // per row, in order
  std::int64_t samples_ = 0;
  std::vector<double> open_;  // rows whose time has not passed yet
  RoundSpans spans_;
};

}  // namespace geotrain
