#include "index_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "sagasu/error.h"
#include "sagasu/generation_file.h"
#include "sagasu/index_layout.h"
#include "sagasu/strings.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The lock file's note on its holder ("pid 4242 on host, since …"), "" when none.
std::string holder_note(const fs::path& lock) {
  return std::string(strings::trim(read_all(lock), " \n"));
}

}  // namespace

// The lock file of a folder, locked by this process: one per folder, shared
// by every WriterLock of it (the registry finds it by the folder's device and inode).
struct HeldLock {
  int fd = -1;
  pid_t pid = ::getpid();  // a forked child holds nothing
  std::pair<dev_t, ino_t> id;
  std::string taken_over;  // the note a holder that never released the lock left
  ~HeldLock();
};

namespace {

std::mutex g_held_mutex;
std::map<std::pair<dev_t, ino_t>, std::weak_ptr<HeldLock>> g_held;

std::shared_ptr<HeldLock> take_lock(const std::string& dir, bool wait, const std::string& purpose) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    throw Error(fmt::format("{}: cannot lock the index: {}", dir, std::strerror(errno)));
  const std::pair<dev_t, ino_t> id{st.st_dev, st.st_ino};
  std::lock_guard<std::mutex> guard(g_held_mutex);
  if (auto held = g_held[id].lock(); held && held->pid == ::getpid()) return held;  // this process holds it
  const fs::path lock = fs::path(dir) / layout::LOCK_FILE;
  auto held = std::make_shared<HeldLock>();
  held->id = id;
  held->fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (held->fd < 0)
    throw Error(fmt::format("{}: cannot open the lock file: {}", lock.string(), std::strerror(errno)));
  if (::flock(held->fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
    const int why = errno;
    const std::string holder = holder_note(lock);
    ::close(held->fd);
    held->fd = -1;
    if (why == EWOULDBLOCK || why == EAGAIN)
      throw Error(fmt::format("{}: index is locked by another indexer ({}); use --wait to wait for it", dir,
                              holder.empty() ? "holder unknown" : holder));
    throw Error(fmt::format("{}: cannot lock the index: {}", dir, std::strerror(why)));
  }
  // A holder releases the lock with an empty note: a note still there names
  // one that ended without releasing it (killed, or its machine gone).
  held->taken_over = holder_note(lock);
  // Say who holds the lock: the next indexer names us in its message.
  char host[256] = "?";
  ::gethostname(host, sizeof host - 1);
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::string info = fmt::format("pid {} on {}, since {}", ::getpid(), host, when);
  if (!purpose.empty()) info += ", " + purpose;
  if (::ftruncate(held->fd, 0) == 0 && ::pwrite(held->fd, info.data(), info.size(), 0) < 0) {
    // The lock holds without the note; nothing else depends on it.
  }
  g_held[id] = held;
  return held;
}

}  // namespace

HeldLock::~HeldLock() {
  if (fd < 0 || pid != ::getpid()) return;
  if (::ftruncate(fd, 0) != 0) {
    // An old holder note is harmless: it is only read when the lock is taken.
  }
  ::flock(fd, LOCK_UN);
  ::close(fd);
  std::lock_guard<std::mutex> guard(g_held_mutex);
  if (auto it = g_held.find(id); it != g_held.end() && it->second.expired()) g_held.erase(it);
}

WriterLock::WriterLock(const std::string& dir, bool wait, const std::string& purpose)
    : m_held(take_lock(dir, wait, purpose)) {}

const std::string& WriterLock::taken_over() const {
  return m_held->taken_over;
}

IndexStore::IndexStore(const std::string& dir, bool wait, bool create) : m_dir(dir) {
  std::error_code ec;
  if (!create && !fs::exists(dir, ec)) return;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("{}: cannot create index folder: {}", dir, ec.message()));
  if (fs::exists(fs::path(dir) / "iamglass", ec) && !fs::exists(fs::path(dir) / layout::STUB_FILE, ec))
    throw Error(
        fmt::format("{}: an index of an older Sagasu layout; remove the folder and index again", dir));
  m_lock = std::make_unique<WriterLock>(dir, wait);
}

IndexStore::~IndexStore() = default;

const std::string& IndexStore::lock_taken_over() const {
  static const std::string none;
  return m_lock ? m_lock->taken_over() : none;
}

std::string IndexStore::current() const {
  const auto names = layout::read_stub(m_dir);
  if (names.size() != 1 || names.front().find('/') != std::string::npos) return {};
  return names.front();
}

std::vector<std::string> IndexStore::shards() const {
  std::vector<std::string> out;
  for (const auto& n : layout::read_stub(m_dir)) {
    if (!layout::shard_entry(n)) return {};
    out.push_back(n);
  }
  return out;
}

void IndexStore::switch_to_shards(const std::vector<std::string>& generations) {
  generation_file::replace((fs::path(m_dir) / layout::STUB_FILE).string(), layout::stub_text(generations));
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
  for (const auto& e : fs::directory_iterator(m_dir, ec))
    if (const auto n = layout::generation_number(e.path().filename().string())) next = std::max(next, *n + 1);
  return layout::generation_name(next);
}

std::string IndexStore::path_of(const std::string& name) const {
  return (fs::path(m_dir) / name).string();
}

Xapian::WritableDatabase IndexStore::create_next(std::string& name) {
  name = next_name();
  try {
    return Xapian::WritableDatabase(path_of(name), Xapian::DB_CREATE_OR_OVERWRITE);
  } catch (const Xapian::Error& e) {
    throw Error(fmt::format("{}: cannot create index: {}", m_dir, e.get_msg()));
  }
}

void IndexStore::switch_to(const std::string& name) {
  generation_file::replace((fs::path(m_dir) / layout::STUB_FILE).string(), layout::stub_text({name}));
  remove_stale();
}

void IndexStore::remove_stale() {
  std::vector<std::string> keep = layout::read_stub(m_dir);
  for (auto& k : keep) k = k.substr(0, k.find('/'));  // a shard folder is kept whole
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(m_dir, ec)) {
    const std::string n = e.path().filename().string();
    if (layout::owned_folder(n) && std::find(keep.begin(), keep.end(), n) == keep.end())
      fs::remove_all(e.path(), ec);
  }
}

}  // namespace sagasu
