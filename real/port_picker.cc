#include "real/port_picker.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <filesystem>
#include <stdexcept>

namespace geotrain::real {

namespace asio = boost::asio;

PortPicker::PortPicker(std::uint32_t seed) : rng_(seed) {
  std::error_code ec;
  const auto dir = std::filesystem::temp_directory_path(ec);
  const std::string path = (ec ? std::filesystem::path("/tmp") : dir) / "geotrain-port-reservations";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
}

PortPicker::~PortPicker() {
  if (fd_ >= 0) ::close(fd_);
}

bool PortPicker::reserve(std::uint16_t port) {
  if (fd_ < 0) return true;
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = port;
  lock.l_len = 1;
  return ::fcntl(fd_, F_OFD_SETLK, &lock) == 0;
}

std::uint16_t PortPicker::pick() {
  asio::io_context io;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const auto port = std::uint16_t(std::uniform_int_distribution<int>(20000, 32000)(rng_));
    if (taken_.count(port)) continue;
    boost::system::error_code e1, e2;
    asio::ip::tcp::acceptor a(io);
    a.open(asio::ip::tcp::v4(), e1);
    if (!e1) a.bind({asio::ip::make_address("127.0.0.1"), port}, e1);
    asio::ip::udp::socket u(io);
    u.open(asio::ip::udp::v4(), e2);
    if (!e2) u.bind({asio::ip::make_address("127.0.0.1"), port}, e2);
    if (e1 || e2 || !reserve(port)) continue;
    taken_.insert(port);
    return port;
  }
  throw std::runtime_error("no free port in 20000-32000");
}

}  // namespace geotrain::real
