// Whole-file writes that readers never see half done: a sweep resuming after a
// crash, a collector merging node reports, a restarted server reading its
// snapshot, a test polling for a config all read files another process may be
// writing at that moment.
#pragma once
#include <string>

namespace geotrain {

// Writes `content` to a temporary beside `path` named for this process and
// call, then renames it over `path` (atomic on POSIX filesystems), so
// concurrent writers of one file never collide: the last rename wins, whole. Throws std::runtime_error naming the file
// on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace geotrain
