// Opening the files Sagasu reads (notes, config files, the dictionary and its
// cache, files beside an index) without trusting what they are: a FIFO, a
// device or a socket where a file is expected is refused at once, never a
// read or an open that blocks forever.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace sagasu {

/// A regular file opened for reading (closed with the object). Opened without
/// blocking, then checked with fstat: anything but a regular file is closed
/// again and is an error.
class RegularFile {
 public:
  explicit RegularFile(const std::string& path);
  ~RegularFile();
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  /// The descriptor, or -1 when the file could not be opened as a regular file.
  int fd() const { return m_fd; }
  explicit operator bool() const { return m_fd >= 0; }
  /// Why it could not be opened: "not a regular file (a FIFO)", or strerror.
  const std::string& error() const { return m_error; }
  std::uint64_t size() const { return static_cast<std::uint64_t>(m_stat.st_size); }

 private:
  int m_fd = -1;
  struct stat m_stat {};
  std::string m_error;
};

/// Does `path`, its symbolic links resolved, lie inside the folder `root`
/// (a resolved path)?
bool inside_folder(const std::string& root, const std::string& path);

/// The whole of a regular file. Throws Error "SHOWN: cannot read: WHY", or
/// "SHOWN: file too large (N bytes, limit L)" above `limit`.
std::string read_regular_file(const std::string& path, std::string_view shown,
                              std::uint64_t limit = UINT64_MAX);

/// The same for a file of a vault, which must be inside the folder `root` (a
/// resolved path) as it is opened: the check is made on the open descriptor,
/// so a symbolic link swapped in between a check and the open cannot lead
/// outside. Throws Error "SHOWN: not inside the vault (a link out of it), not
/// read" for one that is not.
std::string read_vault_file(const std::string& root, const std::string& path, std::string_view shown,
                            std::uint64_t limit = UINT64_MAX);

}  // namespace sagasu
