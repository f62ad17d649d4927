// Small string helpers shared by every part of Sagasu (joining: fmt::join).
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu::strings {

/// Does s begin with p?
inline bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}
/// Does s end with p?
inline bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

/// s without leading and trailing characters of blanks.
inline std::string_view trim(std::string_view s, std::string_view blanks = " \t\r") {
  const auto b = s.find_first_not_of(blanks);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(blanks) - b + 1);
}

/// The offset of the first needle in s at or after from, or npos. glibc's memmem
/// (two-way): std::string::find scans for the first byte, which in Japanese
/// text (0xE3 starts most kana) stops at nearly every character.
inline std::size_t find(std::string_view s, std::string_view needle, std::size_t from = 0) {
  if (from > s.size()) return std::string_view::npos;
  if (needle.empty()) return from;
  // Also keeps an empty s, whose data() may be null, from memmem (its arguments are nonnull).
  if (needle.size() > s.size() - from) return std::string_view::npos;
  const void* at = ::memmem(s.data() + from, s.size() - from, needle.data(), needle.size());
  return at ? static_cast<std::size_t>(static_cast<const char*>(at) - s.data()) : std::string_view::npos;
}
/// Does s hold needle?
inline bool contains(std::string_view s, std::string_view needle) {
  return find(s, needle) != std::string_view::npos;
}

/// The fields of s between separators, empty ones included ("a,,b" → a, "", b; "" → one empty field).
inline std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  while (true) {
    const auto p = s.find(sep);
    out.emplace_back(s.substr(0, p));
    if (p == std::string_view::npos) return out;
    s.remove_prefix(p + 1);
  }
}

/// The non-empty fields of s between separators ("a\n\nb\n" → a, b).
inline std::vector<std::string> split_nonempty(std::string_view s, char sep) {
  std::vector<std::string> out;
  for (auto& f : split(s, sep))
    if (!f.empty()) out.push_back(std::move(f));
  return out;
}

/// The edit (Levenshtein) distance of two sequences: of bytes for std::string,
/// of code points for std::u32string (unicode::code_points).
template <class S>
std::size_t edit_distance(const S& a, const S& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace sagasu::strings
