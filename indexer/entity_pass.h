// Phase 3 of an index run: which page each name of the vault means and what
// kind of thing it is; the notes to rebuild because an entity they depend on
// changed; and the entity report (entities, unresolved ones, ambiguous
// aliases), kept in the index as the findings so a run that resolves nothing
// anew can report them again.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "entity_resolver.h"
#include "index_state.h"
#include "sagasu/indexer.h"
#include "shard_set.h"

namespace sagasu {

/// The entities of the whole vault, for one index run.
class EntityPass {
 public:
  /// Reads the override file (.sagasu/entities.tsv below root; an unreadable
  /// one is reported skipped and the overrides last read are kept). When no
  /// note's digest and no override changed, the resolution and findings the
  /// index keeps are reused; otherwise every digest is resolved anew (one
  /// pass, whatever changed) and the notes depending on a changed entity are found. Fills report.unresolved,
  /// ambiguous and, with opts.entity_notes, entities.
  EntityPass(const IndexState& state, ShardSet& shards, const IndexOptions& opts, const VaultConfig& config,
             const std::filesystem::path& root, IndexReport& report);

  /// The resolution of this run; an empty one when no note changed (none is built).
  const EntityResolver& resolver() const { return m_resolver; }
  /// Did the notes or the override file change (or is the index built fresh)?
  /// Only then is what derives from the whole vault computed again.
  bool any_change() const { return m_any_change; }
  /// Was the resolution the index keeps reused (no note's digest and no
  /// override changed)? Then what derives from the digests (the synonym
  /// table, the glossary) still holds too.
  bool reused() const { return m_reused; }
  /// Indexed paths whose files did not change but whose documents are rebuilt:
  /// they link to, or are the page of, an entity whose canonical name, kind or
  /// evidence changed.
  const std::set<std::string>& refresh() const { return m_refresh; }
  /// How many entities the findings of the index in folder `index` list as
  /// unresolved (the last run's); nullopt when it has none or cannot be read.
  static std::optional<std::size_t> unresolved_in_index(const std::string& index);
  /// The index metadata this pass keeps: the override file as read and, when
  /// resolved anew, the findings and the resolution's hash. The resolution
  /// itself is written here, before the commit that stores its hash, into a
  /// file beside the first shard's generation (ShardSet::cache): a run killed
  /// in between leaves a file that no hash vouches for, and the next run
  /// resolves the vault again. Only when that file cannot be written (a full
  /// disk) is the resolution stored in the index, as an older Sagasu stored it.
  std::vector<std::pair<std::string, std::string>> metadata(const ShardSet& shards) const;
  /// Stamps each shard, before its commit, with the revision that commit
  /// makes when metadata() stored the resolution's hash: the next run trusts
  /// the hash (and the copy of the resolution) only while that is the shard's revision.
  void stamp(ShardSet& shards) const;

 private:
  EntityResolver m_resolver;
  std::string m_overrides;
  bool m_any_change = false;
  bool m_reused = false;  // the index's resolution and findings (and what derives from the digests)
  std::set<std::string> m_refresh;
  std::string m_findings;        // JSON, when resolved anew
  std::string m_kept_hash;       // the hash of the resolution kept
  std::string m_kept_rows_hash;  // ... and of its entity rows ("": none vouched for)
  std::string m_rows_hash;       // the hash of their entity rows, kept (entity_rows.h; "": none)

  void resolve(const IndexState& state, ShardSet& shards, const IndexOptions& opts, const VaultConfig& config,
               IndexReport& report);
};

}  // namespace sagasu
