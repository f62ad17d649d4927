// What a Xapian failure on an index means to the person running the command.
#pragma once

#include <string>
#include <string_view>

#include "sagasu/error.h"

namespace Xapian {
class Error;
}

namespace sagasu {

/// One Error naming the index: the disk is full (and the index is as it was
/// before the run), the system refused a read or write (its reason), the index
/// is damaged (and `rebuild` says how to rebuild it: "rebuild it with: indexer
/// --rebuild"), it changed under a long read (run again), or Xapian's own words.
Error index_failure(std::string_view index, const Xapian::Error& e, std::string_view rebuild);
/// The system's reason when Xapian failed because the system refused a read or
/// write ("Permission denied", "Read-only file system", "Input/output error"),
/// from the error or the one it wraps; "" when it failed for another reason.
std::string system_refusal(const Xapian::Error& e);
/// The damaged-index Error for a damage found by Sagasu itself (what: "document 10 has unreadable metadata").
Error damaged_index(std::string_view index, std::string_view what, std::string_view rebuild);
/// The indexer's `rebuild` (the searcher names the command: IndexSet::rebuild).
inline constexpr std::string_view REBUILD_INDEX = "rebuild it with --rebuild";

}  // namespace sagasu
