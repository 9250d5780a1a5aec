// An in-memory dataset of one of the kinds learners learn from. Every kind
// keeps its inputs as columns of x; what else it carries depends on the kind:
//  labelled     images or vectors with a class label each (y, classes)
//  ratings      (user, item) pairs as the two rows of x, the rating in target
//  regression   inputs as columns of x, the value to predict in target
//  ranking      documents as columns of x grouped by query (query_start), the
//               graded relevance of each in target
//  environment  no data: each column stands for one seeded environment
//               instance (x has one row: its seed); a learner acts in it
// A shard (core/data/partition.h) holds units: samples, or whole queries for
// ranking, so a query's documents always stay on one worker.
#pragma once
#include <Eigen/Dense>
#include <string>
#include <vector>

namespace geotrain {

struct Dataset {
  std::string name;
  std::string kind = "labelled";  // labelled | ratings | regression | ranking | environment
  Eigen::MatrixXf x;              // features x samples
  std::vector<int> y;             // labelled: label per sample, 0..classes-1
  int classes = 0;
  std::vector<float> target;     // ratings: rating; regression: value; ranking: relevance grade (per column)
  std::vector<int> query_start;  // ranking: query q is columns [query_start[q], query_start[q + 1])
  int users = 0, items = 0;      // ratings: ids are 0..users-1 and 0..items-1

  // Units a shard is made of: queries for ranking, samples (columns) otherwise.
  int size() const { return kind == "ranking" ? int(query_start.empty() ? 0 : query_start.size() - 1) : int(x.cols()); }
  int features() const { return static_cast<int>(x.rows()); }
  bool labelled() const { return kind == "labelled"; }
  // Labelled data: the first n samples (all if n <= 0 or n >= size()).
  Dataset head(int n) const;
  // Labelled data: the samples from `first` on (all if first <= 0).
  Dataset from(int first) const;
  // Labelled data: only the samples of these classes, relabelled 0, 1, ... in the order given.
  Dataset only_classes(const std::vector<int>& keep) const;
};

struct TrainTest {
  Dataset train;
  Dataset test;
};

// Gathers the columns `idx` of a labelled d into x and their labels into y.
void gather(const Dataset& d, const std::vector<int>& idx, Eigen::MatrixXf* x, std::vector<int>* y);

}  // namespace geotrain
