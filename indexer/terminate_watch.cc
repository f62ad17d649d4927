#include "terminate_watch.h"

#include <fmt/format.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>

#include "sagasu/index_error.h"

namespace sagasu {
namespace {

std::string g_index;                 // the index of the run watched
TerminateWatch::Revisions g_before;  // the databases being committed, if any

[[noreturn]] void on_terminate() {
  // Thrown out of a function that may not throw, the error is nobody's to
  // rethrow: then the disk's free space is what there is to say.
  struct statvfs disk {};
  const unsigned long long free_kb =
      ::statvfs(g_index.c_str(), &disk) == 0 ? disk.f_bavail * disk.f_frsize / 1024 : 0;
  const bool disk_full = free_kb < 1024;
  bool xapian = false;
  std::string message = fmt::format(
      "{}: the run ended with {} KB free on the index's disk{}: nothing of this run was kept, the index is "
      "as "
      "it was; free some space and run again",
      g_index, free_kb, disk_full ? " (is it full?)" : "");
  if (const auto e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const Xapian::Error& x) {
      message = index_failure(g_index, x, REBUILD_INDEX).what();
      xapian = true;
    } catch (const std::exception& x) {
      message = fmt::format("{}: {}", g_index, x.what());
    } catch (...) {
    }
  }
  if (const std::size_t written = TerminateWatch::committed(g_before); written > 0)
    message = fmt::format(
        "{}: the commit ended inside Xapian after {} of {} shards took this run: the index "
        "answers, and the next run builds them again",
        g_index, written, g_before.size());
  const std::string line = fmt::format("{}: {}\n", program_invocation_short_name, message);
  [[maybe_unused]] const auto n = ::write(STDERR_FILENO, line.data(), line.size());
  // Neither a full disk nor Xapian's error: a bug of ours, which keeps its abort (and core).
  if (!disk_full && !xapian) {
    std::set_terminate(nullptr);
    std::abort();
  }
  ::_exit(2);  // the commands' exit status for an error
}

}  // namespace

TerminateWatch::TerminateWatch(const std::string& index) {
  g_index = index;
  g_before.clear();
  m_previous = std::set_terminate(&on_terminate);
}

TerminateWatch::~TerminateWatch() {
  std::set_terminate(m_previous);
}

TerminateWatch::Committing::Committing(Revisions before) {
  g_before = std::move(before);
}

TerminateWatch::Committing::~Committing() {
  g_before.clear();
}

std::size_t TerminateWatch::committed(const Revisions& before) {
  std::size_t written = 0;
  for (const auto& [folder, revision] : before) {
    try {
      written += Xapian::Database(folder).get_revision() != revision;
    } catch (...) {
    }
  }
  return written;
}

}  // namespace sagasu
