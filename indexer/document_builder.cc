#include "document_builder.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <unordered_map>

#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "sagasu/substring.h"

namespace sagasu {
namespace {

void add_unique(std::vector<std::string>& v, std::string s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

}  // namespace

std::vector<std::string> other_names(const Note& note) {
  std::vector<std::string> names;
  auto add = [&](const std::string& n) {
    if (!n.empty() && n != display_title(note) && std::find(names.begin(), names.end(), n) == names.end())
      names.push_back(n);
  };
  if (note.source) add(note.source->title);
  add(note.fm_title);
  for (const auto& a : note.aliases) add(a);
  return names;
}

std::string display_title(const Note& note) {
  if (note.source) return note.fm_title.empty() ? note.source->title : note.fm_title;
  return note.title;
}

NoteFacets resolve_facets(const Note& note, const EntityResolver& resolver) {
  NoteFacets f;
  const std::string self = resolver.canonical(note.title);
  if (note.source) {
    f.kind = NoteKind::Source;
    add_unique(f.venues, note.source->venue);
    add_unique(f.years, std::to_string(note.source->year));
  } else {
    f.kind = resolver.kind(self).value_or(NoteKind::Other);
    for (const auto& c : note.citations) {
      add_unique(f.venues, c.venue);
      add_unique(f.years, std::to_string(c.year));
    }
  }
  auto mention = [&](const std::string& name) {
    if (name.empty() || name.front() == '@') return;
    const std::string canon = resolver.canonical(name);
    add_unique(f.links, canon);
    const auto k = resolver.kind(canon);
    if (k == NoteKind::Person) add_unique(f.persons, canon);
    if (k == NoteKind::Organization) add_unique(f.orgs, canon);
  };
  if (f.kind == NoteKind::Person) add_unique(f.persons, self);
  if (f.kind == NoteKind::Organization) add_unique(f.orgs, self);
  for (const auto& link : note.links)
    if (!link.embed) mention(link.target);
  for (const auto& a : note.authors) mention(a);
  // Plain names count only in lists whose label says what they are.
  for (const auto& rel : note.relations)
    for (const auto& item : rel.items)
      if (item.linked || kind_of_label(rel.label)) mention(item.name);
  std::sort(f.venues.begin(), f.venues.end());
  std::sort(f.years.begin(), f.years.end());
  std::sort(f.persons.begin(), f.persons.end());
  std::sort(f.orgs.begin(), f.orgs.end());
  std::sort(f.links.begin(), f.links.end());
  return f;
}

std::string DocumentBuilder::meta_json(const Note& note, const NoteFacets& facets) const {
  NoteMeta meta{note.path, display_title(note), std::string(to_string(facets.kind)), note.aliases, {}};
  for (const auto& link : note.links)
    if (!link.target.empty() && link.target.front() == '@' && link.text_end > link.text_begin)
      meta.citations.push_back({link.text_begin, link.text_end, link.target.substr(1)});
  return meta.encode();
}

std::string DocumentBuilder::signature(const Note& note, const NoteFacets& facets) const {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  auto feed = [&](std::string_view s) {
    XXH3_64bits_update(st, s.data(), s.size());
    XXH3_64bits_update(st, "\0", 1);
  };
  feed(schema::SCHEMA_VERSION);
  feed(meta_json(note, facets));
  feed(note.text);
  feed(note.fm_title);
  for (const auto* list : {&facets.venues, &facets.years, &facets.persons, &facets.orgs, &facets.links,
                           &note.aliases, &note.tags, &note.authors}) {
    for (const auto& v : *list) feed(v);
    feed("|");
  }
  for (const auto& c : note.citations) feed(c.key);
  const auto h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return fmt::format("{:016x}", h);
}

Xapian::Document DocumentBuilder::build(const Note& note, const NoteFacets& facets) {
  Xapian::Document doc;
  const std::string id = schema::unique_id_term(note.path);
  doc.add_boolean_term(id);

  // Title words: a higher wdf, and S terms that the searcher ORs in as a
  // separate title field. Aliases are other names: words like the body's
  // (the searcher expands a name to the others through the synonym table).
  enum class Field { Title, Alias, Body };
  auto add_words = [&](std::string_view text, Xapian::termpos first, Field field) -> Xapian::termpos {
    Xapian::termpos last = first;
    const Xapian::termcount wdf = field == Field::Title ? schema::TITLE_WDF : 1;
    for (const Token& t : m_analyzer.analyze(text, first)) {
      if (t.text.size() + 2 > schema::MAX_TERM_BYTES) continue;
      last = t.position;
      if (t.kind == TokenKind::Stem) {
        doc.add_term(std::string(schema::STEM.prefix) + t.text, wdf);
        continue;
      }
      doc.add_posting(t.text, t.position, wdf);
      if (field == Field::Title) doc.add_posting(std::string(schema::TITLE.prefix) + t.text, t.position);
    }
    return last;
  };
  // Title, then each other name, then the body, with gaps so no phrase spans two of them.
  const std::vector<std::string> names = other_names(note);
  Xapian::termpos pos = add_words(display_title(note), 1, Field::Title);
  for (const auto& name : names) pos = add_words(name, pos + schema::TITLE_BODY_GAP, Field::Alias);
  add_words(note.text, pos + schema::TITLE_BODY_GAP, Field::Body);

  // The substring tier: n-grams of the folded title, aliases and body,
  // counted first so Xapian gets one add_term per distinct gram (its
  // per-document term map is the costliest part of indexing).
  std::unordered_map<std::string, Xapian::termcount> grams;
  grams.reserve(note.text.size() / 2);
  auto add_gram = [&](const std::string& gram) { ++grams[gram]; };
  for_each_gram(fold_text(display_title(note)).text, add_gram);
  for (const auto& name : names) for_each_gram(fold_text(name).text, add_gram);
  for_each_gram(fold_text(note.text).text, add_gram);
  const std::string gram_prefix(schema::GRAM.prefix);
  std::string gram_term;
  for (const auto& [gram, count] : grams) {
    gram_term.assign(gram_prefix).append(gram);
    doc.add_term(gram_term, count);
  }

  auto filter = [&](const schema::Field& p, const std::string& v) {
    std::string term = schema::filter_term(p, v);
    if (term.size() > p.prefix.size()) doc.add_boolean_term(term);
  };
  for (const auto& v : facets.venues) filter(schema::VENUE, v);
  for (const auto& v : facets.years) filter(schema::YEAR, v);
  for (const auto& v : facets.persons) filter(schema::PERSON, v);
  for (const auto& v : facets.orgs) filter(schema::ORG, v);
  for (const auto& v : facets.links) filter(schema::LINK, v);
  for (const auto& v : note.tags) filter(schema::TAG, v);
  for (const auto& c : note.citations) filter(schema::CITE, c.key);
  if (note.source) filter(schema::CITE, note.source->key);
  // path: the note's path and every folder above it.
  filter(schema::PATH, note.path);
  for (auto slash = note.path.find('/'); slash != std::string::npos; slash = note.path.find('/', slash + 1))
    filter(schema::PATH, note.path.substr(0, slash));
  const std::string kind(to_string(facets.kind));
  filter(schema::KIND, kind);

  doc.add_value(schema::SLOT_VENUES, schema::pack_values(facets.venues));
  doc.add_value(schema::SLOT_YEARS, schema::pack_values(facets.years));
  doc.add_value(schema::SLOT_PERSONS, schema::pack_values(facets.persons));
  doc.add_value(schema::SLOT_ORGS, schema::pack_values(facets.orgs));
  doc.add_value(schema::SLOT_KIND, kind);
  doc.add_value(schema::SLOT_TITLE, display_title(note) + std::string(1, '\0') + note.path);
  if (!facets.years.empty())
    doc.add_value(schema::SLOT_YEAR_SORT, Xapian::sortable_serialise(std::stod(facets.years.back())));
  doc.add_value(schema::SLOT_SIGNATURE, signature(note, facets));
  doc.add_value(schema::SLOT_META, meta_json(note, facets));
  {
    // Does any non-ASCII character fold to ASCII? Fold the non-ASCII characters alone.
    std::string non_ascii;
    const std::string title = display_title(note);
    for (const std::string* t : {&note.text, &title})
      for (char c : *t) non_ascii += static_cast<unsigned char>(c) < 0x80 ? ' ' : c;
    for (const auto& name : names)
      for (char c : name) non_ascii += static_cast<unsigned char>(c) < 0x80 ? ' ' : c;
    const std::string folded = fold_text(non_ascii).text;
    std::string produced;  // the ASCII characters they fold to, each once
    for (char c : folded)
      if (c != ' ' && static_cast<unsigned char>(c) < 0x80 && produced.find(c) == std::string::npos) produced += c;
    std::sort(produced.begin(), produced.end());
    if (!produced.empty()) doc.add_value(schema::SLOT_FOLDS_TO_ASCII, produced);
  }
  doc.set_data(note.text);
  return doc;
}

}  // namespace sagasu
