// A parsed note's digest and field values with the default vault config, for
// the unit tests of the indexer's parts.
#pragma once

#include <string_view>
#include <vector>

#include "entity_resolver.h"
#include "field_values.h"
#include "note_metadata.h"
#include "vault_config.h"

namespace sagasu::test {

/// The defaults: no config file.
inline const VaultConfig& default_config() {
  static const VaultConfig config;
  return config;
}
inline NoteMetadata metadata(const Note& n) {
  return read_metadata(n, default_config());
}
inline NoteDigest digest(const Note& n) {
  return make_digest(n, metadata(n));
}
inline FieldValues values_of(const Note& n, const EntityResolver& r) {
  return field_values(n, metadata(n), r);
}
/// The page of a title among these digests, as the indexer's PageOf finds it:
/// nullptr when none, or two notes, have it.
inline const NoteDigest* page_titled(const std::vector<NoteDigest>& ds, std::string_view title) {
  const NoteDigest* page = nullptr;
  for (const auto& d : ds)
    if (d.title == title) {
      if (page) return nullptr;
      page = &d;
    }
  return page;
}

}  // namespace sagasu::test
