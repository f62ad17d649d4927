#include "vault_walk.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>

#include "parallel_for.h"
#include "sagasu/error.h"
#include "sagasu/regular_file.h"
#include "sagasu/strings.h"

namespace fs = std::filesystem;

namespace sagasu {
bool hidden_name(std::string_view name) {
  return !name.empty() && name.front() == '.';
}

bool wanted_file_name(std::string_view name, const std::vector<std::string>& exts) {
  // "*", or name ends in "." + e (and is more than that)
  return std::any_of(exts.begin(), exts.end(), [&](const std::string& e) {
    return e == "*" || (name.size() > e.size() + 1 && strings::ends_with(name, "." + e));
  });
}

namespace {

// An entry of a folder being walked, and what stating it found.
struct Entry {
  std::string name;
  unsigned char type = DT_UNKNOWN;  // as the folder listing says
  bool wanted = false;              // a name of the extensions wanted
  bool is_link = false;
  int error = 0;  // errno of a failed stat
  // What stating it found (kept small: a folder may hold tens of thousands of notes)
  mode_t mode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
};

// Stats the entries of one folder (relative to its descriptor, following
// links): on several threads when there are many, as a large vault keeps
// tens of thousands of notes in one folder.
void stat_entries(int fd, std::vector<Entry>& entries, unsigned jobs) {
  constexpr std::size_t CHUNK = 512;
  parallel_for((entries.size() + CHUNK - 1) / CHUNK, jobs, [&](std::size_t c, unsigned) {
    for (std::size_t i = c * CHUNK; i < std::min(entries.size(), (c + 1) * CHUNK); ++i) {
      Entry& e = entries[i];
      e.is_link = e.type == DT_LNK;
      if (e.type == DT_DIR) {
        e.mode = S_IFDIR;
        continue;
      }
      struct stat st {};
      if (e.type == DT_UNKNOWN && ::fstatat(fd, e.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
        e.is_link = S_ISLNK(st.st_mode);
      if (::fstatat(fd, e.name.c_str(), &st, 0) != 0) {
        e.error = errno;
        continue;
      }
      e.mode = st.st_mode;
      e.size = static_cast<std::uint64_t>(st.st_size);
      e.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    }
  });
}

// The entries of a folder that may be notes or folders, stated (those read
// before an error too); the error number when it cannot be read whole, else 0.
int read_folder(const std::string& path, const IndexOptions& opts, unsigned jobs,
                std::vector<Entry>& entries) {
  entries.clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* d = fd < 0 ? nullptr : ::fdopendir(fd);
  if (!d) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    return err;
  }
  int err = 0;
  while (true) {
    errno = 0;
    const dirent* e = ::readdir(d);
    if (!e) {
      err = errno;
      break;
    }
    const std::string_view name = e->d_name;
    if (name == "." || name == ".." || hidden_name(name)) continue;
    const bool wanted = wanted_file_name(name, opts.extensions);
    if (e->d_type == DT_REG && !wanted) continue;
    entries.push_back({std::string(name), e->d_type, wanted});
  }
  stat_entries(fd, entries, jobs);
  ::closedir(d);
  return err;
}

}  // namespace

// Folders are read with their descriptors and entries stated relative to
// them on every core (no path is looked up from the root again), and a
// regular file whose name is not wanted is not stated at all.
VaultScan walk_vault(const IndexOptions& opts, IndexReport& report) {
  VaultScan scan;
  std::error_code ec;
  scan.root = fs::canonical(opts.vault, ec);
  struct stat st {};
  if (ec || ::stat(scan.root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw Error(fmt::format("{}: not a vault folder: {}", opts.vault, ec ? ec.message() : "not a directory"));
  scan.device = st.st_dev;
  scan.inode = st.st_ino;
  const unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
  const std::string root = scan.root.string();
  auto shown = [](const std::string& rel) { return rel.empty() ? std::string(".") : rel; };
  auto unreadable = [&](const std::string& rel, int err) {
    report.skipped.push_back({shown(rel), fmt::format("cannot read folder: {}", std::strerror(err))});
    scan.unreadable_dirs.push_back(shown(rel));
  };
  // Hidden folders (.obsidian, .git, .sagasu, .trash) are not notes; symbolic
  // links to folders are not followed, so link loops cannot trap the walk; a
  // link to a file is followed only to a file inside the vault, so a vault
  // from a stranger cannot make /etc/passwd or ~/.ssh searchable.
  std::vector<std::string> stack{""};  // vault-relative folders; "" is the vault
  std::vector<Entry> entries;
  while (!stack.empty()) {
    const std::string dir = std::move(stack.back());
    stack.pop_back();
    if (const int err = read_folder(dir.empty() ? root : root + "/" + dir, opts, jobs, entries))
      unreadable(dir, err);
    // (Room for the folder's notes at once, growing as push_back would: a
    // large folder is not copied over in steps.)
    if (const std::size_t need = scan.files.size() + entries.size(); need > scan.files.capacity())
      scan.files.reserve(std::max(need, 2 * scan.files.capacity()));
    for (Entry& e : entries) {
      std::string rel = dir.empty() ? std::move(e.name) : dir + "/" + e.name;
      const bool wanted = e.wanted;
      if (e.error) {
        if (wanted)
          report.skipped.push_back({rel, e.is_link ? "broken symbolic link" : std::strerror(e.error)});
        continue;
      }
      if (S_ISDIR(e.mode)) {
        if (e.is_link)
          report.warnings.push_back({rel, "symbolic link to a folder, not followed"});
        else
          stack.push_back(std::move(rel));
        continue;
      }
      if (!wanted) continue;
      if (!S_ISREG(e.mode)) {
        report.skipped.push_back({rel, "not a regular file"});
        continue;
      }
      if (e.is_link && !inside_folder(root, root + "/" + rel)) {
        report.skipped.push_back({rel, "symbolic link to a file outside the vault, not followed"});
        continue;
      }
      scan.files.push_back({std::move(rel), e.size, e.mtime_ns});
    }
  }
  std::sort(scan.files.begin(), scan.files.end(),
            [](const VaultFile& a, const VaultFile& b) { return a.path < b.path; });
  return scan;
}

void check_vault_in_place(const VaultScan& scan, const IndexReport& report) {
  struct stat st {};
  if (::stat(scan.root.c_str(), &st) != 0 || st.st_dev != scan.device || st.st_ino != scan.inode)
    throw Error(
        fmt::format("{}: the vault folder moved or vanished during the run: the index is kept as it was",
                    scan.root.string()));
  std::size_t vanished = 0;
  for (const Skipped& s : report.skipped)
    if (::lstat((scan.root / s.path).c_str(), &st) != 0 && errno == ENOENT) ++vanished;
  if (vanished > 0 && 2 * vanished > scan.files.size())
    throw Error(fmt::format("{}: {} of its {} files vanished during the run: the index is kept as it was",
                            scan.root.string(), vanished, scan.files.size()));
}

std::string content_hash(std::string_view content) {
  ContentHash h;
  h.add(content);
  return h.hex();
}

ContentHash::ContentHash() : m_state(XXH3_createState()) {
  XXH3_64bits_reset(static_cast<XXH3_state_t*>(m_state));
}

ContentHash::~ContentHash() {
  XXH3_freeState(static_cast<XXH3_state_t*>(m_state));
}

void ContentHash::add(std::string_view bytes) {
  XXH3_64bits_update(static_cast<XXH3_state_t*>(m_state), bytes.data(), bytes.size());
}

std::string ContentHash::hex() const {
  return fmt::format("{:016x}", XXH3_64bits_digest(static_cast<const XXH3_state_t*>(m_state)));
}

}  // namespace sagasu
