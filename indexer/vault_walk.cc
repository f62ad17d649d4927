#include "vault_walk.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "sagasu/error.h"

namespace fs = std::filesystem;

namespace sagasu {
namespace {

// The vault-relative, '/'-separated path of p.
std::string rel_path(const fs::path& root, const fs::path& p) {
  return p.lexically_relative(root).generic_string();
}

bool wanted_extension(const fs::path& p, const std::vector<std::string>& exts) {
  return wanted_file_name(p.filename().string(), exts);
}

}  // namespace

bool hidden_name(std::string_view name) { return !name.empty() && name.front() == '.'; }

bool wanted_file_name(std::string_view name, const std::vector<std::string>& exts) {
  for (const auto& e : exts) {
    if (e == "*") return true;
    const std::string suffix = "." + e;
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return true;
  }
  return false;
}

VaultScan walk_vault(const IndexOptions& opts, IndexReport& report) {
  VaultScan scan;
  std::error_code ec;
  scan.root = fs::canonical(opts.vault, ec);
  if (ec || !fs::is_directory(scan.root))
    throw Error(fmt::format("{}: not a vault folder: {}", opts.vault, ec ? ec.message() : "not a directory"));
  const fs::path& root = scan.root;
  auto unreadable = [&](const fs::path& dir, const std::error_code& why) {
    report.skipped.push_back({rel_path(root, dir), fmt::format("cannot read folder: {}", why.message())});
    scan.unreadable_dirs.push_back(rel_path(root, dir));
  };
  // Hidden folders (.obsidian, .git, .sagasu, .trash) are not notes; symbolic
  // links to folders are not followed, so link loops cannot trap the walk.
  std::vector<fs::path> stack{root};
  while (!stack.empty()) {
    const fs::path dir = stack.back();
    stack.pop_back();
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
      unreadable(dir, ec);
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        unreadable(dir, ec);
        break;
      }
      const fs::path& p = it->path();
      const std::string name = p.filename().string();
      if (hidden_name(name)) continue;
      std::error_code sec;
      const bool is_link = it->is_symlink(sec);
      struct stat st {};
      if (::stat(p.c_str(), &st) != 0) {  // follows links
        if (wanted_extension(p, opts.extensions))
          report.skipped.push_back(
              {rel_path(root, p), is_link ? "broken symbolic link" : std::strerror(errno)});
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (is_link)
          report.warnings.push_back({rel_path(root, p), "symbolic link to a folder, not followed"});
        else
          stack.push_back(p);
        continue;
      }
      if (!wanted_extension(p, opts.extensions)) continue;
      if (!S_ISREG(st.st_mode)) {
        report.skipped.push_back({rel_path(root, p), "not a regular file"});
        continue;
      }
      scan.files.push_back({p, rel_path(root, p), static_cast<std::uint64_t>(st.st_size),
                            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec});
    }
  }
  std::sort(scan.files.begin(), scan.files.end(),
            [](const VaultFile& a, const VaultFile& b) { return a.path < b.path; });
  return scan;
}

std::string read_vault_file(const fs::path& file, const std::string& shown, std::uint64_t limit) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) throw Error(fmt::format("{}: cannot read: {}", shown, ec.message()));
  if (size > limit) throw Error(fmt::format("{}: file too large ({} bytes, limit {})", shown, size, limit));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot read: {}", shown, std::strerror(errno)));
  std::string data;
  data.resize(size);
  in.read(data.data(), static_cast<std::streamsize>(size));
  if (in.bad()) throw Error(fmt::format("{}: cannot read: {}", shown, std::strerror(errno)));
  data.resize(static_cast<std::size_t>(in.gcount()));
  return data;
}

std::string content_hash(std::string_view content) {
  return fmt::format("{:016x}", XXH3_64bits(content.data(), content.size()));
}

}  // namespace sagasu
