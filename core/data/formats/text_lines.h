// A text file read line by line, plain or gzip'd (zlib's gzread passes a
// plain file through), in bounded memory: one buffer of 1 MiB that grows to
// hold the longest line, never past `max_line_bytes`. Every error names the
// file and the line: a line longer than the limit, a read error, a gzip stream
// cut short, a file whose size or modification time changed while it was read.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace geotrain {

class TextLines {
 public:
  static constexpr std::size_t kDefaultMaxLine = std::size_t(64) << 20;

  // Throws std::runtime_error when the file cannot be opened.
  explicit TextLines(std::string path, std::size_t max_line_bytes = kDefaultMaxLine);
  ~TextLines();
  TextLines(const TextLines&) = delete;
  TextLines& operator=(const TextLines&) = delete;

  // The next line, without its "\n" or "\r\n"; false at the end of the file
  // (then checks that the file did not change). Valid until the next call.
  bool next(std::string_view* line);
  std::int64_t line_number() const { return line_; }  // of the line last returned, from 1
  const std::string& path() const { return path_; }
  // Throws std::runtime_error "<path>:<line>: <what>".
  [[noreturn]] void fail(const std::string& what) const;
  // The same, with the column (from 1) of the field at fault.
  [[noreturn]] void fail(std::int64_t column, const std::string& what) const;
  // "<path>:<line>: column <column> (<name>): <what>".
  [[noreturn]] void fail(std::int64_t column, const std::string& name, const std::string& what) const;

 private:
  struct Closer {
    void operator()(void* f) const;
  };
  bool fill();  // reads more into the buffer; false at the end of the file
  void check_unchanged() const;

  std::string path_;
  std::size_t max_line_;
  std::unique_ptr<void, Closer> file_;  // a gzFile
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;  // the unread bytes
  bool eof_ = false;
  std::int64_t line_ = 0;
  std::int64_t size_ = 0, mtime_ns_ = 0;  // at open
};

}  // namespace geotrain
