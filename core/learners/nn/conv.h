// Convolution and max pooling over a batch, as the CNN learner uses them.
// Layout: a batch of images with C channels of H x W is a (B H W) x C matrix,
// row b H W + y W + x, one column per channel (each channel's planes are
// contiguous), so a convolution is one GEMM of the im2col matrix
// (B Ho Wo x C k k) with its weights transposed (C k k x out_channels), and
// its output is again positions x channels. Eigen's GEMM does the work; the
// patch copies are contiguous runs of image rows.
#pragma once
#include <Eigen/Dense>
#include <vector>

namespace geotrain {

struct ConvShape {
  int channels = 1, height = 28, width = 28;  // input
  int out_channels = 8, kernel = 5, pad = 2;  // stride 1
  int out_height() const { return height + 2 * pad - kernel + 1; }
  int out_width() const { return width + 2 * pad - kernel + 1; }
  int patch() const { return channels * kernel * kernel; }  // columns of the im2col matrix
};

// x: (B H W) x C -> cols: (B Ho Wo) x (C k k), column (c k + ky) k + kx; zero padding outside the image.
void im2col(const Eigen::Ref<const Eigen::MatrixXf>& x, const ConvShape& s, int batch, Eigen::MatrixXf* cols);
// The adjoint of im2col: adds each patch entry back onto the pixel it came from. dx: (B H W) x C, zeroed here.
void col2im(const Eigen::MatrixXf& cols, const ConvShape& s, int batch, Eigen::MatrixXf* dx);

// 2 x 2 max pooling, stride 2 (H and W even): in (B H W) x C -> out (B H/2 W/2) x C;
// arg holds, per output entry, the index into in's storage of the maximum.
void max_pool2(const Eigen::MatrixXf& in, int height, int width, int batch, Eigen::MatrixXf* out,
               std::vector<Eigen::Index>* arg);
// Routes each output gradient to its maximum. din: in's shape, zeroed here.
void max_pool2_backward(const Eigen::MatrixXf& dout, const std::vector<Eigen::Index>& arg, Eigen::Index rows,
                        Eigen::Index cols, Eigen::MatrixXf* din);

}  // namespace geotrain
