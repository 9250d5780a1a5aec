#include "core/data/ratings.h"

#include <cmath>
#include <random>

namespace geotrain {

TrainTest make_ratings(const RatingsSpec& s) {
  std::mt19937_64 rng(s.seed * 0x9e3779b97f4a7c15ULL + 11);
  std::normal_distribution<float> factor(0.0f, 1.0f / std::sqrt(float(s.rank)));
  Eigen::MatrixXf p(s.rank, s.users), q(s.rank, s.items);
  for (Eigen::Index i = 0; i < p.size(); ++i) p.data()[i] = factor(rng);
  for (Eigen::Index i = 0; i < q.size(); ++i) q.data()[i] = factor(rng);
  std::uniform_int_distribution<int> user(0, s.users - 1), item(0, s.items - 1);
  std::normal_distribution<float> noise(0.0f, float(s.sigma));
  auto draw = [&](int n, const char* name) {
    Dataset d;
    d.name = name;
    d.kind = "ratings";
    d.users = s.users;
    d.items = s.items;
    d.x.resize(2, n);
    d.target.resize(std::size_t(n));
    for (int k = 0; k < n; ++k) {
      const int u = user(rng), i = item(rng);
      d.x(0, k) = float(u);
      d.x(1, k) = float(i);
      d.target[std::size_t(k)] = p.col(u).dot(q.col(i)) + noise(rng);
    }
    return d;
  };
  TrainTest tt;
  tt.train = draw(s.train, "ratings-train");
  tt.test = draw(s.test, "ratings-test");
  return tt;
}

}  // namespace geotrain
