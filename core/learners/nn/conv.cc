#include "core/learners/nn/conv.h"

namespace geotrain {

void im2col(const Eigen::MatrixXf& x, const ConvShape& s, int batch, Eigen::MatrixXf* cols) {
  const int ho = s.out_height(), wo = s.out_width(), k = s.kernel;
  const Eigen::Index hw = Eigen::Index(s.height) * s.width, out_hw = Eigen::Index(ho) * wo;
  cols->resize(s.patch(), batch * out_hw);
  for (int b = 0; b < batch; ++b)
    for (int oy = 0; oy < ho; ++oy)
      for (int ox = 0; ox < wo; ++ox) {
        const Eigen::Index col = b * out_hw + Eigen::Index(oy) * wo + ox;
        float* dst = cols->data() + col * s.patch();
        for (int c = 0; c < s.channels; ++c)
          for (int ky = 0; ky < k; ++ky) {
            const int y = oy + ky - s.pad;
            for (int kx = 0; kx < k; ++kx) {
              const int xx = ox + kx - s.pad;
              *dst++ = (y < 0 || y >= s.height || xx < 0 || xx >= s.width)
                           ? 0.0f
                           : x(c, b * hw + Eigen::Index(y) * s.width + xx);
            }
          }
      }
}

void col2im(const Eigen::MatrixXf& cols, const ConvShape& s, int batch, Eigen::MatrixXf* dx) {
  const int ho = s.out_height(), wo = s.out_width(), k = s.kernel;
  const Eigen::Index hw = Eigen::Index(s.height) * s.width, out_hw = Eigen::Index(ho) * wo;
  dx->setZero(s.channels, batch * hw);
  for (int b = 0; b < batch; ++b)
    for (int oy = 0; oy < ho; ++oy)
      for (int ox = 0; ox < wo; ++ox) {
        const float* src = cols.data() + (b * out_hw + Eigen::Index(oy) * wo + ox) * s.patch();
        for (int c = 0; c < s.channels; ++c)
          for (int ky = 0; ky < k; ++ky) {
            const int y = oy + ky - s.pad;
            for (int kx = 0; kx < k; ++kx, ++src) {
              const int xx = ox + kx - s.pad;
              if (y >= 0 && y < s.height && xx >= 0 && xx < s.width)
                (*dx)(c, b * hw + Eigen::Index(y) * s.width + xx) += *src;
            }
          }
      }
}

void max_pool2(const Eigen::MatrixXf& in, int height, int width, int batch, Eigen::MatrixXf* out,
               std::vector<Eigen::Index>* arg) {
  const int h2 = height / 2, w2 = width / 2;
  const Eigen::Index hw = Eigen::Index(height) * width, out_hw = Eigen::Index(h2) * w2;
  out->resize(in.rows(), batch * out_hw);
  arg->resize(std::size_t(out->size()));
  for (Eigen::Index c = 0; c < in.rows(); ++c)
    for (int b = 0; b < batch; ++b)
      for (int y = 0; y < h2; ++y)
        for (int x = 0; x < w2; ++x) {
          Eigen::Index best = -1;
          float m = 0;
          for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx) {
              const Eigen::Index col = b * hw + Eigen::Index(2 * y + dy) * width + 2 * x + dx;
              const float v = in(c, col);
              if (best < 0 || v > m) m = v, best = col * in.rows() + c;  // column-major storage index
            }
          const Eigen::Index oc = b * out_hw + Eigen::Index(y) * w2 + x;
          (*out)(c, oc) = m;
          (*arg)[std::size_t(oc * in.rows() + c)] = best;
        }
}

void max_pool2_backward(const Eigen::MatrixXf& dout, const std::vector<Eigen::Index>& arg, Eigen::Index rows,
                        Eigen::Index cols, Eigen::MatrixXf* din) {
  din->setZero(rows, cols);
  for (Eigen::Index i = 0; i < dout.size(); ++i) din->data()[arg[std::size_t(i)]] += dout.data()[i];
}

}  // namespace geotrain
