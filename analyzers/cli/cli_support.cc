#include "cli_support.h"

#include <fmt/format.h>
#include <unistd.h>
#include <xapian.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>

#include "sagasu/error.h"
#include "sagasu/unicode.h"

namespace sagasu::cli {

CommandNames command_names(const char* argv0) {
  std::string_view name = argv0 ? argv0 : "";
  if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  if (name == INSTALLED_NAMES.indexer || name == INSTALLED_NAMES.searcher) return INSTALLED_NAMES;
  return {};
}

void write_out(std::string_view s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(STDOUT_FILENO, s.data() + done, s.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // EPIPE and friends: the reader went away
    }
    done += static_cast<std::size_t>(n);
  }
}

std::uint64_t parse_count(std::string_view option, std::string_view value, std::uint64_t least,
                          std::uint64_t most) {
  std::uint64_t n = 0;
  bool ok = !value.empty() && value.size() <= 19;
  for (char c : value) ok = ok && c >= '0' && c <= '9' && (n = n * 10 + static_cast<std::uint64_t>(c - '0'), true);
  if (!ok || n < least || n > most)
    throw UsageError(most == UINT64_MAX
                         ? fmt::format("{} {}: expected a whole number, {} or more", option, value, least)
                         : fmt::format("{} {}: expected a whole number from {} to {}", option, value, least, most));
  return n;
}

std::string visible(std::string_view s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b >= 0x20 && b < 0x7f) {  // printable ASCII, the common case
      out += static_cast<char>(b);
      ++i;
      continue;
    }
    if (b == '\t' || (b == '\n' && keep_newlines)) {
      out += static_cast<char>(b);
      ++i;
      continue;
    }
    if (b < 0x80) {  // C0 and DEL
      out += fmt::format("\\x{:02x}", b);
      ++i;
      continue;
    }
    // A UTF-8 sequence (unicode.h decodes it; a byte that starts none is escaped alone).
    std::size_t next = i;
    const char32_t c = unicode::next_code_point(s, next);
    if (c == U'\uFFFD' && s.substr(i, 3) != "\xEF\xBF\xBD") {
      out += fmt::format("\\x{:02x}", b);
      ++i;
      continue;
    }
    const bool hidden =
        (c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
    if (hidden)
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(c));
    else
      out.append(s.substr(i, next - i));
    i = next;
  }
  return out;
}

int run_command(std::string_view prog, bool usage_hint, const std::function<int()>& body) {
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return body();
  } catch (const UsageError& e) {
    fmt::print(stderr, "{}: {}\n", prog, visible(e.what()));
    if (usage_hint) fmt::print(stderr, "Try '{} --help'.\n", prog);
  } catch (const Error& e) {
    fmt::print(stderr, "{}: {}\n", prog, visible(e.what()));
  } catch (const Xapian::Error& e) {
    fmt::print(stderr, "{}: index error: {}\n", prog, visible(e.get_description()));
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", prog, visible(e.what()));
  }
  return EXIT_ERROR;
}

}  // namespace sagasu::cli
