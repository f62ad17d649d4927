#include "sagasu/regular_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "sagasu/error.h"

namespace sagasu {
namespace {

const char* what_it_is(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a file";
}

}  // namespace

RegularFile::RegularFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO with no writer returns at once (fstat then refuses it).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    m_error = std::strerror(errno);
    return;
  }
  if (::fstat(fd, &m_stat) != 0) {
    m_error = std::strerror(errno);
    ::close(fd);
    return;
  }
  if (!S_ISREG(m_stat.st_mode)) {
    m_error = fmt::format("not a regular file ({})", what_it_is(m_stat.st_mode));
    ::close(fd);
    return;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  m_fd = fd;
}

RegularFile::~RegularFile() {
  if (m_fd >= 0) ::close(m_fd);
}

bool inside_folder(const std::string& root, const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return false;
  const std::string_view r = real;
  const bool in = r.size() > root.size() && r.compare(0, root.size(), root) == 0 && r[root.size()] == '/';
  std::free(real);
  return in;
}

namespace {

// Where an open descriptor's file is ("" when the system does not say).
std::string opened_path(int fd) {
  char buf[4096];
  const std::string link = fmt::format("/proc/self/fd/{}", fd);
  const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf);
  return n > 0 && static_cast<std::size_t>(n) < sizeof buf ? std::string(buf, static_cast<std::size_t>(n))
                                                           : "";
}

std::string read_all(const RegularFile& file, std::string_view shown, std::uint64_t limit) {
  if (file.size() > limit)
    throw Error(fmt::format("{}: file too large ({} bytes, limit {})", shown, file.size(), limit));
  std::string data(static_cast<std::size_t>(file.size()), '\0');
  std::size_t got = 0;
  while (got < data.size()) {
    const ssize_t n = ::read(file.fd(), data.data() + got, data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(fmt::format("{}: cannot read: {}", shown, std::strerror(errno)));
    if (n == 0) break;  // cut short since fstat: what is there
    got += static_cast<std::size_t>(n);
  }
  data.resize(got);
  return data;
}

}  // namespace

std::string read_regular_file(const std::string& path, std::string_view shown, std::uint64_t limit) {
  const RegularFile file(path);
  if (!file) throw Error(fmt::format("{}: cannot read: {}", shown, file.error()));
  return read_all(file, shown, limit);
}

std::string read_vault_file(const std::string& root, const std::string& path, std::string_view shown,
                            std::uint64_t limit) {
  const RegularFile file(path);
  if (!file) throw Error(fmt::format("{}: cannot read: {}", shown, file.error()));
  const std::string real = opened_path(file.fd());
  if (real.size() <= root.size() || real.compare(0, root.size(), root) != 0 || real[root.size()] != '/')
    throw Error(fmt::format("{}: not inside the vault (a link out of it), not read", shown));
  return read_all(file, shown, limit);
}

}  // namespace sagasu
