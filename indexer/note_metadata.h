// A note's own metadata, from every place researchers keep it: front-matter
// keys, a property table at the top, inline fields, the folders and file name
// of its path, its own tags, the `@YYYY__VENUE__Title` file-name convention,
// and, for a work whose metadata gives no year, the year its opening lines
// state. What each key and path means comes from the vault config; every
// value remembers where it was found, for the coverage report.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sagasu/kinds.h"
#include "sagasu/note.h"
#include "vault_config.h"

namespace sagasu {

/// Where a value of a note's own metadata was found.
enum class Origin { FrontMatter, Table, InlineField, Path, FileName, Text };
/// "front matter", "table", "inline field", "path", "file name", "text".
std::string_view to_string(Origin o);

/// A value and where it was found.
struct Found {
  std::string value;
  Origin origin;
  /// A person's only: the value reads as a person's name or is one of an
  /// author list (names::reads_as_person). A site or a handle credited
  /// alone ("author: [[Zenn]]") is not; its page may still say it is one.
  bool person_shaped = true;
};

/// What a note says about itself.
struct NoteMetadata {
  std::vector<Found> venues, years, persons, orgs, tags;
  std::vector<KindWord> kind_words;  ///< most trusted first: a source file name, kind keys, paths, own tags
  /// The year a work's opening lines give when its metadata gives none
  /// ("2023年 [[左右社]]", "[[Jonathan Sterne]], 2021, Duke University Press").
  std::optional<std::string> text_year;
  /// Property keys no facet reads, as "front matter: created", "table: Session".
  std::vector<std::string> unmapped;

  /// Does the note name its own authors and its own venue or year (not from its path)?
  bool bibliographic() const;
};

/// Reads a note's own metadata as the config says.
NoteMetadata read_metadata(const Note& note, const VaultConfig& config);

/// The years (1900–2099) a value writes, in order: "2013-01-01" → 2013, "ICRA 2025" → 2025.
std::vector<std::string> years_in(std::string_view value);

}  // namespace sagasu
