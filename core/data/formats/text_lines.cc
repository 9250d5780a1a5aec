#include "core/data/formats/text_lines.h"

#include <sys/stat.h>
#include <zlib.h>

#include <cstring>
#include <stdexcept>

namespace geotrain {
namespace {

constexpr std::size_t kChunk = std::size_t(1) << 20;

bool stat_of(const std::string& path, std::int64_t* size, std::int64_t* mtime_ns) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  *size = std::int64_t(st.st_size);
  *mtime_ns = std::int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return true;
}

}  // namespace

void TextLines::Closer::operator()(void* f) const { gzclose(static_cast<gzFile>(f)); }

TextLines::TextLines(std::string path, std::size_t max_line_bytes) : path_(std::move(path)), max_line_(max_line_bytes) {
  if (!stat_of(path_, &size_, &mtime_ns_)) throw std::runtime_error(path_ + ": " + std::strerror(errno));
  gzFile f = gzopen(path_.c_str(), "rb");
  if (!f) throw std::runtime_error(path_ + ": cannot open: " + std::strerror(errno));
  file_.reset(f);
  gzbuffer(f, unsigned(kChunk));
  buf_.resize(kChunk);
}

TextLines::~TextLines() = default;

void TextLines::fail(const std::string& what) const {
  throw std::runtime_error(path_ + ":" + std::to_string(line_) + ": " + what);
}

void TextLines::fail(std::int64_t column, const std::string& what) const {
  throw std::runtime_error(path_ + ":" + std::to_string(line_) + ": column " + std::to_string(column) + ": " + what);
}

void TextLines::fail(std::int64_t column, const std::string& name, const std::string& what) const {
  throw std::runtime_error(path_ + ":" + std::to_string(line_) + ": column " + std::to_string(column) + " (" + name +
                           "): " + what);
}

void TextLines::check_unchanged() const {
  std::int64_t size = 0, mtime = 0;
  if (!stat_of(path_, &size, &mtime) || size != size_ || mtime != mtime_ns_)
    throw std::runtime_error(path_ + ": the file changed while it was read (size or modification time)");
}

bool TextLines::fill() {
  if (eof_) return false;
  if (begin_ > 0) {  // keep the partial line at the front
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buf_.size() - end_ < kChunk) {
    if (end_ > max_line_)
      throw std::runtime_error(path_ + ":" + std::to_string(line_ + 1) + ": a line longer than " +
                               std::to_string(max_line_ >> 20) + " MiB (is it a text file of rows?)");
    buf_.resize(buf_.size() + kChunk);
  }
  const int n = gzread(static_cast<gzFile>(file_.get()), buf_.data() + end_, unsigned(buf_.size() - end_));
  if (n < 0) {
    int err = 0;
    const char* msg = gzerror(static_cast<gzFile>(file_.get()), &err);
    throw std::runtime_error(path_ + ": read error after line " + std::to_string(line_) + ": " +
                             (err == Z_BUF_ERROR ? "the gzip stream ends early (a truncated file?)" : msg));
  }
  if (n == 0) {
    // zlib reads a gzip stream that stops short of its trailer up to where
    // it stops (a file still being written), and says so only in gzerror.
    int err = Z_OK;
    gzerror(static_cast<gzFile>(file_.get()), &err);
    if (err == Z_BUF_ERROR)
      throw std::runtime_error(path_ + ": read error after line " + std::to_string(line_) +
                               ": the gzip stream ends early (a truncated file?)");
    eof_ = true;
    return false;
  }
  end_ += std::size_t(n);
  return true;
}

bool TextLines::next(std::string_view* line) {
  std::size_t scanned = begin_;
  for (;;) {
    const void* nl = std::memchr(buf_.data() + scanned, '\n', end_ - scanned);
    if (nl) {
      const std::size_t at = std::size_t(static_cast<const char*>(nl) - buf_.data());
      std::size_t stop = at;
      if (stop > begin_ && buf_[stop - 1] == '\r') --stop;
      *line = std::string_view(buf_.data() + begin_, stop - begin_);
      begin_ = at + 1;
      ++line_;
      return true;
    }
    const std::size_t had = end_ - begin_;
    if (!fill()) break;
    scanned = begin_ + had;
  }
  if (begin_ == end_) {  // the end, after a final newline (or an empty file)
    check_unchanged();
    return false;
  }
  // A last line without a newline.
  std::size_t stop = end_;
  if (buf_[stop - 1] == '\r') --stop;
  *line = std::string_view(buf_.data() + begin_, stop - begin_);
  begin_ = end_;
  ++line_;
  return true;
}

}  // namespace geotrain
