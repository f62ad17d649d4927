#include "field_values.h"

#include <algorithm>

namespace sagasu {

void FieldValues::add(const schema::Field& field, std::string value) {
  if (value.empty()) return;
  std::vector<std::string>& values = m_values[schema::index_of(field)];
  const auto at = std::lower_bound(values.begin(), values.end(), value);
  if (at == values.end() || *at != value) values.insert(at, std::move(value));
}

void FieldValues::set_kind(Kind kind) {
  m_values[schema::index_of(schema::KIND)] = {kind};
  m_kind = std::move(kind);
}

FieldValues field_values(const Note& note, const EntityResolver& resolver) {
  FieldValues values;
  values.add(schema::PATH, note.path);
  for (auto slash = note.path.find('/'); slash != std::string::npos; slash = note.path.find('/', slash + 1))
    values.add(schema::PATH, note.path.substr(0, slash));
  for (const auto& tag : note.tags) values.add(schema::TAG, tag);
  for (const auto& c : note.citations) values.add(schema::CITE, c.key);
  const std::string self = resolver.canonical(note.title);
  if (note.source) {
    // A source page: its own venue and year, not those of what it cites.
    values.set_kind(Kind(kinds::SOURCE));
    values.add(schema::VENUE, note.source->venue);
    values.add(schema::YEAR, std::to_string(note.source->year));
    values.add(schema::CITE, note.source->key);
  } else {
    values.set_kind(resolver.kind(self).value_or(Kind(kinds::OTHER)));
    for (const auto& c : note.citations) {
      values.add(schema::VENUE, c.venue);
      values.add(schema::YEAR, std::to_string(c.year));
    }
  }
  if (values.kind() == kinds::PERSON) values.add(schema::PERSON, self);
  if (values.kind() == kinds::ORGANIZATION) values.add(schema::ORG, self);
  for (const auto& name : mentioned_names(note)) {
    const std::string canon = resolver.canonical(name);
    values.add(schema::LINK, canon);
    const auto k = resolver.kind(canon);
    if (k == kinds::PERSON) values.add(schema::PERSON, canon);
    if (k == kinds::ORGANIZATION) values.add(schema::ORG, canon);
  }
  return values;
}

}  // namespace sagasu
