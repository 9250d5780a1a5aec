#include "core/codec/mpq.h"

#include "core/codec/fp16.h"
#include "core/codec/momentum_sparsifier.h"

namespace geotrain {
namespace {

class Mpq : public Encoder {
 public:
  Mpq(const EncoderContext& c, double rho, double momentum)
      : small_(c.dense_below),
        large_(c.tier == Tier::kWan ? make_momentum_sparsifier({rho, momentum, 0, 0, 1}, c.seed) : nullptr) {}
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) override {
    if (std::uint64_t(x.size()) < small_) return encode_fp16(key, x);
    if (large_) return large_->encode(key, x);
    return std::nullopt;  // inside a DC: fp32
  }

 private:
  std::uint64_t small_;
  std::unique_ptr<Encoder> large_;
};

}  // namespace

std::unique_ptr<Encoder> make_mpq_encoder(const EncoderContext& c, double rho, double momentum) {
  return std::make_unique<Mpq>(c, rho, momentum);
}

}  // namespace geotrain
