#include "field_values.h"

#include <algorithm>

namespace sagasu {

void FieldValues::add(const schema::Field& field, std::string value, std::string_view source) {
  if (value.empty()) return;
  if (!source.empty() && field.is_facet()) m_coverage.sources[std::string(field.name)].emplace(source);
  std::vector<std::string>& values = m_values[schema::index_of(field)];
  const auto at = std::lower_bound(values.begin(), values.end(), value);
  if (at == values.end() || *at != value) values.insert(at, std::move(value));
}

void FieldValues::set_kind(Kind kind) {
  m_values[schema::index_of(schema::KIND)] = {kind};
  m_kind = std::move(kind);
}

FieldValues field_values(const Note& note, const NoteMetadata& meta, const EntityResolver& resolver) {
  FieldValues values;
  values.add(schema::PATH, note.path);
  for (auto slash = note.path.find('/'); slash != std::string::npos; slash = note.path.find('/', slash + 1))
    values.add(schema::PATH, note.path.substr(0, slash));
  for (const auto& tag : note.tags) values.add(schema::TAG, tag);
  for (const auto& tag : meta.tags) values.add(schema::TAG, tag.value);
  for (const auto& c : note.citations) values.add(schema::CITE, c.key);
  if (note.source) values.add(schema::CITE, note.source->key);
  const std::string self = resolver.canonical(note.title);
  values.set_kind(note.source ? Kind(kinds::SOURCE) : resolver.kind(self).value_or(Kind(kinds::OTHER)));
  // Its own venues and years (file name, metadata, path); a work's opening
  // lines give its year when nothing else does.
  for (const auto& v : meta.venues) values.add(schema::VENUE, v.value, to_string(v.origin));
  for (const auto& y : meta.years) values.add(schema::YEAR, y.value, to_string(y.origin));
  const bool work = is_work(values.kind());
  if (work && meta.years.empty() && meta.text_year)
    values.add(schema::YEAR, *meta.text_year, to_string(Origin::Text));
  values.coverage().unmapped = meta.unmapped;
  // A page that is not a work takes the venues and years of the works it cites or links to.
  if (!work) {
    for (const auto& c : note.citations) {
      values.add(schema::VENUE, c.venue, "citations");
      values.add(schema::YEAR, std::to_string(c.year), "citations");
    }
  }
  if (values.kind() == kinds::PERSON) values.add(schema::PERSON, self, "own page");
  if (values.kind() == kinds::ORGANIZATION) values.add(schema::ORG, self, "own page");
  // People and organizations its metadata credits, then those it links or lists.
  const auto credited = [&](const std::vector<Found>& found, const std::string& name) -> std::string_view {
    for (const auto& f : found)
      if (f.value == name) return to_string(f.origin);
    return "links";
  };
  for (const auto& name : mentioned_names(note, meta)) {
    const std::string canon = resolver.canonical(name);
    values.add(schema::LINK, canon);
    const auto k = resolver.kind(canon);
    if (k == kinds::PERSON) values.add(schema::PERSON, canon, credited(meta.persons, name));
    if (k == kinds::ORGANIZATION) values.add(schema::ORG, canon, credited(meta.orgs, name));
    if (const auto w = work ? std::nullopt : resolver.work(canon); w && canon != self) {
      for (const auto& v : w->venues) values.add(schema::VENUE, v, "linked works");
      for (const auto& y : w->years) values.add(schema::YEAR, y, "linked works");
    }
  }
  return values;
}

}  // namespace sagasu
