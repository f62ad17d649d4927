// What every fuzz target shares: a failed invariant aborts with its reason
// (libFuzzer saves the input), and an input is split into a needle line and
// a text the way the targets that need both read it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace sagasu::fuzz {

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "invariant broken: %s\n", what);
  std::abort();
}

#define SAGASU_FUZZ_CHECK(cond)               \
  do {                                        \
    if (!(cond)) ::sagasu::fuzz::fail(#cond); \
  } while (0)

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The first line (a needle or query) and the rest (the text).
inline std::pair<std::string_view, std::string_view> split_first_line(std::string_view in) {
  const auto nl = in.find('\n');
  if (nl == std::string_view::npos) return {in, {}};
  return {in.substr(0, nl), in.substr(nl + 1)};
}

/// Is byte offset `at` of text on a character boundary (not inside a UTF-8 sequence)?
inline bool on_boundary(std::string_view text, std::size_t at) {
  return at == text.size() || (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80);
}

}  // namespace sagasu::fuzz
