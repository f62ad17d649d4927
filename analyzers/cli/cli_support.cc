#include "cli_support.h"

#include <fmt/format.h>
#include <unistd.h>
#include <xapian.h>

#include <cerrno>
#include <csignal>
#include <cstdio>

#include "sagasu/error.h"

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

int run_command(std::string_view prog, bool usage_hint, const std::function<int()>& body) {
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return body();
  } catch (const UsageError& e) {
    fmt::print(stderr, "{}: {}\n", prog, e.what());
    if (usage_hint) fmt::print(stderr, "Try '{} --help'.\n", prog);
  } catch (const Error& e) {
    fmt::print(stderr, "{}: {}\n", prog, e.what());
  } catch (const Xapian::Error& e) {
    fmt::print(stderr, "{}: index error: {}\n", prog, e.get_description());
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", prog, e.what());
  }
  return EXIT_ERROR;
}

}  // namespace sagasu::cli
