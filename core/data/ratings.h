// Generated rating triples for matrix factorisation, with known factors:
// user u has factors p_u and item i has q_i, each entry ~ N(0, 1/sqrt(rank)),
// and an observed rating is r = p_u . q_i + e, e ~ N(0, sigma^2), for (u, i)
// drawn uniformly. The best any model can do on held-out ratings is an RMSE
// of sigma. Train and test are disjoint draws of the same process.
#pragma once
#include <cstdint>

#include "core/data/dataset.h"

namespace geotrain {

struct RatingsSpec {
  int users = 300, items = 300, rank = 8;
  double sigma = 0.1;
  int train = 60000, test = 10000;
  std::uint64_t seed = 1;
};

// kind "ratings": x row 0 the user id, row 1 the item id (as floats, exact), target the rating.
TrainTest make_ratings(const RatingsSpec& spec);

}  // namespace geotrain
