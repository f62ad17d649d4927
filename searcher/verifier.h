// The second phase of matching (Lucene's TwoPhaseIterator): the substring
// grams carry no positions, so a candidate they select is confirmed on the
// note's stored text; in --exact mode the typed text itself is required.
// Locally it runs inside Xapian's match as a MatchDecider; over remote shards
// (whose stock server runs no decider) the collector calls accept() itself.
#pragma once

#include <xapian.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "query_builder.h"
#include "sagasu/stored_note.h"
#include "sagasu/substring.h"

namespace sagasu {

/// Does a document hold a term? Posting cursors are kept and moved forward,
/// as the matcher asks about documents in ascending order.
class TermProbe {
 public:
  explicit TermProbe(const Xapian::Database& db) : m_db(db) {}
  bool has(const std::string& term, Xapian::docid did);
  bool has_all(const std::vector<std::string>& terms, Xapian::docid did);
  /// Does the document hold the terms at consecutive positions, in this order?
  bool adjacent(const std::vector<std::string>& terms, Xapian::docid did) const;

 private:
  struct Cursor {
    Xapian::PostingIterator it;
    Xapian::docid last;
  };
  const Xapian::Database& m_db;
  std::map<std::string, Cursor> m_cursors;
};

/// Does the note's text (body, title or an alias) hold a folded needle?
bool contains_folded(const NoteText& text, const std::string& needle, Fold fold);
/// Does the note's text hold the needle where a person would accept it (substring.h)?
bool contains_substring(Analyzer& analyzer, const NoteText& text, const SubstringNeedle& needle);

class Verifier : public Xapian::MatchDecider {
 public:
  /// db is every shard searched as one (several: look documents up by unique id);
  /// the analyzer tells whether a kana variant names the same word.
  Verifier(const Xapian::Database& db, bool several, const CompiledQuery& query, bool exact, Analyzer& analyzer)
      : m_db(db), m_several(several), m_probe(db), m_query(query), m_exact(exact), m_analyzer(analyzer) {}

  /// Is there anything to confirm? Without substring pieces or --exact, Xapian's match is the answer.
  bool needed() const;
  /// The MatchDecider: the document as the match presents it.
  bool operator()(const Xapian::Document& doc) const override;
  /// Does the note `doc`, number `did` in the database searched, satisfy the query?
  bool accept(const Xapian::Document& doc, Xapian::docid did) const;

 private:
  class Note;  // one candidate, its text read and folded only when needed
  bool eval(int node, Note& note) const;
  bool satisfied(const Chunk& c, Note& note) const;

  const Xapian::Database& m_db;
  bool m_several;
  mutable TermProbe m_probe;
  const CompiledQuery& m_query;
  bool m_exact;
  Analyzer& m_analyzer;
};

}  // namespace sagasu
