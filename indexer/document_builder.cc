#include "document_builder.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <unordered_map>

#include "sagasu/analyzer.h"
#include "sagasu/schema.h"
#include "sagasu/stored_note.h"
#include "sagasu/substring.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

// The substring tier: n-grams of the folded title, other names and body, but
// none of letters and digits alone in a run a word term shows (substring.h:
// the word list finds those; each such letter is a gram of one character),
// counted first so Xapian gets one add_term per
// distinct gram (its per-document term map is the costliest part of indexing).
void add_grams(Xapian::Document& doc, const Note& note, const std::string& text,
               const std::vector<std::string>& names, const std::unordered_set<std::string>& shown_runs,
               const FoldingJoins& joins) {
  std::unordered_map<std::string, Xapian::termcount> grams;
  grams.reserve(text.size() / 4);
  std::string key;
  const auto shown = [&](std::string_view run) { return shown_runs.count(key.assign(run)) > 0; };
  const auto add_gram = [&](const std::string& gram) { ++grams[gram]; };
  auto add = [&](const std::string& part) { for_each_indexed_gram(fold_text(part).text, shown, add_gram); };
  add(note.display_title());
  for (const auto& name : names) add(name);
  add(text);
  // The grams the text has where a reader reads its wraps (line_wrap: 設定ファ⏎イル,
  // "…か"⏎"を返…"), to select the note; weightless, so its length is the text's.
  if (Unwrapped unwrapped; unwrap(text, unwrapped))
    for_each_indexed_gram(fold_text(unwrapped.text).text, shown,
                          [&](const std::string& gram) { grams.try_emplace(gram, 0); });
  // Each letter or digit of those runs as a gram of its own (no gram is one
  // ASCII character otherwise): a query of one letter finds the note by it,
  // not by a synonym of the thousands of words holding that letter.
  for (const std::string& run : shown_runs)
    for (const char ch : run) grams.try_emplace(std::string(1, ch), 1);
  if (joins.joined) grams.try_emplace(JOINING_GRAM, 1);
  const std::string gram_prefix(schema::GRAM.prefix);
  std::string gram_term;
  for (const auto& [gram, count] : grams) {
    gram_term.assign(gram_prefix).append(gram);
    doc.add_term(gram_term, count);
  }
}

// Every field of the table: each value of a filter field is a boolean term
// (unless it normalizes to nothing), a facet's values its packed slot.
void add_fields(Xapian::Document& doc, const FieldValues& values) {
  for (const schema::Field& field : schema::FIELDS) {
    if (field.is_filter())
      for (const auto& value : values.of(field)) {
        const std::string term = schema::filter_term(field, value);
        if (term.size() > field.prefix.size()) doc.add_boolean_term(term);
      }
    if (field.is_facet())
      doc.add_value(static_cast<Xapian::valueno>(field.facet_slot), schema::pack_values(values.of(field)));
  }
  if (const auto& years = values.of(schema::YEAR); !years.empty())
    doc.add_value(schema::SLOT_YEAR_SORT, Xapian::sortable_serialise(std::stod(years.back())));
}

// The ASCII characters that non-ASCII characters of the note fold to, those
// beside a character folding deletes (find_joins), and those of its words too
// long to be terms (unindexed), sorted: what its word terms may not show
// (schema.h, HIDDEN).
std::string hidden_characters(const Note& note, const std::string& text,
                              const std::vector<std::string>& names, std::string unindexed,
                              const FoldingJoins& joins) {
  // Fold the non-ASCII characters alone.
  std::string non_ascii;
  const std::string title = note.display_title();
  for (const std::string* t : {&text, &title})
    for (char c : *t) non_ascii += static_cast<unsigned char>(c) < 0x80 ? ' ' : c;
  for (const auto& name : names)
    for (char c : name) non_ascii += static_cast<unsigned char>(c) < 0x80 ? ' ' : c;
  const std::string folded = fold_text(non_ascii).text;
  std::string produced;  // the ASCII characters they fold to, each once
  if (std::any_of(unindexed.begin(), unindexed.end(),
                  [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
    unindexed += schema::UNINDEXED_NON_ASCII;
  unindexed += joins.beside_deleted;
  for (char c : folded + unindexed)
    if (c != ' ' && static_cast<unsigned char>(c) < 0x80 && produced.find(c) == std::string::npos)
      produced += c;
  std::sort(produced.begin(), produced.end());
  return produced;
}

// Adds the runs of letters and digits of a word term's folding to runs.
void add_shown_runs(const std::string& word, std::unordered_set<std::string>& runs) {
  // Kana and ideographs fold to no letter or digit, and ASCII to itself in
  // lower case: only a word with other characters needs ICU.
  bool plain = true, upper = false;
  for (std::size_t i = 0; i < word.size() && plain;) {
    const auto b = static_cast<unsigned char>(word[i]);
    if (b < 0x80) {
      upper = upper || (b >= 'A' && b <= 'Z');
      ++i;
      continue;
    }
    const char32_t c = unicode::next_code_point(word, i);
    plain = (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x9FFF);
  }
  if (plain && !upper) {
    for (const std::string_view run : alphanumeric_runs(word)) runs.emplace(run);
    return;
  }
  const std::string folded = fold_text(word).text;
  for (const std::string_view run : alphanumeric_runs(folded)) runs.emplace(run);
}

}  // namespace

std::string searchable_text(const Note& note) {
  if (note.unshown.empty()) return note.text;
  return note.text + (note.text.empty() ? "" : "\n") + note.unshown;
}

std::vector<std::string> other_names(const Note& note) {
  std::vector<std::string> names;
  auto add = [&](const std::string& n) {
    if (!n.empty() && n != note.display_title() && std::find(names.begin(), names.end(), n) == names.end())
      names.push_back(n);
  };
  // A source page's file name is a citation key: its title is a name, its venue and year facets.
  // Another's file name is a name when a heading or the front matter titles the note.
  add(note.source ? note.source->title : note.title);
  add(note.fm_title);
  for (const auto& a : note.aliases) add(a);
  for (const auto& t : note.hidden_link_targets()) add(t);
  return names;
}

std::string DocumentBuilder::meta_json(const Note& note, const FieldValues& values) const {
  NoteMeta meta{note.path, note.display_title(), values.kind(), other_names(note), {}};
  for (const auto& link : note.links)
    if (!link.target.empty() && link.target.front() == '@' && link.text_end > link.text_begin)
      meta.citations.push_back({link.text_begin, link.text_end, link.target.substr(1)});
  return meta.encode();
}

std::string DocumentBuilder::signature(const Note& note, const FieldValues& values) const {
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  auto feed = [&](std::string_view s) {
    XXH3_64bits_update(st, s.data(), s.size());
    XXH3_64bits_update(st, "\0", 1);
  };
  feed(schema::SCHEMA_VERSION);
  feed(meta_json(note, values));  // path, title, kind, other names, citation spans
  feed(note.text);
  feed(note.unshown);
  feed(note.fm_title);
  // Every field's values (a new field's too): what the terms and slots not made from the text come from.
  for (const schema::Field& field : schema::FIELDS) {
    for (const auto& v : values.of(field)) feed(v);
    feed("|");
  }
  feed(values.coverage().encode());
  const auto h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return fmt::format("{:016x}", h);
}

DocumentBuilder::Words DocumentBuilder::add_words(Xapian::Document& doc, const Note& note,
                                                  const std::vector<std::string>& names) {
  // Title words: a higher wdf, and S terms that the searcher ORs in as a
  // separate title field. Aliases are other names: words like the body's
  // (the searcher expands a name to the others through the synonym table).
  enum class Field { Title, Alias, Body, Unshown };
  Words words;
  auto add = [&](std::string_view part, Xapian::termpos first, Field field) -> Xapian::termpos {
    Xapian::termpos last = first;
    // What the file says unshown finds the note but weighs nothing (wdf 0, no length): a
    // hub of links is not about the words of its addresses (measured: compiler, virtual DOM),
    // nor about those of its links to other notes, which name them (robotics' index.md).
    const Xapian::termcount field_wdf = field == Field::Title     ? schema::TITLE_WDF
                                        : field == Field::Unshown ? 0
                                                                  : 1;
    auto link = note.link_text.begin();
    for (const Token& t : m_analyzer.analyze(part, first)) {
      Xapian::termcount wdf = field_wdf;
      if (field == Field::Body) {
        while (link != note.link_text.end() && link->second <= t.byte_begin) ++link;
        if (link != note.link_text.end() && link->first <= t.byte_begin) wdf = 0;
      }
      if (t.text.size() + 2 > schema::MAX_TERM_BYTES) {
        words.unindexed += t.text;
        continue;
      }
      last = t.position;
      if (t.kind == TokenKind::Stem) {
        doc.add_term(std::string(schema::STEM.prefix) + t.text, wdf);
        continue;
      }
      if (t.kind == TokenKind::Part) {
        // (In the title as XN, not S: an equivalent reaches the title's S
        // words, and none may reach a part — 生成 → create found createPortal.)
        doc.add_posting(std::string(schema::PART.prefix) + t.text, t.position, 0);
        if (field == Field::Title)
          doc.add_posting(std::string(schema::TITLE_PART.prefix) + t.text, t.position);
        continue;
      }
      doc.add_posting(t.text, t.position, wdf);
      add_shown_runs(t.text, words.shown_runs);
      if (field == Field::Title) doc.add_posting(std::string(schema::TITLE.prefix) + t.text, t.position);
    }
    return last;
  };
  // Title, then each other name, then the tags the note gives itself (a note
  // tagged fault-tolerance is about fault tolerance: its words weigh as a
  // name's; a tag without letters, a date, weighs nothing), then the text,
  // then what the file says unshown (front matter, link addresses), with gaps
  // so no phrase spans two of them.
  Xapian::termpos pos = add(note.display_title(), 1, Field::Title);
  for (const auto& name : names) pos = add(name, pos + schema::TITLE_BODY_GAP, Field::Alias);
  for (const auto& tag : note.own_tags)
    if (std::any_of(tag.begin(), tag.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || static_cast<unsigned char>(c) >= 0x80;
        })) {
      std::string tag_words = tag;
      std::replace(tag_words.begin(), tag_words.end(), '/', ' ');
      pos = add(tag_words, pos + schema::TITLE_BODY_GAP, Field::Alias);
    }
  pos = add(note.text, pos + schema::TITLE_BODY_GAP, Field::Body);
  add(note.unshown, pos + schema::TITLE_BODY_GAP, Field::Unshown);
  return words;
}

Xapian::Document DocumentBuilder::build(const Note& note, const FieldValues& values) {
  Xapian::Document doc;
  doc.add_boolean_term(schema::unique_id_term(note.path));
  const std::vector<std::string> names = other_names(note);
  const std::string text = searchable_text(note);
  const Words words = add_words(doc, note, names);
  FoldingJoins joins;  // of the texts the grams are of
  find_joins(note.display_title(), joins);
  for (const auto& name : names) find_joins(name, joins);
  find_joins(text, joins);
  add_grams(doc, note, text, names, words.shown_runs, joins);
  add_fields(doc, values);
  doc.add_value(schema::SLOT_TITLE, note.display_title() + std::string(1, '\0') + note.path);
  doc.add_value(schema::SLOT_SIGNATURE, signature(note, values));
  doc.add_value(schema::SLOT_META, meta_json(note, values));
  doc.add_value(schema::SLOT_COVERAGE, values.coverage().encode());
  for (const char c : hidden_characters(note, text, names, words.unindexed, joins))
    doc.add_boolean_term(schema::hidden_term(c));
  doc.set_data(text);
  return doc;
}

}  // namespace sagasu
