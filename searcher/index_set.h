// Where an index's notes are, and opening them: one index folder, the shard
// folders of a sharded index, a stub file listing shards, or shards served
// over TCP by xapian-tcpsrv. Each location becomes the shards it names, opened
// one by one so that every error names the shard it is about.
#pragma once

#include <xapian.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compounds.h"
#include "sagasu/facet_columns.h"
#include "sagasu/word_list.h"

namespace sagasu {

/// One database to search.
struct ShardLocation {
  std::string name;  ///< as the user knows it: a folder, "tcp://HOST:PORT", "FILE:LINE"
  std::string path;  ///< local: the database folder (a Xapian stub file or a glass folder)
  std::string host;  ///< remote: the xapian-tcpsrv host (empty for a local shard)
  unsigned port = 0;
  std::string index_folder;  ///< a shard of a sharded index folder: that folder (empty otherwise)
  bool remote() const { return !host.empty(); }
};

/// Expands --index values:
///   DIR              an index folder; a sharded one (indexer --shards) gives its shard folders
///   tcp://HOST:PORT  a shard served by xapian-tcpsrv
///   FILE             a Xapian stub file: "auto PATH" (relative to the file's folder) and
///                    "remote :HOST:PORT" lines; blank lines and # comments are skipped
/// Throws Error naming the location (and line) for anything else, and for stub
/// files that name each other in a loop or nest more than 8 deep.
std::vector<ShardLocation> expand_locations(const std::vector<std::string>& locations);

/// The databases a search runs on: every shard as one, and each alone.
struct OpenIndex {
  std::string name;      ///< the locations as given, for messages
  std::string rebuild;   ///< how to rebuild it, for messages: "rebuild it with: indexer --rebuild"
  Xapian::Database all;  ///< every shard, searched as one
  std::vector<Xapian::Database> shards;  ///< each shard alone
  bool remote = false;                   ///< a shard is served over TCP: no MatchDecider runs there
  std::vector<std::string> missing;      ///< shards that did not answer (allow_partial)
  /// Shard number K → its place in `all`, when every shard of a sharded index
  /// is open (empty otherwise): where a document of shard K is in the whole
  /// (Verifier), by the rule that placed it (schema::shard_of).
  std::vector<std::size_t> shard_places;
  /// Local shards (one index, or every shard with shard_places known): each
  /// one's facet columns by its place, when every one describes the revision
  /// opened (empty otherwise: facets are counted from the values).
  std::vector<std::shared_ptr<const FacetColumns>> columns;
  /// Local shards: each one's word list, when every one describes the
  /// revision opened (empty otherwise: word_list() builds one from the terms).
  std::vector<std::shared_ptr<const WordList>> words;

  /// The word list of every shard: the shards' lists merged, or one built
  /// from their terms, on first use (the substring tier's candidates of
  /// letters and digits need it).
  const WordList& word_list() const;
  /// The katakana words of every shard and their notes, on first use (a
  /// katakana word's compounds need them).
  const KatakanaWords& katakana_words() const;
  /// The place in `all` of the shard a document handed to a MatchDecider or
  /// MatchSpy comes from (it knows its number in that shard only, Xapian's
  /// rule): the shard its SHARD value names. Needs shard_places (0 without).
  std::size_t place_of(const Xapian::Document& doc) const;
  /// Xapian numbers the whole by turns: document d of the shard at place p
  /// of n is (d - 1) n + p + 1 in `all`. The number in the whole of a
  /// shard's document, and a document's place and number in its shard.
  Xapian::docid in_all(Xapian::docid in_shard, std::size_t place) const;
  std::pair<std::size_t, Xapian::docid> in_shard(Xapian::docid in_all) const;

 private:
  mutable std::shared_ptr<const WordList> m_built_words;
  mutable std::shared_ptr<const KatakanaWords> m_katakana;
};

/// Opens the shards the locations name and checks that they are one vault's
/// complete set of shards, each database once, of this schema, of one indexer
/// run (shards of one sharded folder may differ after an update cut short). With allow_partial a
/// remote shard that does not answer (or one not given) is left out and
/// named in OpenIndex::missing. Throws Error naming the shard otherwise.
OpenIndex open_index(const std::vector<std::string>& locations, bool allow_partial,
                     const std::string& indexer = "indexer");

}  // namespace sagasu
