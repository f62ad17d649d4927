// The notes a query matches, with no weight: what every count and every
// yes-or-no question of the searcher asks Xapian.
#pragma once

#include <xapian.h>

#include <vector>

namespace sagasu {

/// The notes q matches, with no weight. A filter of every note, not q scaled
/// by 0 or under Xapian::BoolWeight alone: Xapian 1.4.22 reads an unweighted
/// term that every note holds as if no note had ever been deleted, and fails
/// with "Unexpected end of posting list" once one has
/// (tests/e2e/90-incremental.sh: kind:other, a letter, a bridge's word).
inline Xapian::Query unweighted(const Xapian::Query& q) {
  return Xapian::Query(Xapian::Query::OP_FILTER, Xapian::Query::MatchAll, q);
}

/// An Enquire over db for the notes q matches, unweighted: every count and
/// yes-or-no match of the searcher is made with one.
inline Xapian::Enquire unweighted_enquire(const Xapian::Database& db, const Xapian::Query& q) {
  Xapian::Enquire e(db);
  e.set_query(unweighted(q));
  e.set_weighting_scheme(Xapian::BoolWeight());
  return e;
}

/// The notes q matches in db, marked by document id (lastdocid + 1 entries):
/// one match, so over remote shards one round trip per shard.
inline std::vector<bool> notes_matching(const Xapian::Database& db, const Xapian::Query& q) {
  std::vector<bool> notes(db.get_lastdocid() + 1, false);
  if (q.empty()) return notes;
  for (const Xapian::docid did : unweighted_enquire(db, q).get_mset(0, db.get_doccount())) notes[did] = true;
  return notes;
}

}  // namespace sagasu
