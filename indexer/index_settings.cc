#include "index_settings.h"

#include <fmt/format.h>
#include <xapian.h>

#include <filesystem>
#include <map>
#include <set>

#include "sagasu/error.h"
#include "sagasu/schema.h"
#include "sagasu/strings.h"

namespace sagasu {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> DEFAULT_EXTENSIONS{"md"};
constexpr std::uint64_t DEFAULT_MAX_FILE_BYTES = 8u << 20;

std::string joined(const std::vector<std::string>& extensions) { return fmt::format("{}", fmt::join(extensions, ",")); }

// The stored settings: "KEY\tVALUE" lines (ext, max-file-size, config).
std::map<std::string, std::string> decode_settings(const std::string& text) {
  std::map<std::string, std::string> out;
  for (const std::string& line : strings::split_nonempty(text, '\n'))
    if (const auto tab = line.find('\t'); tab != std::string::npos) out[line.substr(0, tab)] = line.substr(tab + 1);
  return out;
}

}  // namespace

std::string encode_settings(const IndexOptions& opts) {
  return fmt::format("ext\t{}\nmax-file-size\t{}\nconfig\t{}\n", joined(opts.extensions), opts.max_file_bytes,
                     opts.config);
}

std::vector<std::string> settle_options(IndexOptions& opts) {
  std::string vault, text;
  try {
    Xapian::Database db(opts.index);
    vault = db.get_metadata(std::string(schema::META_VAULT));
    text = db.get_metadata(std::string(schema::META_SETTINGS));
  } catch (const Xapian::Error&) {
    // no index yet, or one the run reports on when it opens it
  }
  const auto stored = decode_settings(text);
  auto kept = [&](const char* key) -> const std::string* {
    const auto it = stored.find(key);
    return it == stored.end() ? nullptr : &it->second;
  };
  std::vector<std::string> changed;
  if (opts.vault.empty()) {
    if (vault.empty())
      throw UsageError(fmt::format("--vault DIR is required: {} holds no index of a vault", opts.index));
    opts.vault = vault;
  }
  if (const std::string* ext = kept("ext")) {
    const auto before = strings::split_nonempty(*ext, ',');
    if (opts.extensions.empty())
      opts.extensions = before;
    else if (std::set(before.begin(), before.end()) != std::set(opts.extensions.begin(), opts.extensions.end()))
      changed.push_back(fmt::format("--ext {} (the index was built with --ext {})", joined(opts.extensions), *ext));
  }
  if (const std::string* max = kept("max-file-size")) {
    if (!opts.max_file_bytes)
      opts.max_file_bytes = std::stoull(*max);
    else if (std::to_string(opts.max_file_bytes) != *max)
      changed.push_back(fmt::format("--max-file-size {} (the index was built with {})", opts.max_file_bytes, *max));
  }
  if (const std::string* config = kept("config")) {
    if (opts.config.empty())
      opts.config = *config;
    else if (fs::absolute(opts.config).lexically_normal().string() != *config)
      changed.push_back(fmt::format("--config {} (the index was built with {})", opts.config,
                                    config->empty() ? "the vault's own" : *config));
  }
  if (opts.extensions.empty()) opts.extensions = DEFAULT_EXTENSIONS;
  if (!opts.max_file_bytes) opts.max_file_bytes = DEFAULT_MAX_FILE_BYTES;
  if (!opts.config.empty()) opts.config = fs::absolute(opts.config).lexically_normal().string();
  return changed;
}

void refuse_left_out(const IndexState& state, const VaultScan& scan, const IndexOptions& opts) {
  std::vector<std::string> left_out;
  std::set<std::string> endings(opts.extensions.begin(), opts.extensions.end());
  for (const std::string& path : state.vanished()) {
    const std::string name = fs::path(path).filename().string();
    std::error_code ec;
    if (wanted_file_name(name, opts.extensions) || !fs::is_regular_file(scan.root / path, ec)) continue;
    left_out.push_back(path);
    const auto dot = name.rfind('.');
    endings.insert(dot == std::string::npos ? name : name.substr(dot + 1));
  }
  if (left_out.empty()) return;
  throw Error(fmt::format(
      "{}: --ext {} leaves out {} note{} the index holds whose files are still in the vault ({}{}): index with "
      "--ext {} to keep them, or with --rebuild to drop them",
      opts.index, joined(opts.extensions), left_out.size(), left_out.size() == 1 ? "" : "s", left_out.front(),
      left_out.size() > 1 ? ", …" : "", fmt::join(endings, ",")));
}

}  // namespace sagasu
