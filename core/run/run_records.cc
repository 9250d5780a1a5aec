#include "core/run/run_records.h"

#include <algorithm>

namespace geotrain {

void RoundSpans::add(std::size_t round, double push_s, double model_s) {
  if (first_.size() <= round) first_.resize(round + 1, 1e300), last_.resize(round + 1, -1e300);
  first_[round] = std::min(first_[round], push_s);
  last_[round] = std::max(last_[round], model_s);
}

double RoundSpans::mean() const {
  double sum = 0;
  for (std::size_t i = 0; i < first_.size(); ++i) sum += last_[i] - first_[i];
  return first_.empty() ? 0 : sum / double(first_.size());
}

int RunRecords::add_stream(const std::string& name) {
  streams_.push_back({name, {}});
  return int(streams_.size()) - 1;
}

// A row's totals are final once the clock has passed its time: what a stream
// records at the row's very time still counts for it (as a history's last
// sample at or before the row's time would).
void RunRecords::close_rows_before(double time_s) {
  std::size_t n = 0;
  while (n < open_.size() && open_[n] < time_s) ++n;
  if (n == 0) return;
  std::map<std::string, StreamBytes> now;
  for (const auto& s : streams_)
    if (s.total.payloads > 0) now[s.name] += s.total;
  closed_.insert(closed_.end(), n, now);
  closed_samples_.insert(closed_samples_.end(), n, samples_);
  open_.erase(open_.begin(), open_.begin() + std::ptrdiff_t(n));
}

void RunRecords::record(int stream, TimeNs t, const StreamBytes& total) {
  close_rows_before(to_seconds(t));
  streams_.at(std::size_t(stream)).total = total;
}

void RunRecords::count_samples(TimeNs t, int n) {
  close_rows_before(to_seconds(t));
  samples_ += n;
}

void RunRecords::row_at(double time_s) { open_.push_back(time_s); }

void RunRecords::fill(std::vector<TimelineRow>& rows) {
  close_rows_before(1e300);
  // Streams that carried a payload by the end appear in every row (zero before their first).
  std::vector<std::string> names;
  for (const auto& s : streams_)
    if (s.total.payloads > 0) names.push_back(s.name);
  for (std::size_t i = 0; i < rows.size() && i < closed_.size(); ++i) {
    for (const auto& n : names) rows[i].streams[n];
    for (const auto& [name, b] : closed_[i]) rows[i].streams[name] += b;
    rows[i].samples = closed_samples_[i];
  }
}

}  // namespace geotrain
