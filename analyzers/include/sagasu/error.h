// Errors thrown by Sagasu's libraries.
#pragma once

#include <stdexcept>
#include <string>

namespace sagasu {

/// A recoverable problem with one input (a note, a query, an index):
/// what() is one line naming the input and the reason.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Wrong arguments or a malformed query: the user must change the call.
class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace sagasu
