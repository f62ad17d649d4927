#include "sagasu/index_layout.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sagasu/error.h"
#include "sagasu/regular_file.h"
#include "sagasu/strings.h"

namespace sagasu::layout {

std::string generation_name(unsigned long number) {
  return fmt::format("{}{:06}", GENERATION_PREFIX, number);
}

std::optional<unsigned long> generation_number(std::string_view name) {
  if (!strings::starts_with(name, GENERATION_PREFIX)) return std::nullopt;
  name.remove_prefix(GENERATION_PREFIX.size());
  const std::string digits(name.substr(0, name.find_first_not_of("0123456789")));
  if (digits.empty()) return std::nullopt;
  return std::strtoul(digits.c_str(), nullptr, 10);
}

std::string part_name(std::string_view generation, std::size_t part) {
  return fmt::format("{}.part{}", generation, part);
}

std::string shard_folder(std::size_t shard) {
  return fmt::format("{}{}", SHARD_PREFIX, shard);
}

bool owned_folder(std::string_view name) {
  return strings::starts_with(name, GENERATION_PREFIX) || strings::starts_with(name, SHARD_PREFIX);
}

std::vector<std::string> stub_entries(std::string_view text) {
  std::vector<std::string> entries;
  for (const auto& raw : strings::split(text, '\n')) {
    const std::string_view line = strings::trim(raw, " \r");
    if (strings::starts_with(line, "auto ") && line.size() > 5) entries.emplace_back(line.substr(5));
  }
  return entries;
}

std::string stub_text(const std::vector<std::string>& entries) {
  std::string text;
  for (const auto& e : entries) text += fmt::format("auto {}\n", e);
  return text;
}

// A stub file is a few lines; more than this is no stub of ours.
constexpr std::uint64_t STUB_LIMIT = 1 << 20;

std::vector<std::string> read_stub(const std::string& index_dir) {
  const std::string stub = (std::filesystem::path(index_dir) / STUB_FILE).string();
  try {
    return stub_entries(read_regular_file(stub, stub, STUB_LIMIT));
  } catch (const Error&) {
    return {};  // none, or not a file: opening the index says what is wrong
  }
}

std::optional<ShardEntry> shard_entry(std::string_view entry) {
  const auto slash = entry.find('/');
  if (slash == std::string_view::npos || !strings::starts_with(entry, SHARD_PREFIX)) return std::nullopt;
  return ShardEntry{std::string(entry.substr(0, slash)), std::string(entry.substr(slash + 1))};
}

}  // namespace sagasu::layout
