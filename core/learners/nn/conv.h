// Convolution and max pooling over a batch, as the CNN learner uses them.
// Layout: a batch of images with C channels of H x W is a C x (B H W) matrix,
// column b H W + y W + x (channels as rows), so a convolution is one GEMM of
// its weights (out_channels x C k k) with the im2col matrix (C k k x B Ho Wo):
// Eigen's GEMM does the work.
#pragma once
#include <Eigen/Dense>
#include <vector>

namespace geotrain {

struct ConvShape {
  int channels = 1, height = 28, width = 28;  // input
  int out_channels = 8, kernel = 5, pad = 2;  // stride 1
  int out_height() const { return height + 2 * pad - kernel + 1; }
  int out_width() const { return width + 2 * pad - kernel + 1; }
  int patch() const { return channels * kernel * kernel; }  // rows of the im2col matrix
};

// x: C x (B H W) -> cols: (C k k) x (B Ho Wo), zero padding outside the image.
void im2col(const Eigen::MatrixXf& x, const ConvShape& s, int batch, Eigen::MatrixXf* cols);
// The adjoint of im2col: adds each patch entry back onto the pixel it came from. dx: C x (B H W), zeroed here.
void col2im(const Eigen::MatrixXf& cols, const ConvShape& s, int batch, Eigen::MatrixXf* dx);

// 2 x 2 max pooling, stride 2 (H and W even): in C x (B H W) -> out C x (B H/2 W/2);
// arg holds, per output entry, the index into in's storage of the maximum.
void max_pool2(const Eigen::MatrixXf& in, int height, int width, int batch, Eigen::MatrixXf* out,
               std::vector<Eigen::Index>* arg);
// Routes each output gradient to its maximum. din: in's shape, zeroed here.
void max_pool2_backward(const Eigen::MatrixXf& dout, const std::vector<Eigen::Index>& arg, Eigen::Index rows,
                        Eigen::Index cols, Eigen::MatrixXf* din);

}  // namespace geotrain
