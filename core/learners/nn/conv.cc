#include "core/learners/nn/conv.h"

#include <algorithm>
#include <cstring>

namespace geotrain {

void im2col(const Eigen::Ref<const Eigen::MatrixXf>& x, const ConvShape& s, int batch, Eigen::MatrixXf* cols) {
  const int ho = s.out_height(), wo = s.out_width(), k = s.kernel;
  const Eigen::Index hw = Eigen::Index(s.height) * s.width;
  cols->resize(Eigen::Index(batch) * ho * wo, s.patch());
  for (int c = 0; c < s.channels; ++c)
    for (int ky = 0; ky < k; ++ky)
      for (int kx = 0; kx < k; ++kx) {
        float* dst = cols->col((c * k + ky) * k + kx).data();
        const float* plane = x.col(c).data();
        // Output columns whose input column ox + kx - pad is inside the image.
        const int lo = std::max(0, s.pad - kx), hi = std::min(wo, s.width + s.pad - kx);
        for (int b = 0; b < batch; ++b)
          for (int oy = 0; oy < ho; ++oy, dst += wo) {
            const int y = oy + ky - s.pad;
            if (y < 0 || y >= s.height || hi <= lo) {
              std::fill(dst, dst + wo, 0.0f);
              continue;
            }
            const float* row = plane + b * hw + Eigen::Index(y) * s.width + (kx - s.pad);
            std::fill(dst, dst + lo, 0.0f);
            std::memcpy(dst + lo, row + lo, sizeof(float) * std::size_t(hi - lo));
            std::fill(dst + hi, dst + wo, 0.0f);
          }
      }
}

void col2im(const Eigen::MatrixXf& cols, const ConvShape& s, int batch, Eigen::MatrixXf* dx) {
  const int ho = s.out_height(), wo = s.out_width(), k = s.kernel;
  const Eigen::Index hw = Eigen::Index(s.height) * s.width;
  dx->setZero(Eigen::Index(batch) * hw, s.channels);
  for (int c = 0; c < s.channels; ++c)
    for (int ky = 0; ky < k; ++ky)
      for (int kx = 0; kx < k; ++kx) {
        const float* src = cols.col((c * k + ky) * k + kx).data();
        float* plane = dx->col(c).data();
        const int lo = std::max(0, s.pad - kx), hi = std::min(wo, s.width + s.pad - kx);
        for (int b = 0; b < batch; ++b)
          for (int oy = 0; oy < ho; ++oy, src += wo) {
            const int y = oy + ky - s.pad;
            if (y < 0 || y >= s.height) continue;
            float* row = plane + b * hw + Eigen::Index(y) * s.width + (kx - s.pad);
            for (int ox = lo; ox < hi; ++ox) row[ox] += src[ox];
          }
      }
}

void max_pool2(const Eigen::MatrixXf& in, int height, int width, int batch, Eigen::MatrixXf* out,
               std::vector<Eigen::Index>* arg) {
  const int h2 = height / 2, w2 = width / 2;
  const Eigen::Index hw = Eigen::Index(height) * width, out_hw = Eigen::Index(h2) * w2;
  out->resize(batch * out_hw, in.cols());
  arg->resize(std::size_t(out->size()));
  for (Eigen::Index c = 0; c < in.cols(); ++c) {
    const float* plane = in.col(c).data();
    const Eigen::Index base = c * in.rows();
    float* o = out->col(c).data();
    Eigen::Index* a = arg->data() + c * out->rows();
    for (int b = 0; b < batch; ++b)
      for (int y = 0; y < h2; ++y)
        for (int x = 0; x < w2; ++x, ++o, ++a) {
          const Eigen::Index r0 = b * hw + Eigen::Index(2 * y) * width + 2 * x;
          Eigen::Index best = r0;
          for (Eigen::Index r : {r0 + 1, r0 + width, r0 + width + 1})
            if (plane[r] > plane[best]) best = r;
          *o = plane[best];
          *a = base + best;
        }
  }
}

void max_pool2_backward(const Eigen::MatrixXf& dout, const std::vector<Eigen::Index>& arg, Eigen::Index rows,
                        Eigen::Index cols, Eigen::MatrixXf* din) {
  din->setZero(rows, cols);
  for (Eigen::Index i = 0; i < dout.size(); ++i) din->data()[arg[std::size_t(i)]] += dout.data()[i];
}

}  // namespace geotrain
