// The second phase of matching (Lucene's TwoPhaseIterator): the substring
// grams carry no positions, so a candidate they select is confirmed on the
// note's stored text; in --exact mode the typed text itself is required.
// Locally it runs inside Xapian's match as a MatchDecider; over remote shards
// (whose stock server runs no decider) the collector calls accept() itself.
#pragma once

#include <xapian.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "index_set.h"
#include "query_builder.h"
#include "sagasu/stored_note.h"
#include "sagasu/substring.h"

namespace sagasu {

/// Does a document hold a term? Posting cursors are kept and moved forward,
/// as the matcher asks about documents in ascending order. Over several
/// shards each question goes to the document's own shard, not to all.
class TermProbe {
 public:
  explicit TermProbe(const OpenIndex& index) : m_index(index) {}
  /// did: the document's number in the whole (OpenIndex::all).
  bool has(const std::string& term, Xapian::docid did);
  bool has_all(const std::vector<std::string>& terms, Xapian::docid did);
  /// Does the document hold the terms at consecutive positions, in this order?
  bool adjacent(const std::vector<std::string>& terms, Xapian::docid did) const;

 private:
  struct Cursor {
    Xapian::PostingIterator it;
    Xapian::docid last;
  };
  const OpenIndex& m_index;
  std::map<std::pair<std::size_t, std::string>, Cursor> m_cursors;  ///< by place and term
};

/// Does the note's text (body, title or an alias) hold a folded needle?
bool contains_folded(const NoteText& text, const std::string& needle, Fold fold);
/// Does the note's text hold the needle where a person would accept it (substring.h)?
bool contains_substring(Analyzer& analyzer, const NoteText& text, const SubstringNeedle& needle);

class Verifier : public Xapian::MatchDecider {
 public:
  /// Checks the query's candidates in the index's notes (every shard searched
  /// as one); the analyzer tells whether a kana variant names the same word.
  /// A chunk's proof from the word list is built after it has read the text
  /// of text_checks_before_proof candidates.
  Verifier(const OpenIndex& index, const CompiledQuery& query, bool exact, Analyzer& analyzer,
           std::size_t text_checks_before_proof = 0);

  /// Is there anything to confirm? Without substring pieces or --exact, Xapian's match is the answer.
  bool needed() const;
  /// The MatchDecider: the document as the match presents it.
  bool operator()(const Xapian::Document& doc) const override;
  /// Does the note `doc`, number `did` in the database searched, satisfy the query?
  bool accept(const Xapian::Document& doc, Xapian::docid did) const;
  /// The same of note `did`, its document fetched only if its text or values are read
  /// (over TCP, a round trip each).
  bool accept(Xapian::docid did) const;
  /// For a looser form of stricter's query (--loose's count after the
  /// strict match): the notes stricter accepted are accepted unread, and what
  /// it learned of a substring (its proofs, the notes whose text held it or
  /// not) is not learned again. stricter must outlive this verifier.
  void trust(const Verifier& stricter);
  /// The notes accepted so far, by number (true: accepted).
  const std::vector<bool>& accepted() const { return m_accepted; }

 private:
  class Note;  // one candidate, its text read and folded only when needed
  bool accept(const Xapian::Document* doc, Xapian::docid did) const;
  /// Does the note satisfy the node? Cheap: by word terms alone (no
  /// positions, no text), where false means "not shown so", not "no".
  bool eval(int node, Note& note, bool cheap) const;
  bool satisfied(const Chunk& c, Note& note, bool cheap) const;
  /// Does the note hold one of the chunk's alternatives as words? Over
  /// remote shards, where a term's postings or positions are a round trip
  /// per note and term, one match per chunk and search answers it.
  bool in_words(const Chunk& c, Xapian::docid did) const;
  /// Does the note hold one of the chunk's compounds (a hundred words, say):
  /// one match per chunk and search answers it.
  bool in_compounds(const Chunk& c, Xapian::docid did) const;
  /// Does the note hold a word that contains the chunk's substring (word_list.h)?
  bool proven(const Chunk& c, Xapian::docid did) const;
  /// Is the chunk's substring certainly not in the note, though its grams are?
  bool refuted(const Chunk& c, Xapian::docid did) const;
  /// Can the note hold the chunk's substring where no word term shows it: a
  /// character of it is one of the note's HIDDEN (schema.h)? One match per
  /// chunk and search answers it, for every candidate (remote: no document fetched).
  bool may_hide(const Chunk& c, Xapian::docid did) const;

  /// What is known of one substring (SubstringNeedle), whichever chunk or
  /// query asks. The notes with a word containing it are built from the word
  /// list once it has needed the text of a few candidates (a handful are
  /// cheaper to read than the postings of every such word).
  struct Substring {
    std::size_t text_checks = 0;
    bool built = false;
    std::vector<bool> proven;  ///< by document id: a word contains the typed string
    /// For a string of letters and digits: the notes with a word whose
    /// folding contains it (by document id); elsewhere it is only where a word
    /// term may not show it (schema.h, HIDDEN).
    std::optional<std::vector<bool>> possible;
    std::optional<std::vector<bool>> hiding;  ///< the notes may_hide accepts (by document id)
    std::unordered_map<Xapian::docid, bool> read;  ///< the notes whose text was read: does it hold it?
  };
  /// By the needle's two foldings.
  using Substrings = std::map<std::pair<std::string, std::string>, Substring>;
  void build(Substring& s, const Chunk& c) const;
  /// The chunk's substring (c is one of m_query's chunks).
  Substring& substring_of(const Chunk& c) const;
  /// Points each chunk at its entry of m_substrings.
  void link();

  const Xapian::Database& m_db;
  bool m_several;            ///< several shards: a document is placed in the whole (operator())
  const OpenIndex& m_index;  ///< its word list (every shard's, built when no file describes them)
  std::size_t m_text_checks_before_proof;
  mutable TermProbe m_probe;
  const CompiledQuery& m_query;
  bool m_exact;
  Analyzer& m_analyzer;
  std::shared_ptr<Substrings> m_substrings;  ///< shared with a looser query's verifier (trust)
  std::vector<Substring*> m_of_chunk;        ///< each chunk's entry of m_substrings
  mutable std::vector<std::optional<std::vector<bool>>> m_words;  ///< remote: in_words' notes, by chunk
  mutable std::vector<std::optional<std::vector<bool>>> m_compounds;  ///< in_compounds' notes, by chunk
  const std::vector<bool>* m_known = nullptr;
  mutable std::vector<bool> m_accepted;
};

}  // namespace sagasu
