// What a note's own text says about kinds, beside what it declares: its
// defining first sentence (「X は…の企業。」 → organization), and the words
// around the names it links (「[[久保田裕之]]（監訳）」 → person,
// 「[[ByteDance Seed]] 所属の研究者」 → organization), and which linked names
// stand together in one list (a name without a page listed among people is
// a person). The entity resolver weighs them below what pages declare.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sagasu/kinds.h"
#include "sagasu/note.h"
#include "sagasu/stored_note.h"

namespace sagasu {

/// The kind a page's first sentence defines it as, and the word that says so.
std::optional<std::pair<Kind, std::string>> defining_sentence(const Note& note);

/// What the words around a note's links say (NoteDigest::hints and lists).
struct LinkContexts {
  std::vector<KindHint> hints;
  std::vector<std::vector<std::string>> lists;  ///< linked names written as one list, as written
};

/// The hints and lists of a note's links (not embeds, not citations).
LinkContexts link_contexts(const Note& note);

}  // namespace sagasu
