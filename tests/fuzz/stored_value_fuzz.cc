// The decoders of the values stored in the index (META, STATE, DIGEST,
// COVERAGE: stored_note.h) and of the coverage tally kept in its metadata
// (facet_coverage.h), on any bytes, as a damaged or hostile index would hand
// them. The first byte picks the decoder. Invariants: a value that
// decodes re-encodes to a value that decodes to the same encoding (the codec
// is stable), and a STATE's path read without decoding is the decoded path.
#include <cstdint>
#include <string>

#include "facet_coverage.h"
#include "fuzz_check.h"
#include "sagasu/error.h"
#include "sagasu/stored_note.h"

using namespace sagasu;

namespace {

template <typename Value>
void round_trip(std::string_view in) {
  const auto first = Value::decode(in);
  if (!first) return;
  const std::string encoded = first->encode();
  const auto second = Value::decode(encoded);
  SAGASU_FUZZ_CHECK(second.has_value());
  SAGASU_FUZZ_CHECK(second->encode() == encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view value = fuzz::as_text(data + 1, size - 1);
  try {
    switch (data[0] % 6) {
      case 0:
        round_trip<NoteMeta>(value);
        break;
      case 1:
        round_trip<FileState>(value);
        if (const auto s = FileState::decode(value)) SAGASU_FUZZ_CHECK(FileState::path_of(value) == s->path);
        break;
      case 2:
        round_trip<NoteDigest>(value);
        break;
      case 3:
        round_trip<NoteCoverage>(value);
        break;
      case 5: {
        if (const auto t = CoverageTally::decode(std::string(value))) {
          const auto again = CoverageTally::decode(t->encode());
          SAGASU_FUZZ_CHECK(again && again->encode() == t->encode());
          IndexReport report;
          t->fill(report);
        }
        break;
      }
      case 4: {
        std::string_view in = value;
        std::string field;
        while (get_field(in, field)) {
          std::string again;
          put_field(again, field);
          std::string_view back = again;
          std::string same;
          SAGASU_FUZZ_CHECK(get_field(back, same) && same == field && back.empty());
        }
        break;
      }
    }
  } catch (const Error&) {
    // a decoder may refuse a value with a reason
  }
  return 0;
}
