#include "open.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "sagasu/error.h"

namespace sagasu {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// The program of an editor command line: its first word's file name ("code" of "/usr/bin/code --wait").
std::string_view program_of(std::string_view editor) {
  const auto begin = editor.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  editor.remove_prefix(begin);
  editor = editor.substr(0, editor.find_first_of(" \t"));
  if (const auto slash = editor.rfind('/'); slash != std::string_view::npos) editor.remove_prefix(slash + 1);
  return editor;
}

}  // namespace

OpenTarget parse_open_target(const std::string& arg) {
  OpenTarget t;
  if (all_digits(arg)) {
    t.rank = std::strtoul(arg.c_str(), nullptr, 10);
    if (t.rank == 0) throw UsageError("--open 0: hits are counted from 1");
    return t;
  }
  const auto colon = arg.rfind(':');
  if (colon == std::string::npos || colon == 0 || !all_digits(std::string_view(arg).substr(colon + 1)))
    throw UsageError(fmt::format("--open {}: expected the number of a hit (--open 2) or FILE:LINE", arg));
  t.file = arg.substr(0, colon);
  t.line = std::max<std::size_t>(1, std::strtoul(arg.c_str() + colon + 1, nullptr, 10));
  return t;
}

std::optional<std::string> editor_from_environment() {
  for (const char* var : {"VISUAL", "EDITOR"})
    if (const char* e = std::getenv(var); e && *e) return std::string(e);
  return std::nullopt;
}

std::vector<std::string> editor_arguments(std::string_view editor, const std::string& file, std::size_t line,
                                          std::size_t column) {
  const std::string_view program = program_of(editor);
  // A relative path is given as ./PATH: a note named "-c!cmd.md" or "+!cmd.md" is never an editor's option.
  const std::string path = file.empty() || file.front() == '/' ? file : "./" + file;
  const std::string at = fmt::format("{}:{}:{}", path, line, column);
  for (const char* p : {"code", "code-insiders", "codium", "vscodium", "cursor"})
    if (program == p) return {"--goto", at};
  for (const char* p : {"subl", "sublime_text", "hx", "helix", "zed"})
    if (program == p) return {at};
  return {fmt::format("+{}", line), path};
}

int run_editor(const std::string& editor, const std::vector<std::string>& args) {
  // As git runs core.editor: sh -c 'EDITOR "$@"' EDITOR ARG…, so "code --wait" works.
  std::vector<std::string> argv{"/bin/sh", "-c", editor + " \"$@\"", editor};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  // While the editor runs, a Ctrl-C or Ctrl-\ is the editor's, not ours (as git does).
  struct sigaction ignore {
  }, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  const pid_t child = ::fork();
  if (child == 0) {
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    ::signal(SIGPIPE, SIG_DFL);  // the searcher ignores it; the editor should not inherit that
    ::execv("/bin/sh", cargv.data());
    ::_exit(127);
  }
  const int fork_errno = errno;
  int status = 0;
  bool waited = child > 0;
  while (waited && ::waitpid(child, &status, 0) < 0)
    if (errno != EINTR) waited = false;
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (child < 0)
    throw Error(fmt::format("cannot start the editor '{}': {}", editor, std::strerror(fork_errno)));
  if (!waited) throw Error(fmt::format("editor '{}': {}", editor, std::strerror(errno)));
  if (WIFSIGNALED(status))
    throw Error(fmt::format("editor '{}' was killed (signal {})", editor, WTERMSIG(status)));
  return WEXITSTATUS(status);
}

}  // namespace sagasu
