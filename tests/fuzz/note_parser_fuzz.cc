// The note parser and the metadata read from a parsed note: front matter
// (YAML), wikilinks, relation lists, property tables, inline fields, the
// flattened one-line form. Any bytes: a note that is not UTF-8 is refused with
// an Error, never misread. Invariants: a link target holds no line break, a
// year read from the metadata has four digits, and each gloss the note
// states (glossary.h) has two non-empty sides, each valid UTF-8.
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "glossary.h"
#include "note_metadata.h"
#include "sagasu/error.h"
#include "sagasu/note.h"
#include "sagasu/unicode.h"

using namespace sagasu;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const NoteParser parser;
  static const VaultConfig config;
  const std::string_view content = fuzz::as_text(data, size);
  Note note;
  try {
    note = parser.parse("notes/@2024__NSDI__Fuzz - 試験.md", content);
  } catch (const Error&) {
    return 0;  // refused with a reason (invalid UTF-8)
  }
  (void)note.display_title();
  (void)note.hidden_link_targets();
  for (const auto& link : note.links) {
    SAGASU_FUZZ_CHECK(link.target.find('\n') == std::string::npos);
    (void)parse_citation(link.target);
    (void)is_attachment(link.target);
  }
  const NoteMetadata meta = read_metadata(note, config);
  for (const auto& y : meta.years) SAGASU_FUZZ_CHECK(y.value.size() == 4);
  for (const Gloss& g : learn_glosses(note)) {
    SAGASU_FUZZ_CHECK(!g.a.empty() && !g.b.empty() && is_learned(g.how));
    SAGASU_FUZZ_CHECK(unicode::find_invalid_utf8(g.a) == std::string_view::npos);
    SAGASU_FUZZ_CHECK(unicode::find_invalid_utf8(g.b) == std::string_view::npos);
  }
  return 0;
}
