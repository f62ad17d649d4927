#include "verifier.h"

#include <algorithm>
#include <functional>

#include "sagasu/schema.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"
#include "unweighted.h"

namespace sagasu {

bool TermProbe::has(const std::string& term, Xapian::docid did) {
  const auto [place, local] = m_index.in_shard(did);
  const Xapian::Database& db = m_index.shards.size() > 1 ? m_index.shards[place] : m_index.all;
  auto it = m_cursors.find({place, term});
  if (it == m_cursors.end() || it->second.last > local)
    it = m_cursors.insert_or_assign({place, term}, Cursor{db.postlist_begin(term), 0}).first;
  Cursor& c = it->second;
  c.last = local;
  if (c.it == Xapian::PostingIterator()) return false;
  c.it.skip_to(local);
  return c.it != Xapian::PostingIterator() && *c.it == local;
}

bool TermProbe::has_all(const std::vector<std::string>& terms, Xapian::docid did) {
  return std::all_of(terms.begin(), terms.end(), [&](const std::string& t) { return has(t, did); });
}

bool TermProbe::adjacent(const std::vector<std::string>& terms, Xapian::docid did) const {
  if (terms.size() < 2) return true;
  const auto [place, local] = m_index.in_shard(did);
  const Xapian::Database& db = m_index.shards.size() > 1 ? m_index.shards[place] : m_index.all;
  std::vector<std::vector<Xapian::termpos>> positions;
  for (const auto& t : terms) {
    positions.emplace_back(db.positionlist_begin(local, t), db.positionlist_end(local, t));
    if (positions.back().empty()) return false;
  }
  for (const Xapian::termpos first : positions.front()) {
    bool all = true;
    for (std::size_t i = 1; i < positions.size() && all; ++i)
      all = std::binary_search(positions[i].begin(), positions[i].end(),
                               first + static_cast<Xapian::termpos>(i));
    if (all) return true;
  }
  return false;
}

bool contains_folded(const NoteText& t, const std::string& needle, Fold fold) {
  // The needle is folded: found as it is in the raw text, it is in the folded text too.
  if (strings::contains(t.body, needle) || strings::contains(t.names, needle)) return true;
  return strings::contains(fold_text(t.body, false, fold).text, needle) ||
         strings::contains(fold_text(t.names, false, fold).text, needle);
}

bool contains_substring(Analyzer& analyzer, const NoteText& t, const SubstringNeedle& needle) {
  return contains_substring(analyzer, t.body, needle) || contains_substring(analyzer, t.names, needle);
}

class Verifier::Note {
 public:
  /// doc: the document as the match presents it, or none: fetched from db when first needed.
  Note(const Xapian::Document* doc, const Xapian::Database& db, Xapian::docid did)
      : m_doc(doc), m_db(db), m_did(did) {}
  Xapian::docid did() const { return m_did; }
  const NoteText& raw() {
    if (!m_text) m_text = NoteText::of(doc());
    return *m_text;
  }
  bool contains_raw(const std::string& needle) {
    return strings::contains(raw().body, needle) || strings::contains(raw().names, needle);
  }
  /// may_hide: can the note hold the needle where no word term shows it (Verifier::may_hide)?
  bool folded_contains(const SubstringNeedle& substring, Analyzer& analyzer,
                       const std::function<bool()>& may_hide) {
    // The needle is folded already: found as it is in the raw text, it is in
    // the folded text too. Most candidates end here, without folding.
    const std::string& needle = substring.folded;
    if (contains_raw(needle) || (!substring.width.empty() && contains_raw(substring.width))) return true;
    if (std::all_of(needle.begin(), needle.end(),
                    [](char ch) { return static_cast<unsigned char>(ch) < 0x80; })) {
      // An ASCII needle found in the lower-cased raw text is in the folded
      // text too (folding leaves ASCII as it is but for case): no need to fold.
      if (strings::contains(lower(), needle)) return true;
      // No non-ASCII character of this note folds to a character of the
      // needle: the lower-cased text was the whole story.
      if (!may_hide()) return false;
    }
    // Where a person would accept it: a kana variant only where it names the
    // same word, a leading 々 where an ideograph repeats (substring.h); in the
    // text as a reader reads its wraps too (line_wrap), as its grams were made.
    if (contains_substring(analyzer, raw(), substring)) return true;
    Unwrapped unwrapped;
    return unwrap(raw().body, unwrapped) && contains_substring(analyzer, unwrapped.text, substring);
  }

 private:
  const std::string& lower() {
    if (!m_lower) {
      m_lower = raw().body + "\n" + raw().names;
      for (char& ch : *m_lower)
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    }
    return *m_lower;
  }

  const Xapian::Document& doc() {
    if (!m_doc) m_doc = &m_fetched.emplace(m_db.get_document(m_did));
    return *m_doc;
  }

  const Xapian::Document* m_doc;
  const Xapian::Database& m_db;
  Xapian::docid m_did;
  std::optional<Xapian::Document> m_fetched;
  std::optional<NoteText> m_text;
  std::optional<std::string> m_lower;
};

Verifier::Verifier(const OpenIndex& index, const CompiledQuery& query, bool exact, Analyzer& analyzer,
                   std::size_t text_checks_before_proof)
    : m_db(index.all),
      m_several(index.shards.size() > 1),
      m_index(index),
      m_text_checks_before_proof(text_checks_before_proof),
      m_probe(index),
      m_query(query),
      m_exact(exact),
      m_analyzer(analyzer),
      m_substrings(std::make_shared<Substrings>()),
      m_words(query.chunks.size()),
      m_compounds(query.chunks.size()) {
  link();
}

void Verifier::trust(const Verifier& stricter) {
  m_known = &stricter.m_accepted;
  m_substrings = stricter.m_substrings;
  link();
}

void Verifier::link() {
  m_of_chunk.clear();
  for (const Chunk& c : m_query.chunks)
    m_of_chunk.push_back(&(*m_substrings)[{c.info.substring, c.info.substring_exact}]);
}

bool Verifier::needed() const {
  return m_query.root >= 0 && (m_exact || std::any_of(m_query.chunks.begin(), m_query.chunks.end(),
                                                      [](const Chunk& c) { return c.verify; }));
}

bool Verifier::operator()(const Xapian::Document& doc) const {
  // Over several shards a document knows its number in its own shard only
  // (Xapian's rule): its number in the whole follows from its shard's place.
  // Where that is not known, its number is found by its unique term.
  Xapian::docid did = doc.get_docid();
  if (m_several && !m_index.shard_places.empty()) {
    did = m_index.in_all(did, m_index.place_of(doc));
  } else if (m_several) {
    auto p =
        m_db.postlist_begin(schema::unique_id_term(FileState::path_of(doc.get_value(schema::SLOT_STATE))));
    if (p == m_db.postlist_end("")) return false;
    did = *p;
  }
  return accept(doc, did);
}

bool Verifier::accept(const Xapian::Document& doc, Xapian::docid did) const {
  return accept(&doc, did);
}

bool Verifier::accept(Xapian::docid did) const {
  return accept(nullptr, did);
}

bool Verifier::accept(const Xapian::Document* doc, Xapian::docid did) const {
  if (m_known && did < m_known->size() && (*m_known)[did]) return true;
  if (did < m_accepted.size() && m_accepted[did]) return true;  // (a second pass: the page ranked)
  Note note(doc, m_db, did);
  // Most candidates hold some branch of the query as plain words: that proof
  // first, the positions and the text (a compound's adjacency, a substring)
  // only for the rest.
  if (m_query.root >= 0 && !eval(m_query.root, note, true) && !eval(m_query.root, note, false)) return false;
  if (did >= m_accepted.size()) m_accepted.resize(std::max<std::size_t>(did + 1, 2 * m_accepted.size()));
  m_accepted[did] = true;
  return true;
}

bool Verifier::eval(int i, Note& note, bool cheap) const {
  const VNode& n = m_query.nodes[static_cast<std::size_t>(i)];
  switch (n.op) {
    case VNode::Op::Chunk:
      return satisfied(m_query.chunks[static_cast<std::size_t>(n.chunk)], note, cheap);
    case VNode::Op::Filter:
      for (auto t = n.filter.get_terms_begin(); t != n.filter.get_terms_end(); ++t)
        if (m_probe.has(*t, note.did())) return true;
      return false;
    case VNode::Op::Not:
      return true;  // exclusions are Xapian's own, and exact
    case VNode::Op::And:
      return std::all_of(n.children.begin(), n.children.end(), [&](int c) { return eval(c, note, cheap); });
    case VNode::Op::Or:
      return std::any_of(n.children.begin(), n.children.end(), [&](int c) { return eval(c, note, cheap); });
  }
  return true;
}

bool Verifier::satisfied(const Chunk& c, Note& note, bool cheap) const {
  if (m_exact) return !cheap && note.contains_raw(c.info.text);
  if (m_index.remote) {
    if (in_words(c, note.did())) return true;
  } else {
    for (const auto& alt : c.alternatives)
      if ((!cheap || !alt.adjacent) && m_probe.has_all(alt.terms, note.did()) &&
          (!alt.adjacent || m_probe.adjacent(alt.terms, note.did())))
        return true;
  }
  if (in_compounds(c, note.did())) return true;
  if (cheap || c.info.substring.empty()) return false;
  if (proven(c, note.did())) return true;
  if (refuted(c, note.did())) return false;
  // Its text is read once, whichever query asks (trust).
  const auto [read, first] = substring_of(c).read.try_emplace(note.did(), false);
  if (first)
    read->second = note.folded_contains(c.info.needle(), m_analyzer, [&] { return may_hide(c, note.did()); });
  return read->second;
}

namespace {

// Is note did one of those matching a query: notes, matched by query() when first asked?
template <class MakeQuery>
bool among(std::optional<std::vector<bool>>& notes, const Xapian::Database& db, Xapian::docid did,
           const MakeQuery& query) {
  if (!notes) notes = notes_matching(db, query());
  return did < notes->size() && (*notes)[did];
}

}  // namespace

bool Verifier::in_words(const Chunk& c, Xapian::docid did) const {
  return among(m_words[static_cast<std::size_t>(&c - m_query.chunks.data())], m_db, did, [&] {
    std::vector<Xapian::Query> alternatives;
    for (const auto& alt : c.alternatives)
      alternatives.push_back(alt.adjacent
                                 ? Xapian::Query(Xapian::Query::OP_PHRASE, alt.terms.begin(), alt.terms.end(),
                                                 static_cast<Xapian::termcount>(alt.terms.size()))
                                 : Xapian::Query(Xapian::Query::OP_AND, alt.terms.begin(), alt.terms.end()));
    return Xapian::Query(Xapian::Query::OP_OR, alternatives.begin(), alternatives.end());
  });
}

bool Verifier::in_compounds(const Chunk& c, Xapian::docid did) const {
  return !c.compounds.empty() && among(m_compounds[static_cast<std::size_t>(&c - m_query.chunks.data())],
                                       m_db, did, [&] { return c.compounds; });
}

Verifier::Substring& Verifier::substring_of(const Chunk& c) const {
  return *m_of_chunk[static_cast<std::size_t>(&c - m_query.chunks.data())];
}

bool Verifier::proven(const Chunk& c, Xapian::docid did) const {
  Substring& p = substring_of(c);
  if (!p.built) {
    if (p.text_checks++ < m_text_checks_before_proof) return false;
    build(p, c);
  }
  return did < p.proven.size() && p.proven[did];
}

bool Verifier::refuted(const Chunk& c, Xapian::docid did) const {
  // Letters and digits are inside one word wherever a person accepts them
  // (ICU never breaks such a run): with no word's folding holding the
  // string, the note does not hold it, unless its text has characters no
  // word term shows. Katakana is not refuted so: its hiragana variant counts
  // where it is whole words, and ICU may cut that into several (さ|ー|ば|ー).
  const Substring& p = substring_of(c);
  return p.possible && !(did < p.possible->size() && (*p.possible)[did]) && !may_hide(c, did);
}

bool Verifier::may_hide(const Chunk& c, Xapian::docid did) const {
  return among(substring_of(c).hiding, m_db, did, [&] {
    std::vector<Xapian::Query> terms;
    for (const char ch : c.info.substring) terms.emplace_back(schema::hidden_term(ch));
    return Xapian::Query(Xapian::Query::OP_OR, terms.begin(), terms.end());
  });
}

namespace {

// Marks the notes holding any of the words. Remote shards answer one match
// with their notes, where each word's posting list is a round trip (設定
// ファイル on 2 xapian-tcpsrv at 16k notes: 397 → 258 ms); a local index
// reads the posting lists faster than it runs the match (robot 8.6 → 7.0 ms).
std::vector<bool> notes_with(const OpenIndex& index, const std::vector<std::string>& words) {
  const Xapian::Database& db = index.all;
  if (index.remote)
    return notes_matching(db, Xapian::Query(Xapian::Query::OP_OR, words.begin(), words.end()));
  std::vector<bool> notes(db.get_lastdocid() + 1, false);
  for (const std::string& word : words)
    for (auto d = db.postlist_begin(word); d != db.postlist_end(word); ++d) notes[*d] = true;
  return notes;
}

// The notes where runs of letters and digits typed apart ("the file") can
// be: a word ending with the first run, then words that are the middle runs,
// then a word starting with the last, at consecutive positions (the text
// decides whether only a space is between them). nullopt when the words are
// too many to list.
std::optional<std::vector<bool>> phrase_notes(const Xapian::Database& db, const WordList& list,
                                              const std::vector<std::string>& runs, std::size_t max_words) {
  std::vector<Xapian::Query> parts;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string& run = runs[i];
    std::vector<Xapian::Query> words;
    if (i > 0 && i + 1 < runs.size()) {
      if (db.term_exists(run)) words.emplace_back(run);
    } else {
      const std::vector<std::string> found = list.containing(run, WordList::Side::Folding, max_words);
      if (found.size() == max_words) return std::nullopt;
      for (const std::string& w : found)
        if (i == 0 ? strings::ends_with(w, run) : strings::starts_with(w, run)) words.emplace_back(w);
    }
    if (words.empty()) return notes_matching(db, Xapian::Query::MatchNothing);
    parts.emplace_back(Xapian::Query::OP_OR, words.begin(), words.end());
  }
  return notes_matching(db, Xapian::Query(Xapian::Query::OP_PHRASE, parts.begin(), parts.end(),
                                          static_cast<Xapian::termcount>(parts.size())));
}

}  // namespace

void Verifier::build(Substring& p, const Chunk& c) const {
  // Enough words for any real query (プログラ: 700 in 100k notes); a needle
  // in more words than this still has a proof from these, and the rest of
  // its candidates read their text.
  constexpr std::size_t MAX_WORDS = 20000;
  p.built = true;
  // A word holding the query's own text (width and case folded) is a match
  // a person accepts; one holding only a kana variant needs the text's word
  // boundaries (substring.h), so the width-folded needle proves a note.
  const std::string& typed = c.info.substring_exact;
  if (typed.empty()) return;
  if (typed.find(' ') != std::string::npos) {
    const std::vector<std::string> runs = strings::split_nonempty(c.info.substring, ' ');
    if (runs.size() > 1 &&
        std::all_of(runs.begin(), runs.end(), [](const auto& r) { return alphanumeric(r); }))
      p.possible = phrase_notes(m_db, m_index.word_list(), runs, MAX_WORDS);
    return;
  }
  const WordList& list = m_index.word_list();
  p.proven = notes_with(m_index, list.containing(typed, WordList::Side::Word, MAX_WORDS));
  const std::string& folded = c.info.substring;
  if (!alphanumeric(folded)) return;
  const std::vector<std::string> words = list.containing(folded, WordList::Side::Folding, MAX_WORDS);
  if (words.size() < MAX_WORDS) p.possible = notes_with(m_index, words);
}

}  // namespace sagasu
