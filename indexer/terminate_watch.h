// Xapian 1.4 can end the process from inside a commit that meets a full disk:
// std::terminate, an error thrown out of a function that may not throw while
// it unwinds from ENOSPC (measured: about one update in four, and rebuilds'
// part commits, on a nearly full disk; the index survives at its last
// revision). While an index run lasts, that end prints the one line the error
// would have given, naming the index, and exits with an error's status (2);
// an end with neither Xapian's error nor a nearly full disk (under 1 MB free)
// is a bug of ours: the line, then the abort as before.
#pragma once

#include <xapian.h>

#include <exception>
#include <string>
#include <utility>
#include <vector>

namespace sagasu {

class TerminateWatch {
 public:
  /// The databases of an update being committed: their folders and
  /// revisions before the commit.
  using Revisions = std::vector<std::pair<std::string, Xapian::rev>>;

  /// Watches for the run on `index` (the previous handler back on destruction).
  explicit TerminateWatch(const std::string& index);
  ~TerminateWatch();
  TerminateWatch(const TerminateWatch&) = delete;
  TerminateWatch& operator=(const TerminateWatch&) = delete;

  /// While it lives, an end says whether any of these databases took the commit.
  struct Committing {
    explicit Committing(Revisions before);
    ~Committing();
  };

  /// How many of the databases are at another revision than before: how many took the commit.
  static std::size_t committed(const Revisions& before);

 private:
  std::terminate_handler m_previous = nullptr;
};

}  // namespace sagasu
