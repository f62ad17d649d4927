// The equivalents a note states, for the vault's glossary (the bridge tier of
// the searcher): what a person writes to say that two names are one thing.
//   - a gloss in parentheses: 特性調査(characterization), 強化学習 (Reinforcement
//     Learning, RL), fault tolerance（耐障害性）, ByteDance(バイトダンス、字节跳动);
//   - an abbreviation defined: Silent Data Corruption (SDC), RL (Reinforcement Learning);
//   - a link shown under a text of the other script: [[Xin Liu|劉鑫]];
//   - an acronym defined by a Japanese phrase or term, whose letters are not
//     the initials of English words beside it: 人間のフィードバックによる強化学習
//     （RLHF）, RLHF（人間のフィードバックによる強化学習）. The acronym is a kind
//     of the term the phrase ends with (強化学習): one way only, and the
//     searcher takes it as a weaker equivalent (--loose), never as a match.
// Only what passes checks that keep it precise is taken: the English is words
// (no digits, at most five, not a lone acronym or a CamelCase system name whose
// words cannot be checked), an acronym's letters are its words' initials, a
// katakana name sounds like its English (sounds.h), and a Japanese term is
// the kanji/katakana run just before the parenthesis.
#pragma once

#include <vector>

#include "sagasu/note.h"
#include "sagasu/stored_note.h"

namespace sagasu {

/// The note's equivalents, sorted, each once.
std::vector<Gloss> learn_glosses(const Note& note);

}  // namespace sagasu
