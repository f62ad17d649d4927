// What the indexer and searcher commands share around their libraries: one
// line per error ("indexer: notes/x.md: invalid UTF-8 at byte 12"), the exit
// status of an error, and output that survives a reader going away (| head).
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace sagasu::cli {

/// What the two commands are called: as installed (sagasu-index,
/// sagasu-search: names no other tool has), or as built (build/indexer/indexer,
/// build/searcher/searcher). Each command names itself as it was started, in
/// its messages and its usage line, and names the other one the same way.
struct CommandNames {
  std::string indexer = "indexer";
  std::string searcher = "searcher";
};

/// The installed names.
inline const CommandNames INSTALLED_NAMES{"sagasu-index", "sagasu-search"};

/// The names for a command started as argv0: the installed ones when its
/// file name is one of them, else the build's.
CommandNames command_names(const char* argv0);

/// The exit status of an error, for both commands.
inline constexpr int EXIT_ERROR = 2;

/// Writes s to standard output whole. A reader that went away (| head) is not
/// an error: the rest is dropped.
void write_out(std::string_view s);

/// Text from notes, file names or queries made safe for a terminal: control
/// characters (C0 but tab, and newline where keep_newlines; DEL; C1), the
/// bidirectional overrides and isolates, and bytes that are not UTF-8 become
/// visible escapes (\x1b, \u202e), so no note can move the cursor, set the
/// window title, write the clipboard or hide text. Everything else is kept.
std::string visible(std::string_view s, bool keep_newlines = false);

/// A count typed as an option's value: decimal digits only (no sign, no
/// suffix), at most `most`; anything else is a UsageError naming the option
/// ("--limit -3: expected a whole number from 0 to …").
std::uint64_t parse_count(std::string_view option, std::string_view value, std::uint64_t least = 0,
                          std::uint64_t most = UINT64_MAX);

/// An option whose value is a count, parsed by parse_count into `target` when
/// the options are notified (so "--limit -3" is an error, not 2^64 − 3).
template <class T>
boost::program_options::typed_value<std::string>* count_option(T& target, const char* option,
                                                                std::uint64_t least = 0,
                                                                std::uint64_t most = UINT64_MAX) {
  return boost::program_options::value<std::string>()->value_name("N")->notifier(
      [&target, option, least, most](const std::string& v) {
        target = static_cast<T>(parse_count(option, v, least, most));
      });
}

/// Runs a command's body and returns its exit status. SIGPIPE is ignored (a
/// closed pipe ends writes, not the process). An exception becomes one line on
/// standard error, "PROG: reason", and EXIT_ERROR; a UsageError is followed by
/// "Try 'PROG --help'." when usage_hint is set.
int run_command(std::string_view prog, bool usage_hint, const std::function<int()>& body);

}  // namespace sagasu::cli
