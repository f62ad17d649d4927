#include "sagasu/index_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sagasu/error.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

constexpr const char* STUB = "XAPIANDB";
constexpr const char* GEN_PREFIX = "gen-";

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Durable, atomic replacement of a small file: write a temporary, fsync, rename, fsync the folder.
void replace_file(const fs::path& p, const std::string& content) {
  const fs::path tmp = p.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(fmt::format("{}: cannot write: {}", tmp.string(), std::strerror(errno)));
  const bool ok = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), p.c_str()) != 0)
    throw Error(fmt::format("{}: cannot write: {}", p.string(), std::strerror(errno)));
  const int dfd = ::open(p.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace

IndexStore::IndexStore(const std::string& dir, bool wait) : m_dir(dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("{}: cannot create index folder: {}", dir, ec.message()));
  if (fs::exists(fs::path(dir) / "iamglass", ec) && !fs::exists(fs::path(dir) / STUB, ec))
    throw Error(fmt::format("{}: an index of an older Sagasu layout; remove the folder and index again", dir));
  const fs::path lock = fs::path(dir) / "lock";
  m_lock_fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (m_lock_fd < 0) throw Error(fmt::format("{}: cannot open the lock file: {}", lock.string(), std::strerror(errno)));
  if (::flock(m_lock_fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
    std::string holder = read_all(lock);
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    ::close(m_lock_fd);
    m_lock_fd = -1;
    if (errno == EWOULDBLOCK || errno == EAGAIN)
      throw Error(fmt::format("{}: index is locked by another indexer ({}); use --wait to wait for it", dir,
                              holder.empty() ? "holder unknown" : holder));
    throw Error(fmt::format("{}: cannot lock the index: {}", dir, std::strerror(errno)));
  }
  // Say who holds the lock: the next indexer names us in its message.
  char host[256] = "?";
  ::gethostname(host, sizeof host - 1);
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  const std::string info = fmt::format("pid {} on {}, since {}", ::getpid(), host, when);
  if (::ftruncate(m_lock_fd, 0) == 0 && ::pwrite(m_lock_fd, info.data(), info.size(), 0) < 0) {
    // The lock holds without the note; nothing else depends on it.
  }
}

IndexStore::~IndexStore() {
  if (m_lock_fd >= 0) {
    if (::ftruncate(m_lock_fd, 0) != 0) {
      // An old holder note is harmless: it is only read when the lock is taken.
    }
    ::flock(m_lock_fd, LOCK_UN);
    ::close(m_lock_fd);
  }
}

namespace {

// The names a stub lists ("auto NAME" lines).
std::vector<std::string> stub_names(const std::string& stub) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < stub.size()) {
    auto end = stub.find('\n', start);
    if (end == std::string::npos) end = stub.size();
    std::string line = stub.substr(start, end - start);
    start = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.rfind("auto ", 0) == 0 && line.size() > 5) names.push_back(line.substr(5));
  }
  return names;
}

constexpr const char* SHARD_PREFIX = "shard-";

}  // namespace

std::string IndexStore::current() const {
  const auto names = stub_names(read_all(fs::path(m_dir) / STUB));
  // "auto gen-000001\n"
  if (names.size() != 1 || names.front().find('/') != std::string::npos) return {};
  return names.front();
}

std::vector<std::string> IndexStore::shards() const {
  // "auto shard-0/gen-000001\nauto shard-1/gen-000003\n"
  std::vector<std::string> out;
  for (const auto& n : stub_names(read_all(fs::path(m_dir) / STUB))) {
    const auto slash = n.find('/');
    if (slash == std::string::npos || n.rfind(SHARD_PREFIX, 0) != 0) return {};
    out.push_back(n);
  }
  return out;
}

void IndexStore::switch_to_shards(const std::vector<std::string>& generations) {
  std::string stub;
  for (const auto& g : generations) stub += fmt::format("auto {}\n", g);
  replace_file(fs::path(m_dir) / STUB, stub);
  remove_stale();
}

Xapian::WritableDatabase IndexStore::open_current() {
  std::string name = current();
  if (name.empty() || !fs::exists(fs::path(m_dir) / name)) {
    std::string fresh;
    Xapian::WritableDatabase db = create_next(fresh);
    db.commit();
    switch_to(fresh);
    return db;
  }
  try {
    return Xapian::WritableDatabase((fs::path(m_dir) / name).string(), Xapian::DB_OPEN);
  } catch (const Xapian::DatabaseLockError&) {
    throw Error(fmt::format("{}: index is locked by another writer", m_dir));
  } catch (const Xapian::Error& e) {
    throw Error(fmt::format("{}: cannot open index: {}", m_dir, e.get_msg()));
  }
}

std::string IndexStore::next_name() const {
  // The next number after every generation folder present.
  unsigned long next = 1;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(m_dir, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(GEN_PREFIX, 0) == 0) next = std::max(next, std::strtoul(n.c_str() + 4, nullptr, 10) + 1);
  }
  return fmt::format("{}{:06}", GEN_PREFIX, next);
}

std::string IndexStore::path_of(const std::string& name) const { return (fs::path(m_dir) / name).string(); }

Xapian::WritableDatabase IndexStore::create_next(std::string& name) {
  name = next_name();
  try {
    return Xapian::WritableDatabase(path_of(name), Xapian::DB_CREATE_OR_OVERWRITE);
  } catch (const Xapian::Error& e) {
    throw Error(fmt::format("{}: cannot create index: {}", m_dir, e.get_msg()));
  }
}

void IndexStore::switch_to(const std::string& name) {
  replace_file(fs::path(m_dir) / STUB, fmt::format("auto {}\n", name));
  remove_stale();
}

void IndexStore::remove_stale() {
  std::vector<std::string> keep = stub_names(read_all(fs::path(m_dir) / STUB));
  for (auto& k : keep) k = k.substr(0, k.find('/'));  // a shard folder is kept whole
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(m_dir, ec)) {
    const std::string n = e.path().filename().string();
    if ((n.rfind(GEN_PREFIX, 0) == 0 || n.rfind(SHARD_PREFIX, 0) == 0) &&
        std::find(keep.begin(), keep.end(), n) == keep.end())
      fs::remove_all(e.path(), ec);
  }
}

}  // namespace sagasu
