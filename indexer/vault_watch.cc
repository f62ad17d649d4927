// The watch: a vault kept indexed while it changes. inotify tells which
// folders saw something; the watch only decides *when* to run, and each run
// is run_index, so the index a watch keeps is the one run_index makes (the
// incremental-equals-rebuild and crash guarantees carry over unchanged).
//
// Why a batch is cheap without a second code path: run_index's incremental
// path already reads no unchanged file (size and mtime), parses only changed
// notes, reuses the kept entity resolution when no note's links changed, and
// writes one transaction. What a watch adds is that the writer lock is held
// across runs and that a burst of events is one run.
#include <fcntl.h>
#include <fmt/format.h>
#include <malloc.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unordered_map>

#include "index_store.h"
#include "sagasu/error.h"
#include "sagasu/indexer.h"
#include "vault_walk.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

// What a folder is watched for: files written, created, removed, moved, their
// mode or mtime changed (touch, chmod); the folder itself gone.
constexpr std::uint32_t FOLDER_EVENTS = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE |
                                        IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR |
                                        IN_DONT_FOLLOW | IN_EXCL_UNLINK;

// The vault's own settings folder: hidden, so not walked for notes, but its
// config and override files change what the index holds.
constexpr const char* SETTINGS_FOLDER = ".sagasu";

bool settings_file(std::string_view name) {
  return name == "config.yaml" || name == "entities.tsv";
}

std::string child_of(const std::string& folder, std::string_view name) {
  return folder.empty() ? std::string(name) : folder + "/" + std::string(name);
}

std::string watch_limit() {
  std::ifstream in("/proc/sys/fs/inotify/max_user_watches");
  std::string n;
  in >> n;
  return n.empty() ? "?" : n;
}

}  // namespace

struct VaultWatch::Impl {
  IndexOptions opts;
  WatchSettings settings;
  fs::path root, index_dir;
  std::unique_ptr<WriterLock> lock;
  int fd = -1;
  int stop_read = -1, stop_write = -1;
  std::unordered_map<int, std::string> folders;  // watch descriptor → vault-relative folder ("" = the vault)
  bool first_run = true;

  ~Impl() {
    for (int f : {fd, stop_read, stop_write})
      if (f >= 0) ::close(f);
  }

  // Watches folder rel and the folders below it (not hidden ones, not symbolic links).
  void watch_tree(const std::string& rel) {
    std::vector<std::string> stack{rel};
    while (!stack.empty()) {
      const std::string folder = stack.back();
      stack.pop_back();
      if (!watch_one(folder)) continue;
      std::error_code ec;
      for (fs::directory_iterator it(root / folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code sec;
        if (it->is_symlink(sec) || !it->is_directory(sec)) continue;
        if (!hidden_name(name))
          stack.push_back(child_of(folder, name));
        else if (folder.empty() && name == SETTINGS_FOLDER)
          watch_one(SETTINGS_FOLDER);
      }
    }
  }

  // Watches one folder; false when it is not watched (the index folder, or gone).
  bool watch_one(const std::string& rel) {
    const fs::path dir = root / rel;
    std::error_code ec;
    const fs::path real = fs::canonical(dir, ec);
    if (ec) return false;
    if (!index_dir.empty() &&
        (real == index_dir || real.lexically_relative(index_dir).native().rfind("..", 0) != 0))
      return false;
    const int wd = ::inotify_add_watch(fd, dir.c_str(), FOLDER_EVENTS);
    if (wd < 0) {
      if (errno == ENOSPC)
        throw Error(
            fmt::format("{}: cannot watch: the system's inotify watch limit is reached "
                        "(fs.inotify.max_user_watches = {}); "
                        "raise it, e.g. sysctl fs.inotify.max_user_watches=524288",
                        dir.string(), watch_limit()));
      if (errno == ENOMEM) throw Error(fmt::format("{}: cannot watch: out of kernel memory", dir.string()));
      return false;  // gone or unreadable: the next run reports an unreadable folder
    }
    folders[wd] = rel;
    return true;
  }

  // Stops watching folder rel and the folders below it (moved away).
  void unwatch_tree(const std::string& rel) {
    for (auto it = folders.begin(); it != folders.end();) {
      if (it->second == rel || it->second.rfind(rel + "/", 0) == 0) {
        ::inotify_rm_watch(fd, it->first);
        it = folders.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Reads the pending events; true when one of them concerns the index.
  bool read_events() {
    bool relevant = false;
    alignas(inotify_event) char buf[64 * 1024];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN) return relevant;
        throw Error(
            fmt::format("{}: cannot read the vault's changes: {}", root.string(), std::strerror(errno)));
      }
      for (ssize_t at = 0; at < n;) {
        const auto* ev = reinterpret_cast<const inotify_event*>(buf + at);
        at += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
        relevant |= handle(*ev);
      }
    }
  }

  bool handle(const inotify_event& ev) {
    if (ev.mask & IN_Q_OVERFLOW) {  // events were lost: watch every folder again, and run
      watch_tree("");
      return true;
    }
    const auto it = folders.find(ev.wd);
    if (it == folders.end()) return false;
    const std::string folder = it->second;
    if (ev.mask & IN_IGNORED) {  // the folder is gone (its parent says so too)
      folders.erase(it);
      return false;
    }
    if (ev.mask & (IN_DELETE_SELF | IN_MOVE_SELF)) return folder.empty();  // the vault itself
    const std::string_view name = ev.len ? std::string_view(ev.name) : std::string_view();
    if (name.empty()) return false;
    if (folder == SETTINGS_FOLDER) return !(ev.mask & IN_ISDIR) && settings_file(name);
    if (hidden_name(name)) {  // swap files, .obsidian/, .git/; .sagasu/ appearing is watched
      if ((ev.mask & IN_ISDIR) && folder.empty() && name == SETTINGS_FOLDER &&
          (ev.mask & (IN_CREATE | IN_MOVED_TO))) {
        watch_one(SETTINGS_FOLDER);
        return true;
      }
      return false;
    }
    if (ev.mask & IN_ISDIR) {
      const std::string child = child_of(folder, name);
      if (ev.mask & (IN_CREATE | IN_MOVED_TO)) watch_tree(child);  // its files are found by the run's walk
      if (ev.mask & IN_MOVED_FROM) unwatch_tree(child);
      return true;
    }
    return wanted_file_name(name, opts.extensions);
  }
};

VaultWatch::VaultWatch(const IndexOptions& opts, WatchSettings settings) : m(std::make_unique<Impl>()) {
  m->opts = opts;
  settle_options(m->opts);
  m->settings = settings;
  std::error_code ec;
  m->root = fs::canonical(m->opts.vault, ec);
  if (ec || !fs::is_directory(m->root))
    throw Error(fmt::format("{}: not a vault folder: {}", m->opts.vault, ec ? ec.message() : "not a directory"));
  fs::create_directories(m->opts.index, ec);
  if (ec) throw Error(fmt::format("{}: cannot create index folder: {}", m->opts.index, ec.message()));
  m->index_dir = fs::canonical(m->opts.index, ec);
  m->lock = std::make_unique<WriterLock>(m->opts.index, m->opts.wait, "watching " + m->root.string());
  m->fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  int pipe_fds[2];
  if (m->fd < 0 || ::pipe2(pipe_fds, O_NONBLOCK | O_CLOEXEC) != 0)
    throw Error(fmt::format("{}: cannot watch: {}", m->root.string(), std::strerror(errno)));
  m->stop_read = pipe_fds[0];
  m->stop_write = pipe_fds[1];
  m->watch_tree("");
}

VaultWatch::~VaultWatch() = default;

IndexReport VaultWatch::index() {
  IndexReport report = run_index(m->opts);
  ::malloc_trim(0);  // a run's peak memory goes back to the system while the watch waits
  if (m->first_run) {
    m->first_run = false;
    m->opts.rebuild = false;
    m->opts.progress = nullptr;  // the first run's progress display is gone
    m->opts.phase = nullptr;
  }
  return report;
}

bool VaultWatch::wait() {
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> first, last;
  for (;;) {
    int timeout = -1;  // nothing pending: sleep until the kernel has news
    if (first) {
      const auto until = std::min(*last + m->settings.settle, *first + m->settings.longest);
      timeout = static_cast<int>(
          std::max<long long>(0, std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count()));
    }
    pollfd fds[2] = {{m->stop_read, POLLIN, 0}, {m->fd, POLLIN, 0}};
    const int n = ::poll(fds, 2, timeout);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(fmt::format("{}: cannot wait for changes: {}", m->root.string(), std::strerror(errno)));
    }
    if (fds[0].revents) return false;
    if (n == 0) return true;  // settled
    if (m->read_events()) {
      const auto now = Clock::now();
      if (!first) first = now;
      last = now;
    }
  }
}

void VaultWatch::stop() noexcept {
  const char byte = 1;
  if (::write(m->stop_write, &byte, 1) < 0) {
    // The pipe is full: a stop is pending already.
  }
}

std::size_t VaultWatch::folders() const {
  return m->folders.size();
}

}  // namespace sagasu
