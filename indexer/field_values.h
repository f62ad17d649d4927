// A note's values for the fields of the schema's table (schema::FIELDS), and
// the code that finds them. The document builder turns every filter field's
// values into filter terms and every facet's into its facet slot, so adding a
// facet is one row in schema.h and the lines here that find its values.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "entity_resolver.h"
#include "sagasu/note.h"
#include "sagasu/schema.h"

namespace sagasu {

/// A note's values for each field of schema::FIELDS, and its kind.
class FieldValues {
 public:
  /// No values; the kind is kinds::OTHER.
  FieldValues() { set_kind(Kind(kinds::OTHER)); }

  /// Adds a value to a field's; an empty value, or one the field has, is not
  /// added. A facet's value says where it came from ("table", "links", …).
  void add(const schema::Field& field, std::string value, std::string_view source = {});
  /// The field's values, sorted.
  const std::vector<std::string>& of(const schema::Field& field) const {
    return m_values[schema::index_of(field)];
  }
  /// What the note is; its name is the one value of schema::KIND.
  const Kind& kind() const { return m_kind; }
  /// Sets the kind, and schema::KIND's value to its name.
  void set_kind(Kind kind);
  /// Where each facet's values came from, and the note's property keys no facet reads.
  NoteCoverage& coverage() { return m_coverage; }
  const NoteCoverage& coverage() const { return m_coverage; }

 private:
  std::array<std::vector<std::string>, schema::FIELDS.size()> m_values;
  Kind m_kind;
  NoteCoverage m_coverage;
};

/// The values of a note, resolved against the whole vault: its path and every
/// folder above it; its own venues and years (metadata, path, file name), and
/// unless it is a work itself those of the sources it cites and the works it
/// links to; its kind, tags and cited sources; the pages it links to, and the
/// persons and organizations it is about, credits or links to.
FieldValues field_values(const Note& note, const NoteMetadata& meta, const EntityResolver& resolver);

}  // namespace sagasu
