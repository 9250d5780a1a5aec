// RunRecords (core/run/run_records.h): the timeline's per-stream bytes and samples
// gathered as the run goes equal what per-message histories give (each stream's
// last sample, every step finished, at or before each row's time), whatever ties
// in time; round spans.
#include "core/run/run_records.h"

#include <gtest/gtest.h>

#include <random>

namespace geotrain {
namespace {

TEST(RunRecords, RowsGetEachStreamsLastTotalsAndTheSamplesAtOrBeforeTheirTimeAsHistoriesWould) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    RunRecords rec;
    const std::vector<std::string> names = {"wan_push", "wan_push", "lan_pull", "wan_pull"};
    std::vector<int> id;
    for (const auto& n : names) id.push_back(rec.add_stream(n));
    struct Sample {
      int stream;
      TimeNs t;
      StreamBytes total;
    };
    std::vector<Sample> history;
    std::vector<double> row_times;
    std::vector<std::pair<TimeNs, int>> steps;  // (time, samples) of every finished step
    std::vector<StreamBytes> totals(names.size());
    TimeNs t = 0;
    for (int step = 0; step < 200; ++step) {
      if (rng() % 3) t += TimeNs(rng() % 3) * 1000000;  // ties are common
      if (rng() % 5 == 0) {                             // a row evaluated now, before or after same-time encodes
        row_times.push_back(to_seconds(t));
        rec.row_at(to_seconds(t));
        continue;
      }
      if (rng() % 4 == 0) {  // a worker finished a step
        steps.emplace_back(t, int(1 + rng() % 64));
        rec.count_samples(t, steps.back().second);
        continue;
      }
      const int s = int(rng() % 3);  // the last stream never carries a payload
      totals[std::size_t(s)].payloads += 1;
      totals[std::size_t(s)].dense_bytes += 100;
      totals[std::size_t(s)].sent_bytes += 10 + rng() % 50;
      rec.record(id[std::size_t(s)], t, totals[std::size_t(s)]);
      history.push_back({s, t, totals[std::size_t(s)]});
    }
    std::vector<TimelineRow> rows(row_times.size());
    for (std::size_t r = 0; r < rows.size(); ++r) rows[r].time_s = row_times[r];
    rec.fill(rows);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::map<std::string, StreamBytes> want;
      for (std::size_t s = 0; s < names.size(); ++s) {
        if (totals[s].payloads == 0) continue;  // never carried a payload: not in the timeline
        StreamBytes last;
        for (const auto& h : history)
          if (h.stream == int(s) && to_seconds(h.t) <= row_times[r]) last = h.total;
        StreamBytes& w = want[names[s]];
        w.payloads += last.payloads;
        w.dense_bytes += last.dense_bytes;
        w.sent_bytes += last.sent_bytes;
      }
      std::int64_t samples = 0;
      for (const auto& [at, n] : steps)
        if (to_seconds(at) <= row_times[r]) samples += n;
      EXPECT_EQ(rows[r].samples, samples) << "trial " << trial << " row " << r;
      ASSERT_EQ(rows[r].streams.size(), want.size()) << "trial " << trial << " row " << r;
      for (const auto& [name, w] : want) {
        const StreamBytes& got = rows[r].streams.at(name);
        EXPECT_EQ(got.payloads, w.payloads) << name << " row " << r;
        EXPECT_EQ(got.sent_bytes, w.sent_bytes) << name << " row " << r;
        EXPECT_EQ(got.dense_bytes, w.dense_bytes) << name << " row " << r;
      }
    }
  }
}

TEST(RoundSpans, EachRoundRunsFromItsEarliestPushToItsLatestModel) {
  RoundSpans s;
  s.add(0, 1.0, 3.0);
  s.add(0, 0.5, 2.0);  // round 0: 0.5 .. 3.0
  s.add(1, 4.0, 4.5);  // round 1: 4.0 .. 6.0
  s.add(1, 5.0, 6.0);
  EXPECT_DOUBLE_EQ(s.mean(), (2.5 + 2.0) / 2);
  EXPECT_EQ(RoundSpans().mean(), 0);
}

}  // namespace
}  // namespace geotrain
