#include "sagasu/index_error.h"

#include <fmt/format.h>
#include <xapian.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace sagasu {

Error damaged_index(std::string_view index, std::string_view what, std::string_view rebuild) {
  return Error(fmt::format("{}: the index is damaged ({}); {}", index, what, rebuild));
}

std::string system_refusal(const Xapian::Error& e) {
  // Xapian keeps the errno of a failed read or write as its text, and an
  // error it wraps (a failed commit's "Couldn't write new rev file") only in
  // its description, in parentheses.
  // Only a refusal counts: a table that is not there (ENOENT) is damage.
  const char* cause = e.get_error_string();
  const std::string description = e.get_description();
  for (const int err : {EACCES, EPERM, EROFS, EIO, ENOSPC, EDQUOT, EFBIG, EMFILE, ENFILE, ENOMEM, ENOTDIR})
    if (const std::string why = std::strerror(err);
        (cause && why == cause) || description.find("(" + why + ")") != std::string::npos)
      return why;
  return "";
}

Error index_failure(std::string_view index, const Xapian::Error& e, std::string_view rebuild) {
  const std::string why = system_refusal(e);
  if (why == std::strerror(ENOSPC) || why == std::strerror(EDQUOT))
    return Error(
        fmt::format("{}: the disk is full ({}): nothing of this run was kept, the index is as it was; "
                    "free some space and run again",
                    index, why));
  // Xapian's errors have no virtual functions to cast by: their type is a name.
  const std::string_view type = e.get_type();
  if (type == "DatabaseModifiedError")
    return Error(fmt::format("{}: the index changed while it was read; run again", index));
  // A read or write the system refused (EIO, EFBIG, EACCES…): not the index's
  // fault, and a rebuild would meet it too.
  if (!why.empty() &&
      (type == "DatabaseError" || type == "DatabaseCorruptError" || type == "DatabaseOpeningError"))
    return Error(fmt::format("{}: cannot read or write the index: {} ({})", index, why, e.get_msg()));
  // A table that cannot be read (cut short, a block that does not check); the
  // subclasses of DatabaseError (a lock, a folder that is not an index, …) say
  // something else.
  // A document the index's own lists name but cannot give is damage too.
  if (type == "DatabaseCorruptError" || type == "DatabaseError" || type == "DocNotFoundError")
    return damaged_index(index, e.get_description(), rebuild);
  return Error(fmt::format("{}: index error: {}", index, e.get_description()));
}

}  // namespace sagasu
