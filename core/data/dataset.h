// In-memory labelled dataset: one column of features per sample.
#pragma once
#include <Eigen/Dense>
#include <string>
#include <vector>

namespace geotrain {

struct Dataset {
  std::string name;
  Eigen::MatrixXf x;   // features x samples
  std::vector<int> y;  // label per sample, 0..classes-1
  int classes = 0;

  int size() const { return static_cast<int>(y.size()); }
  int features() const { return static_cast<int>(x.rows()); }
  // The first n samples (all if n <= 0 or n >= size()).
  Dataset head(int n) const;
};

struct TrainTest {
  Dataset train;
  Dataset test;
};

// Gathers the columns `idx` of d into x and their labels into y.
void gather(const Dataset& d, const std::vector<int>& idx, Eigen::MatrixXf* x, std::vector<int>* y);

}  // namespace geotrain
