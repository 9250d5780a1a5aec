#include "core/learners/incremental/transfer.h"

#include <numeric>
#include <stdexcept>

#include "core/learners/classifier.h"
#include "core/payload/params_file.h"

namespace geotrain {
namespace {

// The CNN a parameter file holds: blocks conv1 w, b, conv2 w, b, dense w, b, output w, b.
std::unique_ptr<Cnn> cnn_of(const ParamSet& p, const std::string& path, int inputs, int* classes) {
  if (p.size() != 8) throw std::runtime_error(path + ": not a CNN's parameters (8 blocks expected)");
  const int c1 = int(p[1].values.size()), c2 = int(p[3].values.size()), dense = int(p[5].values.size());
  *classes = int(p[7].values.size());
  auto cnn = std::make_unique<Cnn>(inputs, *classes, c1, c2, dense);
  const ParamSet expect = cnn->init(1);
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i].values.size() != expect[i].values.size())
      throw std::runtime_error(path + ": block " + std::to_string(i) + " has " + std::to_string(p[i].values.size()) +
                               " values, a CNN of " + std::to_string(inputs) + " pixels needs " +
                               std::to_string(expect[i].values.size()));
  return cnn;
}

std::vector<int> head_sizes(int in, const std::vector<int>& hidden, int out) {
  std::vector<int> s = {in};
  s.insert(s.end(), hidden.begin(), hidden.end());
  s.push_back(out);
  return s;
}

std::vector<Act> head_acts(std::size_t hidden) {
  std::vector<Act> a(hidden, Act::kRelu);
  a.push_back(Act::kLinear);
  return a;
}

}  // namespace

struct Transfer::Features {
  Eigen::Index columns = 0;
  Eigen::MatrixXf f;  // features x rows
  std::vector<char> have;
};

Transfer::Transfer(std::string name, const TransferOptions& o)
    : name_(std::move(name)),
      o_(o),
      base_(read_params_file(o.base)),
      cnn_(cnn_of(base_, o.base, o.inputs, &base_classes_)),
      head_({1, 1}, {Act::kLinear}) {  // (set below, once the cut is known)
  const int in = o_.through_dense ? int(base_[5].values.size()) : cnn_->conv_outputs();
  if (o_.continue_head) {
    if (o_.classes != base_classes_)
      throw std::invalid_argument(o.base + " classifies " + std::to_string(base_classes_) + " classes, the data has " +
                                  std::to_string(o_.classes) + ": fine-tuning continues the same outputs");
    o_.hidden = o_.through_dense ? std::vector<int>{} : std::vector<int>{int(base_[5].values.size())};
  }
  head_ = DenseNet(head_sizes(in, o_.hidden, o_.classes), head_acts(o_.hidden.size()));
}

const std::vector<MetricInfo>& Transfer::metrics() const { return classifier_metrics(); }

ParamSet Transfer::init(std::uint64_t seed) const {
  if (!o_.continue_head) return init_networks(seed, {&head_});
  ParamSet p;  // the file's layers above the cut, renumbered from 0
  for (std::size_t i = o_.through_dense ? 6 : 4; i < base_.size(); ++i)
    p.push_back({std::uint32_t(p.size()), base_[i].values});
  return p;
}

Eigen::MatrixXf Transfer::features(const Dataset& d, const std::vector<int>& rows) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& c = cache_[&d];
  if (!c || c->columns != d.x.cols()) {
    c = std::make_shared<Features>();
    c->columns = d.x.cols();
    c->f.resize(head_.inputs(), d.x.cols());  // pages are touched only for the rows this node uses
    c->have.assign(std::size_t(d.x.cols()), 0);
  }
  std::vector<int> missing;
  for (int r : rows)
    if (!c->have[std::size_t(r)]) missing.push_back(r), c->have[std::size_t(r)] = 1;
  const std::size_t chunk = 256;
  for (std::size_t lo = 0; lo < missing.size(); lo += chunk) {
    const std::size_t n = std::min(chunk, missing.size() - lo);
    Eigen::MatrixXf x(d.features(), Eigen::Index(n));
    for (std::size_t j = 0; j < n; ++j) x.col(Eigen::Index(j)) = d.x.col(missing[lo + j]);
    const Eigen::MatrixXf f = cnn_->features(base_, x, o_.through_dense);
    for (std::size_t j = 0; j < n; ++j) c->f.col(missing[lo + j]) = f.col(Eigen::Index(j));
  }
  Eigen::MatrixXf out(head_.inputs(), Eigen::Index(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) out.col(Eigen::Index(j)) = c->f.col(rows[j]);
  return out;
}

double Transfer::local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64&,
                              ParamSet* update) const {
  const Eigen::MatrixXf x = features(train, batch);
  std::vector<int> y(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) y[i] = train.y[std::size_t(batch[i])];
  DenseNet::Tape tape;
  Eigen::MatrixXf z = head_.forward(p, x, &tape);
  const double loss = softmax_cross_entropy(z, y);
  *update = zeros_like(p);
  head_.backward(p, tape, std::move(z), update);
  return loss;
}

std::vector<double> Transfer::evaluate(const ParamSet& p, const Dataset& test) const {
  std::vector<int> all(std::size_t(test.size()));
  std::iota(all.begin(), all.end(), 0);
  Eigen::MatrixXf z = head_.forward(p, features(test, all));
  int right = 0;
  for (Eigen::Index j = 0; j < z.cols(); ++j) {
    Eigen::Index k;
    z.col(j).maxCoeff(&k);
    right += int(k) == test.y[std::size_t(j)];
  }
  const double loss = softmax_cross_entropy(z, test.y);
  return {z.cols() ? double(right) / double(z.cols()) : 0.0, loss};
}

}  // namespace geotrain
