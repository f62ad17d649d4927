// --open: a hit opened in the user's editor at its first matching line, or a
// file at a line (what sagasu-fzf does on Enter). Only the command does this.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagasu {

/// What --open names: the Nth hit, or a file and a line ("notes/x.md:12").
struct OpenTarget {
  std::size_t rank = 0;  ///< the Nth hit (1-based); 0 when a file is named
  std::string file;
  std::size_t line = 1;
};

/// Reads --open's argument: "N" (N >= 1) or "FILE:LINE"; throws UsageError otherwise.
OpenTarget parse_open_target(const std::string& arg);

/// The editor of the environment: $VISUAL, else $EDITOR; nullopt when neither is set.
std::optional<std::string> editor_from_environment();

/// The arguments that open file at line and column in editor (a command line,
/// as $EDITOR holds it, e.g. "code --wait"), by the editor program's name:
/// "--goto FILE:LINE:COL" for VS Code and its kin, "FILE:LINE:COL" for
/// Sublime Text, Helix and Zed, "+LINE FILE" for the rest (vi, Vim, Neovim,
/// Emacs, nano, micro, Kakoune, joe, gedit, less …).
std::vector<std::string> editor_arguments(std::string_view editor, const std::string& file, std::size_t line,
                                          std::size_t column);

/// Runs editor with args on the terminal (through /bin/sh, so $EDITOR may
/// hold options), waits for it and returns its exit status; throws Error when
/// it cannot be run or is killed.
int run_editor(const std::string& editor, const std::vector<std::string>& args);

}  // namespace sagasu
