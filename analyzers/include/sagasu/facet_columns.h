// Facet columns: for every document, the ordinals of its values of each facet
// (Lucene's SortedSetDocValues), in a file beside the Xapian database of a
// generation, so exact facet counts are a tight loop over the matching
// document ids instead of a value read, a split and a map update per
// document. The indexer writes the file after each commit; it names the
// database revision it describes, and a reader uses it only for that
// revision (anything else, a missing or damaged file included, falls back to
// reading the values). Written by the indexer, read by the searcher: the one
// codec of the format.
//
// File (little-endian u32 unless said):
//   "SGFC1\0\0\0"  u64 revision (generation_file.h)  docid limit (last docid + 1)  facet count
//   per facet: slot, value count, blob bytes, value offsets [count + 1],
//              blob (the values, padded to 4 bytes),
//              document offsets [limit + 1], ordinals [document offsets[limit]]
#pragma once

#include <xapian.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/generation_file.h"

namespace sagasu {

/// The file name of the facet columns in a generation folder.
inline constexpr std::string_view FACET_COLUMNS_FILE = "sagasu-facets";

/// One facet's column, read from the mapped file.
struct FacetColumn {
  Xapian::valueno slot = 0;
  std::vector<std::string_view> values;  ///< ordinal → value
  const std::uint32_t* doc_offsets =
      nullptr;  ///< [limit + 1]: document d's ordinals are [doc_offsets[d], doc_offsets[d + 1])
  const std::uint32_t* ordinals = nullptr;
  std::uint32_t limit = 0;  ///< document ids below this have entries

  /// Adds one to counts[ordinal] for each value of document did.
  void count(Xapian::docid did, std::vector<std::uint32_t>& counts) const {
    if (did >= limit) return;
    for (std::uint32_t k = doc_offsets[did]; k < doc_offsets[did + 1]; ++k) ++counts[ordinals[k]];
  }
};

/// The facet columns of one database, memory-mapped.
class FacetColumns {
 public:
  /// Writes the columns of db's facet slots into folder (atomically: a
  /// temporary file renamed) unless the file there describes db's revision
  /// already. Throws Error naming the file when it cannot be written.
  static void write(const Xapian::Database& db, const std::string& folder);
  /// Brings the columns in folder from revision `before` of db to its
  /// revision, where only the documents in `changed` (replaced, added,
  /// deleted) differ: the file write() makes, reading only their values.
  /// Writes them whole when folder has no columns of revision `before`.
  static void update(const Xapian::Database& db, const std::string& folder, Xapian::rev before,
                     const std::set<Xapian::docid>& changed);
  /// The columns in folder when they describe exactly this revision of db;
  /// nullptr otherwise (no file, another revision, a damaged file).
  static std::shared_ptr<const FacetColumns> open(const std::string& folder, const Xapian::Database& db);

  FacetColumns(const FacetColumns&) = delete;
  FacetColumns& operator=(const FacetColumns&) = delete;

  /// The column of a value slot, or nullptr.
  const FacetColumn* column(Xapian::valueno slot) const;

 private:
  FacetColumns() = default;
  bool parse();
  /// The columns in folder when the file describes revision `revision`, whatever its document count.
  static std::shared_ptr<const FacetColumns> open_revision(const std::string& folder, Xapian::rev revision);
  std::unique_ptr<generation_file::Mapped> m_map;
  std::vector<FacetColumn> m_columns;
};

}  // namespace sagasu
