#include "sagasu/generation_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sagasu/error.h"
#include "sagasu/regular_file.h"

namespace sagasu::generation_file {

void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

void put64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

std::uint64_t get(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::string header(std::string_view magic, Xapian::rev revision) {
  std::string out(magic);
  put64(out, revision);
  return out;
}

bool describes(const std::string& file, std::string_view magic, Xapian::rev revision) {
  return revision != 0 && Mapped::open(file, magic, revision) != nullptr;
}

void replace(const std::string& file, std::string_view bytes, bool synced) {
  Writer out(file);
  out.append(bytes);
  out.commit(synced);
}

namespace {
constexpr std::size_t BUFFER = 1 << 20;
}  // namespace

Writer::Writer(std::string file) : m_file(std::move(file)), m_tmp(m_file + ".tmp") {
  m_fd = ::open(m_tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (m_fd < 0) throw Error(fmt::format("{}: cannot write: {}", m_tmp, std::strerror(errno)));
}

Writer::~Writer() {
  if (m_fd < 0) return;
  ::close(m_fd);
  ::unlink(m_tmp.c_str());
}

void Writer::write_out(const char* data, std::size_t size) {
  std::size_t done = 0;
  while (!m_failed && done < size) {
    const ssize_t n = ::write(m_fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      m_failed = true;
      m_errno = n < 0 ? errno : ENOSPC;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
}

void Writer::flush() {
  write_out(m_buffer.data(), m_buffer.size());
  m_buffer.clear();
}

void Writer::append(std::string_view bytes) {
  if (m_buffer.size() + bytes.size() > BUFFER) flush();
  if (bytes.size() > BUFFER) {
    write_out(bytes.data(), bytes.size());  // (a piece larger than the buffer goes out as it is)
    return;
  }
  // (A small file's buffer grows as it needs; a large file's is the whole buffer at once, not grown by
  // doubling.)
  if (const std::size_t need = m_buffer.size() + bytes.size();
      need > m_buffer.capacity() && need > BUFFER / 16)
    m_buffer.reserve(BUFFER);
  m_buffer.append(bytes);
}

void Writer::append32(const std::uint32_t* values, std::size_t count) {
  char bytes[4096];
  while (count) {
    const std::size_t n = std::min(count, sizeof bytes / 4);
    for (std::size_t i = 0; i < n; ++i)
      for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<char>((values[i] >> (8 * b)) & 0xFF);
    append(std::string_view(bytes, 4 * n));
    values += n;
    count -= n;
  }
}

void Writer::commit(bool synced) {
  flush();
  const bool ok = !m_failed && (!synced || ::fsync(m_fd) == 0);
  const int err = m_failed ? m_errno : errno;
  ::close(m_fd);
  m_fd = -1;
  if (!ok || ::rename(m_tmp.c_str(), m_file.c_str()) != 0) {
    const int why = ok ? errno : err;
    ::unlink(m_tmp.c_str());
    throw Error(fmt::format("{}: cannot write: {}", m_file, std::strerror(why)));
  }
  // The rename itself is durable once the folder is synced.
  if (!synced) return;
  const std::string folder = std::filesystem::path(m_file).parent_path().string();
  const int dfd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

std::unique_ptr<Mapped> Mapped::open(const std::string& file, std::string_view magic, Xapian::rev revision) {
  auto m = open(file);
  if (!m || m->size() < HEADER || std::memcmp(m->data(), magic.data(), magic.size()) != 0 ||
      get(m->data() + 8, 8) != revision)
    return nullptr;
  return m;
}

std::unique_ptr<Mapped> Mapped::open(const std::string& file) {
  const RegularFile in(file);
  if (!in || in.size() == 0) return nullptr;
  void* map = ::mmap(nullptr, static_cast<std::size_t>(in.size()), PROT_READ, MAP_SHARED, in.fd(), 0);
  if (map == MAP_FAILED) return nullptr;
  return std::unique_ptr<Mapped>(new Mapped(map, static_cast<std::size_t>(in.size())));
}

Mapped::~Mapped() {
  ::munmap(m_map, m_size);
}

}  // namespace sagasu::generation_file
