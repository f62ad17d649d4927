// What the indexer and searcher commands share around their libraries: one
// line per error ("indexer: notes/x.md: invalid UTF-8 at byte 12"), the exit
// status of an error, and output that survives a reader going away (| head).
#pragma once

#include <functional>
#include <string_view>

namespace sagasu::cli {

/// The exit status of an error, for both commands.
inline constexpr int EXIT_ERROR = 2;

/// Writes s to standard output whole. A reader that went away (| head) is not
/// an error: the rest is dropped.
void write_out(std::string_view s);

/// Runs a command's body and returns its exit status. SIGPIPE is ignored (a
/// closed pipe ends writes, not the process). An exception becomes one line on
/// standard error, "PROG: reason", and EXIT_ERROR; a UsageError is followed by
/// "Try 'PROG --help'." when usage_hint is set.
int run_command(std::string_view prog, bool usage_hint, const std::function<int()>& body);

}  // namespace sagasu::cli
